// Formatting of user-facing errors (see error.hpp).
#include "sim/base/error.hpp"

#include <cstdio>

namespace ridge {

std::string to_string(const SourceLoc& loc) {
  if (loc.file.empty()) return {};
  std::string s = loc.file;
  if (loc.line > 0) {
    s += ":" + std::to_string(loc.line);
    if (loc.column > 0) s += ":" + std::to_string(loc.column);
  }
  return s;
}

namespace {
// Control characters from user text (a --set value with a newline, an escape code in a
// file name) are shown escaped, so an error stays one line and nothing reaches the
// terminal raw.
std::string printable(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c == '\n') o += "\\n";
    else if (c == '\t') o += "\\t";
    else if (c == '\r') o += "\\r";
    else if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02x", c);
      o += code;
    } else o += static_cast<char>(c);
  }
  return o;
}

std::string with_hint(std::string text, const std::string& hint) {
  text = printable(text);
  if (!hint.empty()) text += "\nhint: " + printable(hint);
  return text;
}
}  // namespace

std::string format_error(const InputError& e) {
  std::string where = to_string(e.where());
  return with_hint("error: " + (where.empty() ? "" : where + ": ") + e.what(), e.hint());
}

std::string format_error(const RunError& e) { return with_hint(std::string("error: ") + e.what(), e.hint()); }

}  // namespace ridge
