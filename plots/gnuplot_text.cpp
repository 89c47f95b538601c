// Safe gnuplot text (see gnuplot_text.hpp).
#include "plots/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/base/control_chars.hpp"
#include "sim/base/format_units.hpp"

namespace ridge::plots {

namespace {

// Bytes in the UTF-8 sequence that starts with `lead` (1 for ASCII and stray bytes).
size_t utf8_length(unsigned char lead) {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

std::string latex_char(char c) {
  switch (c) {
    case '\\': return "\\textbackslash{}";
    case '{': return "\\{";
    case '}': return "\\}";
    case '$': return "\\$";
    case '&': return "\\&";
    case '#': return "\\#";
    case '%': return "\\%";
    case '_': return "\\_";
    case '^': return "\\textasciicircum{}";
    case '~': return "\\textasciitilde{}";
    default: return std::string(1, c);
  }
}

}  // namespace

std::string display_text(std::string_view text, TextMarkup markup) {
  std::string out;
  size_t shown = 0;  // characters (code points) so far
  for (size_t i = 0; i < text.size();) {
    if (++shown > kMaxLabelChars) {
      out += "...";
      break;
    }
    if (size_t len = control_char_at(text, i)) {
      out += ' ';
      i += len;
      continue;
    }
    auto lead = static_cast<unsigned char>(text[i]);
    size_t len = std::min(utf8_length(lead), text.size() - i);
    if (lead >= 0x80) {
      // pdflatex cannot typeset CJK or emoji without packages a paper may not load; the
      // three non-ASCII signs ridge writes itself (µs, ×12, the … of a shortened name) have LaTeX commands.
      std::string_view ch = text.substr(i, len);
      out += markup != TextMarkup::latex ? std::string(ch)
             : ch == "\u00b5"           ? std::string("\\textmu{}")
             : ch == "\u00d7"           ? std::string("$\\times$")
             : ch == "\u2026"           ? std::string("\\ldots{}")
                                        : std::string("?");
      i += len;
      continue;
    }
    char c = text[i++];
    // "]]>" may not appear in XML text, which the SVG terminal writes names into unescaped.
    if (c == '>' && out.size() >= 2 && out.compare(out.size() - 2, 2, "]]") == 0) out += ' ';
    out += markup == TextMarkup::latex ? latex_char(c) : std::string(1, c);
  }
  return out;
}

namespace {

std::string quoted_data(const std::string& display) {
  std::string out = "\"";
  for (char c : display) {
    if (c == '"')
      out += "''";
    else if (c == '\\')
      out += "\\\\";  // gnuplot reads escapes (\t, \\) in a data field taken as a string
    else
      out += c;
  }
  return out + "\"";
}

std::string quoted_gp(const std::string& display) {
  std::string out = "'";
  for (char c : display) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// The escaped text, in LaTeX set at `points`.
std::string sized_display(std::string_view text, TextMarkup markup, double points) {
  std::string display = display_text(text, markup);
  if (markup != TextMarkup::latex) return display;
  // No braces round it: gnuplot's LaTeX terminals take a label that starts with '{' as
  // raw LaTeX and drop its justification; the \makebox the label goes in keeps the size local.
  return "\\fontsize{" + gp_number(points) + "}{" + gp_number(std::round(points * 12) / 10) + "}\\selectfont " + display;
}

}  // namespace

std::string data_string(std::string_view text, TextMarkup markup) { return quoted_data(display_text(text, markup)); }
std::string gp_string(std::string_view text, TextMarkup markup) { return quoted_gp(display_text(text, markup)); }

std::string data_string(std::string_view text, TextMarkup markup, double points) {
  return quoted_data(sized_display(text, markup, points));
}
std::string gp_string(std::string_view text, TextMarkup markup, double points) {
  return quoted_gp(sized_display(text, markup, points));
}

std::string gp_number(double v) { return format_raw(v); }

}  // namespace ridge::plots
