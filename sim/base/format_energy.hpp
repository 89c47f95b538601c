// Energy for people: "12.35 uJ", "3.200 mJ", "1.500 J" (as format_seconds scales time).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace ridge {

inline std::string format_joules(double j) {
  char buf[64];
  double a = std::fabs(j);
  if (a == 0) return "0 J";
  if (a < 1e-3) std::snprintf(buf, sizeof buf, "%.3f uJ", j * 1e6);
  else if (a < 1) std::snprintf(buf, sizeof buf, "%.3f mJ", j * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3f J", j);
  return buf;
}

}  // namespace ridge
