// Safe report output (see output_file.hpp).
#include "sim/base/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include "sim/base/error.hpp"
#include "sim/base/input_file.hpp"
#include "sim/base/signal_cleanup.hpp"

namespace ridge {

namespace {

namespace fs = std::filesystem;

// Writes all of `content` to `fd`; false (errno set) on failure.
bool write_all(int fd, const std::string& content) {
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

std::string random_suffix() {
  std::random_device rd;
  uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// A FIFO or a terminal-like device (/dev/null, /dev/stdout): written in place, since
// replacing it with a regular file would break whoever reads it.
void write_through(const std::string& path, const std::string& shown, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw RunError("cannot write '" + shown + "': " + std::strerror(errno));
  bool ok = write_all(fd, content);
  int err = errno;
  ::close(fd);
  if (!ok) throw RunError("writing '" + shown + "' failed: " + std::strerror(err));
}

// Where a finished file goes for the name the user gave: a symbolic link's target (as
// shells' `>` does; the link itself is kept), or the name itself. Sets `through` for a
// FIFO or character device, which is written in place; refuses anything else that is
// not a regular file.
std::string resolve_destination(const std::string& path, bool& through) {
  through = false;
  if (is_input_file(path))
    throw InputError({path}, "the output would overwrite an input file of this run",
                     "give --output a file name of its own");
  std::string target = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    // /dev/stdout into a pipe links to "pipe:[N]", which has no canonical path: a link
    // that leads to a FIFO or device is written through as it is.
    struct stat end {};
    if (::stat(path.c_str(), &end) == 0 && (S_ISFIFO(end.st_mode) || S_ISCHR(end.st_mode))) {
      through = true;
      return path;
    }
    std::error_code ec;
    fs::path resolved = fs::canonical(path, ec);
    if (ec)
      throw RunError("'" + path + "' is a symbolic link to a missing file or folder",
                     "point the link at an existing folder, or remove it");
    target = resolved.string();
  }
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    through = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
    if (!through)
      throw RunError("'" + path + "' exists and is not a regular file (" +
                         (S_ISDIR(st.st_mode) ? std::string("a folder") : std::string("a socket or block device")) + ")",
                     "give a file name for --output");
  }
  return target;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  bool through = false;
  std::string target = resolve_destination(path, through);
  if (through) return write_through(target, path, content);
  // The temporary: a random name, created exclusively and never through a link, so a
  // name planted beside the output cannot redirect the write.
  std::string tmp;
  int fd = -1;
  std::unique_ptr<SignalCleanup> cleanup;  // a Ctrl-C once the temporary exists leaves none
  {
    SignalsHeld held;  // a signal between the open and the registration waits for it
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
      tmp = target + ".tmp-" + random_suffix();
      fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST) break;
    }
    if (fd >= 0) cleanup = std::make_unique<SignalCleanup>(tmp, SignalCleanup::Kind::file);
  }
  if (fd < 0)
    throw RunError("cannot write '" + path + "': " + std::strerror(errno), "check that the folder exists and is writable");
  bool ok = write_all(fd, content);
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    throw RunError("writing '" + path + "' failed: " + std::strerror(err));
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    throw RunError("cannot move the output into place at '" + path + "': " + std::strerror(err));
  }
}

void move_into_place(const std::string& finished, const std::string& path) {
  bool through = false;
  std::string target = resolve_destination(path, through);
  if (through) {
    std::ifstream in(finished, std::ios::binary);
    std::stringstream content;
    content << in.rdbuf();
    write_through(target, path, content.str());
    ::unlink(finished.c_str());
    return;
  }
  if (::rename(finished.c_str(), target.c_str()) != 0)
    throw RunError("cannot move '" + finished + "' into place at '" + path + "': " + std::strerror(errno));
}

void check_stdout() {
  std::cout.flush();
  if (!std::cout) {
    std::cout.clear();  // so nothing later writes to a stream in error
    throw RunError(std::string("writing to the standard output failed: ") +
                   (errno != 0 ? std::strerror(errno) : "the stream is in error"),
                   "is the disk full, or the reading end closed?");
  }
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& render) {
  std::ostringstream buffer;
  render(buffer);
  if (path.empty() || path == "-") {
    std::cout << buffer.str();
    check_stdout();
    return;
  }
  write_file_atomically(path, buffer.str());
}

}  // namespace ridge
