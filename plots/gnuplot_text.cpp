// Safe gnuplot text (see gnuplot_text.hpp).
#include "plots/gnuplot_text.hpp"

#include <cmath>
#include <cstdio>

#include "sim/base/format_units.hpp"

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
