// What a sweep plot shows, before any geometry: one facet per model, in each the lines
// of samples/s against batch and (with a varied descriptor field) of step time against
// that field; each line's colour and style index; the legend's groups; the title.
// Too many lines or colours to read is an InputError whose hint names a --where that
// makes the figure readable.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "plots/sweep_table.hpp"

namespace ridge::plots {

inline constexpr size_t kMaxSeriesPerPanel = 12;
inline constexpr size_t kMaxFacets = 12;

// What the figure shows, before any geometry: the tests read it.
struct SweepLine {
  std::string label;  // the values that tell it apart ("a100, fp16"); empty when only one line
  size_t colour = 0;  // index into kOkabeIto
  size_t style = 0;   // index of its dash and marker
  std::vector<std::pair<double, double>> points;  // sorted by x
};
struct SweepFacet {
  std::string model;  // empty when the CSV has no model column
  std::vector<SweepLine> through;  // samples/s against batch
  std::vector<SweepLine> times;    // step time against the varied field (empty without one)
};
struct LegendEntry {
  std::string text;
  int colour = -1;  // a colour sample (solid line), or -1
  int style = -1;   // a dash and marker sample (grey), or -1
};
struct LegendGroup {
  std::string title;  // the columns it explains ("hardware"; "samples/s: dtype, phase")
  std::vector<LegendEntry> entries;
};
struct SweepFigure {
  std::vector<std::string> title;  // phrases: the file name and the values every row shares
  std::vector<SweepFacet> facets;
  std::vector<LegendGroup> legend;  // empty when each panel has one line
  std::string varied_field;         // the time panels' x ("memory.HBM2e.bandwidth"); empty: none
  std::string varied_unit;          // its SI unit ("B/s"), empty for plain numbers
};
SweepFigure plan_sweep_figure(const SweepTable& table);

}  // namespace ridge::plots
