// Bounded input file reading (see input_file.hpp).
#include "sim/base/input_file.hpp"

#include <fstream>
#include <sstream>

#include "sim/base/error.hpp"

namespace ridge {

std::optional<std::string> read_input_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  std::streamoff size = in.tellg();
  if (size > kMaxInputFileBytes)
    throw InputError({path}, "the file is " + std::to_string(size) + " bytes, more than the limit of 16 MiB for an input file",
                     "ridge's inputs are a few KB; check that this is the file you meant");
  std::string text;
  if (size >= 0) {
    in.seekg(0);
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
    return text;
  }
  // A FIFO or device has no size: read in pieces, up to the limit.
  in.clear();
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    text.append(piece, static_cast<size_t>(in.gcount()));
    if (static_cast<int64_t>(text.size()) > kMaxInputFileBytes)
      throw InputError({path}, "the input is more than the limit of 16 MiB for an input file",
                       "ridge's inputs are a few KB; check that this is the file you meant");
  }
  return text;
}

}  // namespace ridge
