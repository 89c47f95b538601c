// `ridge plot layers`: each layer's time as a stacked bar whose parts add up to the
// layer's time, as the hardware models compute it (time = max(compute, memory) +
// link + launch):
//   compute          the compute time, flops / achievable peak;
//   exposed memory   the memory time not hidden under compute, max(0, memory - compute);
//   link             host-link transfer (with --data-on host);
//   launch           kernel-launch overhead.
// A symbol above each bar marks its bound: a square for compute-bound, a triangle for
// memory-bound (the level is named in the .dat file).
#pragma once

#include <string>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "plots/roofline_plot.hpp"

namespace ridge::plots {

PlotBundle layers_plot(const Model& model, const RunSettings& settings, const TimedHardware& run,
                       const PlotStyle& style, const std::string& stem);

// Columns of the .dat file's bars block: 1 position, 2 compute_s, 3 exposed_memory_s,
// 4 link_s, 5 launch_s, 6 time_s, 7 bound (0 compute, 1 memory), 8 tick label, 9 name,
// 10 bound name.
inline constexpr int kLayersColumns = 10;

}  // namespace ridge::plots
