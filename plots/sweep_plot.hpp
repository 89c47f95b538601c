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

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "plots/sweep_figure.hpp"
#include "plots/sweep_table.hpp"

namespace ridge::plots {

// The figure drawn: without --size (style.size_given false) it grows with the facets.
PlotBundle sweep_plot(const SweepTable& table, const PlotStyle& style, const std::string& stem);

}  // namespace ridge::plots
