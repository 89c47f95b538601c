// Reading a user's input file (model, descriptor, sweep file, sweep CSV) whole, within
// a size limit: a file larger than any real input (a 1 GB "model") is an error before
// it is read, not an exhausted memory. Every input read is remembered, so no output
// replaces it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ridge {

constexpr int64_t kMaxInputFileBytes = int64_t{16} << 20;  // 16 MiB (~200 MB to parse); the zoo's files are a few KB

// The file's text, or nothing when it cannot be opened (the caller says why in its own
// words). A file over kMaxInputFileBytes is an InputError naming it.
// The file is remembered as an input of this run (see is_input_file).
std::optional<std::string> read_input_file(const std::string& path);

// Remembers a regular file read by other means (an ONNX model) as an input of this run.
void note_input_file(const std::string& path);

// True when `path` is (a link to) a regular file this run read as input: an --output
// naming it would overwrite the model, descriptor or CSV the run was computed from.
bool is_input_file(const std::string& path);

}  // namespace ridge
