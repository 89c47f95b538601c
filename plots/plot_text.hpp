// Short numbers for plot labels: three significant digits and an SI prefix
// ("15.7 TFLOP/s", "900 GB/s", "2.16 TB/s", "139 FLOP/B").
#pragma once

#include <string>

namespace ridge::plots {

// `digits` significant digits (3 unless told).
std::string si_label(double value, const std::string& unit, int digits = 3);
// "23%", "0.4%", "<0.1%": a share 0..1 as a percentage.
std::string percent_label(double share);

}  // namespace ridge::plots
