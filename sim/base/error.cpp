// Formatting of user-facing errors (see error.hpp).
#include "sim/base/error.hpp"

#include "sim/base/control_chars.hpp"

namespace ridge {

InputError::InputError(SourceLoc loc, const std::string& message, std::string hint)
    : std::runtime_error(printable(message)), loc_(std::move(loc)), hint_(std::move(hint)) {}

RunError::RunError(const std::string& message, std::string hint)
    : std::runtime_error(printable(message)), hint_(std::move(hint)) {}

std::string to_string(const SourceLoc& loc) {
  if (loc.file.empty()) return {};
  std::string s = loc.file;
  if (loc.line > 0) {
    s += ":" + std::to_string(loc.line);
    if (loc.column > 0) s += ":" + std::to_string(loc.column);
  }
  return s;
}

namespace {
std::string with_hint(std::string text, const std::string& hint) {
  text = printable(text);
  if (!hint.empty()) text += "\nhint: " + printable(hint);
  return text;
}
}  // namespace

std::string format_error(const InputError& e) {
  std::string where = to_string(e.where());
  return with_hint("error: " + (where.empty() ? "" : where + ": ") + e.what(), e.hint());
}

std::string format_error(const RunError& e) { return with_hint(std::string("error: ") + e.what(), e.hint()); }

}  // namespace ridge
