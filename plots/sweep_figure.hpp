// What a sweep plot shows, before any geometry. Two of the columns that vary are the
// figure's axes: one is x (a number: batch, context, seq or a [[vary]] field) and one the
// lines' colour; every other column that varies is told apart by dash and marker, and
// each model gets a facet. A facet holds one panel per quantity (samples/s and step
// time unless chosen), every panel against the same x. So a colour means one thing in
// the whole figure, and the panels of one quantity share one scale and range. Titles
// and units come from the sweep schema (sim/views/sweep_fields). Too many lines or
// colours to read is an InputError whose hint names the --where that makes it readable.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "plots/sweep_table.hpp"

namespace ridge::plots {

inline constexpr size_t kMaxSeriesPerPanel = 12;
inline constexpr size_t kMaxFacets = 12;

// What the user picked (`plot sweep --x --colour --y`); empty: chosen from the data.
struct SweepChoice {
  // x: a numeric column that varies; by default the one with the most values (batch
  // first on a tie, then context, seq, then [[vary]] fields).
  std::string x;
  // colour: a column that varies, other than x and model; by default hardware when it
  // varies, else the other numeric columns, else hw_model, dtype, phase, optimizer.
  std::string colour;
  // y: the quantities, one panel each; by default samples_per_s and time_s.
  std::vector<std::string> y;
};

// One axis of the figure: a CSV column with its schema title and unit.
struct SweepAxis {
  std::string key;    // the CSV column ("memory.HBM2e.bandwidth", "samples_per_s")
  std::string title;  // the schema's title ("HBM2e bandwidth", "samples/s")
  std::string unit;   // SI base unit of the values ("B/s", "s"); empty for counts and rates
  bool log = false;   // logarithmic: the values are positive and span a factor of 8 or more
  double lo = 0, hi = 0;  // the values' range over every panel on this axis
};

struct SweepLine {
  std::string label;  // the values that tell it apart ("a100, fp16"); empty when only one line
  size_t colour = 0;  // index into kOkabeIto
  size_t style = 0;   // index of its dash and marker
  std::vector<std::pair<double, double>> points;  // sorted by x
};
struct SweepFacet {
  std::string model;                          // empty when the CSV has no model column
  std::vector<std::vector<SweepLine>> panels;  // one per quantity, parallel to SweepFigure::y
};
struct LegendEntry {
  std::string text;
  int colour = -1;  // a colour sample (solid line), or -1
  int style = -1;   // a dash and marker sample (grey), or -1
};
struct LegendGroup {
  std::string title;  // the column(s) it explains ("hardware"; "dtype, phase")
  std::vector<LegendEntry> entries;
};
struct SweepFigure {
  std::vector<std::string> title;  // phrases: the models on the devices, then what every row shares
  std::vector<SweepFacet> facets;
  std::vector<LegendGroup> legend;  // the colour group first; empty when each panel has one line
  SweepAxis x;
  std::vector<SweepAxis> y;  // one per quantity
  std::string colour;        // the column the colours stand for; empty: one colour
};
SweepFigure plan_sweep_figure(const SweepTable& table, const SweepChoice& choice = {});

}  // namespace ridge::plots
