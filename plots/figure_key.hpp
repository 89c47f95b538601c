// A key that ridge lays out itself, in rows of equal columns under (or over) the plot,
// and draws with screen-placed gnuplot objects: a filled swatch for a bar's part, a
// marker for a point, a line (with its dash and marker) for a series. gnuplot's own
// key lays its columns out by its own text estimate, differently per terminal (it
// clipped entries and left empty rows in narrow figures); this one keeps to the
// inches it reserves, so a figure's height is known before gnuplot runs.
#pragma once

#include <string>
#include <vector>

#include "plots/label_layout.hpp"
#include "plots/plot_style.hpp"

namespace ridge::plots {

struct KeySample {
  enum class Kind { swatch, marker, line } kind = Kind::swatch;
  std::string colour;      // a gnuplot colour: "lt 1" (the palette's first) or "rgb '#222222'"
  int point_type = 0;      // marker and line: the marker (0: none)
  double point_size = 1;   // in units of the `marker` variable the preamble sets
  std::string dash = "solid";
};
struct KeyEntry {
  std::string text;  // fixed wording, not user text: it goes into the script
  KeySample sample;
};

// Entries laid out in rows `width_in` wide (each column as wide as its widest entry), each
// entry's sample at the left of its cell.
struct KeyRows {
  std::vector<KeyEntry> entries;
  std::vector<Box> cells;  // one per entry, from the band's top-left corner (y down, negative)
  double height_in = 0;
};
KeyRows layout_key(const PlotStyle& style, const std::vector<KeyEntry>& entries, double width_in);

// The gnuplot commands that draw `key` with its top-left corner at (`left_in`, `top_in`)
// from the figure's lower-left corner, in a figure `fig_w` x `fig_h` inches. Objects and
// labels are numbered from `first_id` (the script's other labels keep below it).
std::string key_script(const PlotStyle& style, const KeyRows& key, double left_in, double top_in, double fig_w,
                       double fig_h, int first_id = 3000);

}  // namespace ridge::plots
