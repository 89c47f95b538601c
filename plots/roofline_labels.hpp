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
  std::vector<Box> markers;  // the points' markers: no roof label goes over one
  double line_w(const std::string& s) const { return style.text_width_in(s) * kLineFont; }
};

inline constexpr double kLineThickness = 0.05;

// Roof labels inside the plot, above their roof at the right edge, else further left,
// else below it. False when one does not fit.
bool place_roof_labels(Placing& P);
// Roof labels in the right margin, in the order of their roofs, a line apart.
void place_margin_roof_labels(Placing& P);
// Diagonal labels along the slope beside their line, nearest its middle first; else on
// the line in an opaque box, clear of other labels; else mid-way regardless.
void place_diagonal_labels(Placing& P);
// Each memory level's ridge point at the run's dtype (with several hardware, DRAM's
// only), marked by a thin line dropped from its corner to the floor and labelled along
// that line, just under the roof.
void place_ridge_labels(Placing& P, const RooflineRequest& req);
// The `labels` heaviest points over all hardware, by share of their run's time.
void place_layer_labels(Placing& P, int labels);

}  // namespace ridge::plots::roofline
