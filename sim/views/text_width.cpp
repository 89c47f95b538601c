// Widths, elision and wrapping of report text (see text_width.hpp).
#include "sim/views/text_width.hpp"

#include <sstream>

namespace ridge {

namespace {
const std::string kEllipsis = "\xE2\x80\xA6";  // U+2026, one column

bool continuation_byte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Byte offset of code point `n` of `s` (s.size() past the end).
size_t offset_of(const std::string& s, size_t n) {
  size_t i = 0;
  for (; i < s.size(); ++i)
    if (!continuation_byte(static_cast<unsigned char>(s[i])) && n-- == 0) return i;
  return s.size();
}

// Where the text of a line starts, and how its continuation lines begin.
std::pair<size_t, std::string> hanging_indent(const std::string& line) {
  size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return {0, ""};
  std::string spaces(lead, ' ');
  if (line.compare(lead, 2, "# ") == 0) return {lead + 2, spaces + "#   "};
  if (line.compare(lead, 2, "- ") == 0) return {lead + 2, spaces + "  "};
  return {lead, spaces + "    "};
}

void wrap_line(const std::string& line, size_t width, std::string& out) {
  auto [start, indent] = hanging_indent(line);
  std::string head = line.substr(0, start), rest = line.substr(start);
  while (display_width(head) + display_width(rest) > width) {
    size_t room = width > display_width(head) ? width - display_width(head) : 0;
    size_t cut = rest.rfind(' ', offset_of(rest, room));
    if (cut == std::string::npos || cut == 0) cut = rest.find(' ', offset_of(rest, room));
    size_t next = cut == std::string::npos ? cut : rest.find_first_not_of(' ', cut);
    if (next == std::string::npos) break;  // one word, or only spaces after the cut
    out += head + rest.substr(0, cut) + '\n';
    rest = rest.substr(next);
    head = indent;
  }
  out += head + rest + '\n';
}
}  // namespace

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += !continuation_byte(c);
  return n;
}

std::string elide_end(const std::string& s, size_t width) {
  if (display_width(s) <= width) return s;
  if (width == 0) return "";
  return s.substr(0, offset_of(s, width - 1)) + kEllipsis;
}

std::string elide_middle(const std::string& s, size_t width) {
  size_t w = display_width(s);
  if (w <= width) return s;
  if (width < 3) return elide_end(s, width);
  size_t tail = (width - 1) / 2, head = width - 1 - tail;
  return s.substr(0, offset_of(s, head)) + kEllipsis + s.substr(offset_of(s, w - tail));
}

std::string wrap_lines(const std::string& text, size_t width) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) wrap_line(line, width, out);
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace ridge
