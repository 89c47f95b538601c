// Writing a report where the user asked: stdout, or a file written to a temporary
// beside it and renamed into place, so a failed or interrupted run never leaves half a
// file. The temporary has a random name and is created with O_EXCL | O_NOFOLLOW; it is
// removed if SIGINT / SIGTERM / SIGHUP stops ridge during the write. A symbolic link is
// followed (its target is written, the link kept); a FIFO or character device
// (/dev/null) is written through in place, never replaced; a folder, socket or block
// device is refused, and so is a file the run read as input (InputError).
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ridge {

// Renders completely into memory first; only then writes `path` (or stdout when
// empty). Throws RunError when the file cannot be written.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& render);

// Flushes stdout and throws RunError when anything written to it was lost (a full disk,
// `> /dev/full`): a report that did not arrive is a failure, exit 1.
void check_stdout();

// Writes `content` to `path` through a temporary and a rename.
void write_file_atomically(const std::string& path, const std::string& content);

// Puts a finished file (written elsewhere on the same file system, e.g. a plot image in
// its temporary folder) at `path` with the same rules: a link's target, a FIFO or
// character device written through, anything else non-regular refused.
void move_into_place(const std::string& finished, const std::string& path);

}  // namespace ridge
