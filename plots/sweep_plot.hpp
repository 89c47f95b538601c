// `ridge plot sweep SWEEP.csv`: the CSV that `ridge sweep --format csv` writes, read by
// its header names (any order; unknown columns are ignored):
//   hardware, batch, samples_per_s    required
//   model                             optional: one facet per model
//   hw_model, dtype, phase, optimizer optional: colours or dashes when they vary
//   time_s, other point totals        quantities a panel can show (--y)
//   context, KEY.PATH                 numbers an x axis can show: the decode context, a
//                                     [[vary]] descriptor field (values as written in
//                                     descriptors, "900 GB/s", or plain numbers)
// What goes where is plan_sweep_figure's (sweep_figure.hpp): x and colour are two of
// the columns that vary, every panel of a quantity shares one scale, one legend below
// names the colours and dashes, and the columns that do not vary go into the title.
#pragma once

#include <string>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "plots/sweep_figure.hpp"
#include "plots/sweep_table.hpp"

namespace ridge::plots {

// The figure drawn, as wide as the style says (the default 6 in; as .tex 4.7 in, which fits
// \textwidth of a default LaTeX article; a preset's), growing downward with the facets
// (past a preset's height, or as .tex a page's 9 in, with a note saying so).
PlotBundle sweep_plot(const SweepTable& table, const PlotStyle& style, const std::string& stem,
                      const SweepChoice& choice = {});

}  // namespace ridge::plots
