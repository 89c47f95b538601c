// Data folder discovery (see data_paths.hpp).
#include "sim/data_paths.hpp"

#include <cstdlib>
#include <system_error>

namespace ridge {

std::filesystem::path data_root() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("RIDGE_DATA_DIR"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path())
      if (fs::is_directory(dir / "models", ec) && fs::is_directory(dir / "configs", ec)) return dir;
  }
  return RIDGE_SOURCE_DIR;
}

}  // namespace ridge
