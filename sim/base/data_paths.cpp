// Data folder discovery (see data_paths.hpp).
#include "sim/base/data_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace ridge {

namespace {
std::filesystem::path root_beside_executable() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto holds_data = [&](const fs::path& dir) {
      return fs::is_directory(dir / "models", ec) && fs::is_directory(dir / "configs", ec);
    };
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      if (holds_data(dir / "share" / "ridge")) return dir / "share" / "ridge";  // installed: PREFIX/bin/ridge
      if (holds_data(dir)) return dir;                                            // a source tree's build folder
    }
  }
  return RIDGE_SOURCE_DIR;
}
}  // namespace

std::filesystem::path data_root() {
  if (const char* env = std::getenv("RIDGE_DATA_DIR"); env && *env) return env;
  // Looked up once: the executable does not move while it runs (the Python module asks on every call).
  static const std::filesystem::path beside_executable = root_beside_executable();
  return beside_executable;
}

std::vector<std::string> toml_stems(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool names_a_file(const std::string& arg) { return arg.find('/') != std::string::npos || arg.ends_with(".toml") || arg.ends_with(".onnx"); }

bool path_present(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) || ec;
}

bool shipped_file_exists(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) && !ec;
}

}  // namespace ridge
