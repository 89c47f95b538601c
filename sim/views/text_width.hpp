// The 120-column budget of every text report, and the helpers that keep to it: the
// on-screen width of UTF-8 text, eliding a cell with "…", and wrapping prose lines at
// spaces with a hanging indent ("- " sentences, "# " comments).
#pragma once

#include <cstddef>
#include <string>

namespace ridge {

// No line of a default text report (tables, sentences, notes) is wider than this.
inline constexpr size_t kTextWidth = 120;

// Width on screen of UTF-8 text: its code points (enough for the symbols ridge prints).
size_t display_width(const std::string& s);

// `s` cut to `width` code points with "…" marking the cut: at the end ("NVIDIA H100 S…")
// or, for names whose both ends matter, in the middle ("layers.2…q_proj").
std::string elide_end(const std::string& s, size_t width);
std::string elide_middle(const std::string& s, size_t width);

// Every line of `text` wider than `width` broken at spaces; continuation lines are
// indented under the line's text: past a leading "- " or "# " (comments continue with
// "#   "), else by four spaces. A word longer than the width stays whole.
std::string wrap_lines(const std::string& text, size_t width = kTextWidth);

}  // namespace ridge
