// `ridge plot compare`: the devices of a comparison (sim/engine/device_comparison) as
// grouped vertical bars, three groups: throughput (samples/s, or tokens/s for prefill and
// decode), throughput per dollar (samples per $ on the comparison's cost basis) and per
// joule (1 / joules per sample). One bar per device in each group, its height relative to
// the first device's (1 = as the first), its absolute value written above it. Each device
// keeps its colour and its fill pattern in every group (solid, then hatched in different
// directions, then crossed), so a grayscale print still tells the devices apart. A device
// without [price] or [power] has no bar in that group, and a note says so.
#pragma once

#include <string>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "sim/engine/device_comparison.hpp"

namespace ridge::plots {

PlotBundle compare_plot(const ComparisonResult& result, const PlotStyle& style, const std::string& stem);

// Columns of the .dat file's bars block, one row per device in the --hw order:
// 1 device index (0 first), 2 throughput, 3 per_usd, 4 per_joule (NaN when unknown),
// 5-7 the same relative to the first device, 8 hardware id, 9-11 the three values as labels.
inline constexpr int kCompareColumns = 11;

// gnuplot fill patterns in the order devices take them: 3 solid, 4 / 5 / 6 / 7 hatched
// in four directions, 1 and 2 crossed, 0 empty (each outlined).
inline constexpr int kComparePatterns[] = {3, 4, 5, 1, 6, 7, 2, 0};

}  // namespace ridge::plots
