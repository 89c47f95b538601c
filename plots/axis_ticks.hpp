// Tick marks for plots whose axes ridge lays out itself: linear axes at 1, 2 or 5 x 10^k
// with SI labels, time axes from zero in the unit that reads best, and tics at the
// values the data has, thinned to keep labels apart.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "plots/plot_style.hpp"

namespace ridge::plots {

// Linear-axis tics at 1, 2 or 5 x 10^k, about `count` of them, covering [lo, hi]; the
// range is widened to the outer tics.
struct LinearAxis {
  double lo, hi;
  std::vector<double> tics;
};
LinearAxis nice_axis(double lo, double hi, double count);

// `set ytics ("2.5" 0.0025, ...)`: each tic's value divided by `divide` (the axis's title
// names the prefix and unit: "step time [ms]"), with as many digits as keep them apart
// ("2 k" for a count's 2000).
std::string tic_list(const std::vector<double>& tics, double divide = 1);

// The SI prefix that shows values up to `largest` as 1 to 999 (4e-3: 1e-3 and "m"; 6e-4:
// 1e-6 and "µ"; 0 or 1 to 999: 1 and no prefix), for an axis whose title carries the unit.
struct SiScale {
  double divide = 1;
  std::string prefix;
};
SiScale si_scale_of(double largest);

// Linear tics from zero for an axis up to `hi` (in its unit), as many as keep their
// labels apart on `axis_in` inches (labels of the figure's font); the axis ends at the last tic.
LinearAxis time_axis(const PlotStyle& style, double hi, double axis_in);

// The unit a time axis up to `seconds` reads best in: {1e-3, "ms"} for 0.25 s.
std::pair<double, std::string> time_unit(double seconds);

// Tic positions: the x values the data has, thinned so that labels `label_in` wide
// keep apart on an axis `axis_in` long (first and last kept).
std::vector<double> tics_at(std::vector<double> xs, bool log, double axis_in, double label_in);

}  // namespace ridge::plots
