// Bounded input file reading (see input_file.hpp).
#include "sim/base/input_file.hpp"

#include <sys/stat.h>

#include <fstream>
#include <set>
#include <utility>

#include "sim/base/error.hpp"

namespace ridge {

namespace {

// (device, inode) of every regular file read as input; a run reads a handful.
std::set<std::pair<dev_t, ino_t>>& inputs() {
  static std::set<std::pair<dev_t, ino_t>> files;
  return files;
}

}  // namespace

void note_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) inputs().insert({st.st_dev, st.st_ino});
}

bool is_input_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && inputs().count({st.st_dev, st.st_ino}) > 0;
}

std::optional<std::string> read_input_file(const std::string& path) {
  const std::string hint = "ridge's inputs are a few KB; check that this is the file you meant";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > kMaxInputFileBytes)
    throw InputError({path}, "the file is " + std::to_string(st.st_size) +
                                 " bytes, more than the limit of 16 MiB for an input file", hint);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  // Read in pieces, so that a FIFO or device (which has no size) is bounded too.
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    text.append(piece, static_cast<size_t>(in.gcount()));
    if (static_cast<int64_t>(text.size()) > kMaxInputFileBytes)
      throw InputError({path}, "the input is more than the limit of 16 MiB for an input file", hint);
  }
  note_input_file(path);
  return text;
}

}  // namespace ridge
