// `ridge plot sweep SWEEP.csv`: the CSV that `ridge sweep --format csv` writes, read by
// its header names (any order; unknown columns are ignored):
//   hardware, batch, samples_per_s    required
//   model                             optional: one panel (facet) per model
//   hw_model, dtype, phase, optimizer optional: split the lines
//   time_s                       required for the varied-field panels
//   KEY.PATH                          a varied descriptor field (its name has a '.',
//                                     e.g. memory.HBM2.bandwidth); values as written
//                                     in descriptors ("900 GB/s") or plain numbers
// Each model gets a facet: samples/s against batch and, when the CSV has a varied
// field, step time against that field's value beside it. Within a facet a line's
// colour is its hardware (or, with one hardware, the first of hw_model, dtype, phase,
// optimizer that varies) and its dash and marker the other columns that vary; one
// legend below the facets names the colours and the dashes, and only columns that
// vary appear in it. Columns that do not vary go into the title. More than
// kMaxSeriesPerPanel lines in a panel is an InputError that says which --where to add.
#pragma once

#include <string>
#include <vector>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"

namespace ridge::plots {

struct SweepTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header
  int column(const std::string& name) const;   // -1 when absent
};

// RFC 4180 CSV: quoted fields, doubled quotes, CRLF. A bad file is an InputError
// naming file:line.
SweepTable read_sweep_csv(const std::string& path);
SweepTable parse_sweep_csv(const std::string& text, const std::string& file);

// The rows where every COLUMN named in `where` ("COLUMN=VALUE") holds one of the values
// given for it: one column several times means any of those values. An unknown column,
// a value no row has, or a selection that leaves no row is an InputError with the
// known columns or values.
SweepTable select_rows(const SweepTable& table, const std::vector<std::string>& where);

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

// The figure drawn: without --size (style.size_given false) it grows with the facets.
PlotBundle sweep_plot(const SweepTable& table, const PlotStyle& style, const std::string& stem);

}  // namespace ridge::plots
