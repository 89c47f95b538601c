// Shipped hardware descriptors and HW argument resolution (see hardware_catalog.hpp).
#include "hw/hardware_catalog.hpp"

#include <filesystem>

#include "sim/base/close_names.hpp"
#include "sim/base/data_paths.hpp"

namespace ridge {

namespace fs = std::filesystem;

std::vector<std::string> shipped_hardware_names() { return toml_stems(data_root() / "configs" / "hw"); }

std::optional<std::string> hardware_file(const std::string& arg) {
  if (names_a_file(arg)) return path_present(arg) ? std::optional<std::string>(arg) : std::nullopt;
  fs::path shipped = data_root() / "configs" / "hw" / (arg + ".toml");
  if (shipped_file_exists(shipped)) return shipped.string();
  return std::nullopt;
}

HardwareDescriptor open_hardware(const std::string& arg) {
  std::optional<std::string> file = hardware_file(arg);
  if (!file && names_a_file(arg))
    throw InputError({}, "no hardware descriptor file '" + arg + "'", "check the path, or use a shipped name (ridge list hardware)");
  if (!file)
    throw InputError({}, "unknown hardware '" + arg + "'",
                     suggestion_hint(arg, shipped_hardware_names()) + " (ridge list hardware)");
  return HardwareDescriptor::read_file(*file, arg);
}

HardwareSpec load_hardware(const std::string& name_or_path, const std::vector<std::string>& overrides) {
  HardwareDescriptor d = open_hardware(name_or_path);
  std::vector<HardwareOverride> parsed;
  for (const std::string& o : overrides) parsed.push_back(parse_override(o));
  return d.spec(parsed);
}

}  // namespace ridge
