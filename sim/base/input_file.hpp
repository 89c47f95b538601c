// Reading a user's input file (model, descriptor, sweep file, sweep CSV) whole, within
// a size limit: a file larger than any real input (a 1 GB "model") is an error before
// it is read, not an exhausted memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ridge {

constexpr int64_t kMaxInputFileBytes = int64_t{16} << 20;  // 16 MiB (~200 MB to parse); the zoo's files are a few KB

// The file's text, or nothing when it cannot be opened (the caller says why in its own
// words). A file over kMaxInputFileBytes is an InputError naming it.
std::optional<std::string> read_input_file(const std::string& path);

}  // namespace ridge
