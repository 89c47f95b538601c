// The roofline plot's labels, placed in inches on a chosen frame (see roofline_layout):
// roof labels by their roofs or in the right margin, bandwidth labels along their
// diagonals, ridge labels along a line dropped from each ridge point, and the heaviest
// layers' names by their markers (with leader lines when placed away). Each keeps clear
// of the lines, the markers and the labels placed before it (LabelPlacer).
#pragma once

#include <string>
#include <vector>

#include "plots/label_layout.hpp"
#include "plots/roofline_layout.hpp"

namespace ridge::plots::roofline {

struct Placing {
  const PlotStyle& style;
  Scene& scene;
  Layout& L;
  LabelPlacer& placer;
  double line_h;  // height of a line label
  // A line label's width: the estimate (an average over glyphs) and a little, as
  // rendered text runs up to ~0.05 in longer, into a leader or line beside it.
  double line_w(const std::string& s) const { return style.text_width_in(s) * kLineFont + 0.06; }
};

inline constexpr double kLineThickness = 0.05;

// Roof labels inside the plot, above their roof at the right edge, else further left,
// else below it (the run's roof alone: else a little higher, else in its short form,
// "bf16 230 TFLOP/s"). False when one does not fit.
bool place_roof_labels(Placing& P);
// Roof labels in the right margin, in the order of their roofs, a line apart.
void place_margin_roof_labels(Placing& P);
// Diagonal labels along the slope beside their line, nearest its middle first, a network
// link's in its short form ("scale-up 234 GB/s") where the full one finds no spot; left
// out (and reported) where neither does.
void place_diagonal_labels(Placing& P);
// Each memory level's ridge point at the run's dtype (single hardware only; the layout
// has dropped a thin line from each to the floor), labelled along that line, just under
// the roof or lower down, else level beside the line's foot; each first as "L2 ridge
// 4.77 FLOP/B", then as "L2 4.77 FLOP/B"; left out (and reported) where no spot is free.
void place_ridge_labels(Placing& P, const RooflineRequest& req);
// The `labels` heaviest points over all hardware, by share of their run's time.
void place_layer_labels(Placing& P, int labels);

}  // namespace ridge::plots::roofline
