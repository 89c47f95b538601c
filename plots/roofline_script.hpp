// The roofline plot's two files: the .dat (per hardware its roofs, diagonals, ridge
// points, points and labels, each a commented block selected with `index N`) and the
// gnuplot `plot` command that draws those blocks, with the roof labels set in the
// right margin when the layout put them there.
#pragma once

#include <string>
#include <vector>

#include "plots/data_file.hpp"
#include "plots/roofline_layout.hpp"

namespace ridge::plots::roofline {

// The .dat block index of each thing drawn for one hardware.
struct Blocks {
  int run_roof, other_roofs, dram, other_levels, ridges, points, labels, boxed, drops;
};

// Texts at the figure's font size or (points > 0) at `points`.
void write_texts(DataFile& dat, const std::vector<Text>& texts, TextMarkup mk, double points = 0);

// Hardware `h`'s blocks; `line_points`: the size of the roof, bandwidth and ridge labels.
Blocks write_hardware(DataFile& dat, const RooflineRequest& req, const Scene& s, const Layout& L, size_t h, TextMarkup mk,
                      double line_points);

// `set label` / `set arrow` lines for roof labels in the right margin.
std::string margin_roof_script(const Layout& L, const PlotStyle& style);

// The `plot` command: lines, points, labels and the key's entries.
std::string plot_command(const Scene& s, const Layout& L, const std::vector<Blocks>& blocks, int layer_block,
                         int boxed_layer_block, int leader_block, const std::vector<std::string>& key_texts,
                         const PlotStyle& style);

}  // namespace ridge::plots::roofline
