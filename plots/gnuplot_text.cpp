// Safe gnuplot text (see gnuplot_text.hpp).
#include "plots/gnuplot_text.hpp"

#include "sim/base/format_units.hpp"

#include <cstdio>

namespace ridge::plots {

std::string display_text(std::string_view text, TextMarkup markup) {
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += ' ';
      continue;
    }
    if (markup == TextMarkup::plain) {
      out += c;
      continue;
    }
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '$': out += "\\$"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '%': out += "\\%"; break;
      case '_': out += "\\_"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      default: out += c;
    }
  }
  return out;
}

std::string data_string(std::string_view text, TextMarkup markup) {
  std::string out = "\"";
  for (char c : display_text(text, markup)) {
    if (c == '"')
      out += "''";
    else if (c == '\\')
      out += "\\\\";  // gnuplot reads escapes (\t, \\) in a data field taken as a string
    else
      out += c;
  }
  return out + "\"";
}

std::string gp_string(std::string_view text, TextMarkup markup) {
  std::string out = "'";
  for (char c : display_text(text, markup)) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string gp_number(double v) { return format_raw(v); }

}  // namespace ridge::plots
