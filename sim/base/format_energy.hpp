// Energy for people: "12.35 µJ", "3.200 mJ", "1.500 J" (4 significant digits, as
// format_seconds scales time).
#pragma once

#include <string>

#include "sim/base/format_units.hpp"

namespace ridge {

inline std::string format_joules(double j) { return format_in_units(j, {{1, "J"}, {1e-3, "mJ"}, {1e-6, "\u00b5J"}, {1e-9, "nJ"}}); }

}  // namespace ridge
