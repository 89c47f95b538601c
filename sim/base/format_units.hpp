// Human-readable numbers for reports, SI throughout (1 GB = 1e9 B, 1 TFLOP/s = 1e12), 4
// significant digits with an SI prefix ("10.62k", "2.181k", "1.024k"; times "458.5 µs").
// A value with more than 15 digits left of the point (past the largest prefix) is shown
// in scientific notation, 4 significant digits ("1e+300 B"), never as a wall of digits.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace ridge {

std::string format_count(double n);         // 105.4M, 1.23G, 950
std::string format_bytes(double bytes);     // 618.3 KB, 1.2 GB
std::string format_seconds(double s);       // 1.757 µs, 3.200 ms, 458.5 µs: 4 significant digits
std::string format_rate(double per_s, const std::string& unit);  // 351.9 GB/s, 15.7 TFLOP/s
std::string format_fixed(double v, int decimals);
// `v` in the largest of `units` ({size of the unit, its name}, largest first) whose value
// rounds to at least 1, else the last; 4 significant digits: {{1, "J"}, {1e-3, "mJ"}}.
std::string format_in_units(double v, std::initializer_list<std::pair<double, const char*>> units);
// Machine form (CSV, JSON, plot data): integers exactly, doubles in the shortest form
// that reads back as the same double ("5e-06", not "4.9999999999999996e-06").
std::string format_raw(int64_t v);
std::string format_raw(double v);

}  // namespace ridge
