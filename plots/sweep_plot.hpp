// `ridge plot sweep SWEEP.csv`: the CSV that `ridge sweep --format csv` writes, read by
// its header names (any order; unknown columns are ignored):
//   hardware, batch, samples_per_s    required
//   model, dtype, phase               optional: split the lines
//   time_s                            required for the varied-field panel
//   KEY.PATH                          a varied descriptor field (its name has a '.',
//                                     e.g. memory.HBM2.bandwidth); values as written
//                                     in descriptors ("900 GB/s") or plain numbers
// Panel 1: samples/s against batch, one line per hardware (x model, dtype, phase and
// varied values where they differ). Panel 2, when the CSV has a varied field: step
// time against that field's value, one line per everything else.
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

PlotBundle sweep_plot(const SweepTable& table, const PlotStyle& style, const std::string& stem);

}  // namespace ridge::plots
