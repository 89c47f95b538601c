// Finding and showing control characters (see control_chars.hpp).
#include "sim/base/control_chars.hpp"

#include <cstdio>

namespace ridge {

size_t control_char_at(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7f) return 1;
  if (c == 0xc2 && i + 1 < s.size()) {
    auto next = static_cast<unsigned char>(s[i + 1]);
    if (next >= 0x80 && next <= 0x9f) return 2;
  }
  return 0;
}

namespace {

// The code point of the control character of `len` bytes at s[i].
unsigned code_point(std::string_view s, size_t i, size_t len) {
  return len == 1 ? static_cast<unsigned char>(s[i]) : static_cast<unsigned char>(s[i + 1]);
}

}  // namespace

std::optional<std::string> first_control_char(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (size_t len = control_char_at(s, i)) {
      char code[12];
      std::snprintf(code, sizeof code, len == 1 ? "0x%02x" : "U+%04X", code_point(s, i, len));
      return std::string(code);
    }
  return std::nullopt;
}

std::string printable(std::string_view s) {
  std::string o;
  for (size_t i = 0; i < s.size();) {
    size_t len = control_char_at(s, i);
    if (len == 0) {
      o += s[i++];
      continue;
    }
    char c = s[i];
    if (c == '\n') o += "\\n";
    else if (c == '\t') o += "\\t";
    else if (c == '\r') o += "\\r";
    else {
      char code[12];
      std::snprintf(code, sizeof code, len == 1 ? "\\x%02x" : "\\u%04x", code_point(s, i, len));
      o += code;
    }
    i += len;
  }
  return o;
}

}  // namespace ridge
