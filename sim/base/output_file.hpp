// Writing a report where the user asked: stdout, or a file written to a temporary
// beside it and renamed into place, so a failed run never leaves half a file.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ridge {

// Renders completely into memory first; only then writes `path` (or stdout when
// empty). Throws RunError when the file cannot be written.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& render);

// Writes `content` to `path` through a temporary and a rename.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace ridge
