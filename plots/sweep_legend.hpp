// The sweep plot's legend laid out in inches: each group's title, then its entries
// (a line sample and its text) flowing to the right and wrapping; and the dashes and
// markers that tell a figure's line styles apart.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "plots/plot_style.hpp"
#include "plots/sweep_figure.hpp"

namespace ridge::plots {

// Dashes and markers, one per style index (at most kMaxSeriesPerPanel are needed).
inline constexpr const char* kDashes[] = {"solid", "(8,4)",         "(2,3)",      "(10,3,2,3)", "(4,4)",     "(16,4)",
                                          "(2,6)", "(8,3,2,3,2,3)", "(12,3,4,3)", "(6,2)",      "(3,3,9,3)", "(1,2)"};
inline constexpr int kMarkers[] = {7, 5, 9, 11, 13, 6, 4, 8, 10, 12, 1, 2};
// Styles past the end wrap round (found by fuzz_sweep_csv: a CSV whose dash column has more
// values than a panel has series read past kDashes).
static_assert(std::size(kDashes) >= kMaxSeriesPerPanel && std::size(kMarkers) >= kMaxSeriesPerPanel);

struct PlacedText {
  double x, y;  // inches
  std::string text;
};

struct LegendSample {
  double x0, x1, y;
  int colour, style;
};

// The legend laid out in rows from y = 0 downward, `width` wide: each group's title,
// then its entries flowing to the right, wrapping under the first entry.
struct LegendLayout {
  std::vector<PlacedText> texts;
  std::vector<LegendSample> samples;
  double height = 0;
};
LegendLayout layout_legend(const PlotStyle& style, const std::vector<LegendGroup>& groups, double width);

}  // namespace ridge::plots
