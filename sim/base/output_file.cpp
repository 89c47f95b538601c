// Atomic report output (see output_file.hpp).
#include "sim/base/output_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "sim/base/error.hpp"

namespace ridge {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path tmp = target;
  tmp += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw RunError("cannot write '" + path + "'", "check that the folder exists and is writable");
    out << content;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw RunError("writing '" + path + "' failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw RunError("cannot move the output into place at '" + path + "'");
  }
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& render) {
  std::ostringstream buffer;
  render(buffer);
  if (path.empty() || path == "-") {
    std::cout << buffer.str();
    std::cout.flush();
    return;
  }
  write_file_atomically(path, buffer.str());
}

}  // namespace ridge
