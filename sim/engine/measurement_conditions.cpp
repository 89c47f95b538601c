// Reading a measured CSV's `# conditions:` lines (see measurement_conditions.hpp).
#include "sim/engine/measurement_conditions.hpp"

#include <fstream>
#include <sstream>

#include "sim/base/error.hpp"

namespace ridge {

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool is_key(const std::string& k) {
  if (k.empty()) return false;
  for (char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

MeasurementConditions parse_measurement_conditions(const std::string& text, const std::string& file) {
  static const std::string kPrefix = "# conditions:";
  MeasurementConditions out;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind(kPrefix, 0) != 0) continue;
    std::istringstream items(line.substr(kPrefix.size()));
    std::string item;
    while (std::getline(items, item, ';')) {
      if (trimmed(item).empty()) continue;
      const auto eq = item.find('=');
      const std::string key = trimmed(item.substr(0, eq)), value = eq == std::string::npos ? "" : trimmed(item.substr(eq + 1));
      const SourceLoc at{file, number, 1};
      if (eq == std::string::npos || !is_key(key) || value.empty())
        throw InputError(at, "a condition must be 'key = value' with a lower-case key (got '" + trimmed(item) + "')",
                         "write e.g. '# conditions: threads = 1; library = torch 1.13'");
      auto [it, fresh] = out.emplace(key, value);
      if (!fresh && it->second != value)
        throw InputError(at, "measurements taken under different conditions: " + key + " = '" + value + "' here, '" +
                                 it->second + "' on an earlier line",
                         "calibrate each set of conditions apart (one CSV each)");
    }
  }
  return out;
}

MeasurementConditions read_measurement_conditions(const std::string& path) {
  std::ifstream in(path, std::ios::binary);  // read_measured_layers has read it (or said why not)
  std::ostringstream text;
  text << in.rdbuf();
  return parse_measurement_conditions(text.str(), path);
}

}  // namespace ridge
