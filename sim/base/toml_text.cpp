// TOML text escaping (see toml_text.hpp).
#include "sim/base/toml_text.hpp"

#include <cstdio>

namespace ridge {

namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

std::string unicode_escape(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04X", c);
  return buf;
}

}  // namespace

std::string toml_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (is_control(static_cast<unsigned char>(c))) out += unicode_escape(static_cast<unsigned char>(c));
    else out += c;
  }
  return out + "\"";
}

std::string toml_comment_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (is_control(static_cast<unsigned char>(c)) && c != '\t') out += unicode_escape(static_cast<unsigned char>(c));
    else out += c;
  }
  return out;
}

}  // namespace ridge
