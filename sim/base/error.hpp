// Errors that reach the user: bad input (exit 2) and run-time failures (exit 1).
// Nothing under sim/ or hw/ exits or asserts on user input; it throws these and
// main prints them in one place as `error: FILE:LINE:COL: what` plus a `hint:` line.
// A message keeps user text with its control characters shown escaped (printable): what()
// is a C string, so a raw NUL in it cut the message short.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ridge {

// Where in a user's file something was written. An empty file means "not from a file"
// (a command-line option, say); a zero line means "the file as a whole".
struct SourceLoc {
  std::string file;
  int64_t line = 0;
  int64_t column = 0;
};

std::string to_string(const SourceLoc& loc);

// Bad usage or bad input: a malformed file, an unknown key, a shape that does not fit.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, const std::string& message, std::string hint = {});
  const SourceLoc& where() const { return loc_; }
  const std::string& hint() const { return hint_; }

 private:
  SourceLoc loc_;
  std::string hint_;
};

// A failure while running (gnuplot missing, a file that cannot be written).
class RunError : public std::runtime_error {
 public:
  explicit RunError(const std::string& message, std::string hint = {});
  const std::string& hint() const { return hint_; }

 private:
  std::string hint_;
};

// `error: FILE:LINE:COL: message` (location parts omitted when unknown) and, if there
// is one, a second line `hint: ...`.
std::string format_error(const InputError& e);
std::string format_error(const RunError& e);

}  // namespace ridge
