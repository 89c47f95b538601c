// Label numbers (see plot_text.hpp).
#include "plots/plot_text.hpp"

#include <cmath>
#include <cstdio>

namespace ridge::plots {

std::string si_label(double value, const std::string& unit, int digits) {
  static const char* const up[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const down[] = {"", "m", "u", "n", "p"};
  std::string prefix;
  int i = 0;
  while (i < 6 && std::fabs(value) >= 999.5) {
    value /= 1000;
    prefix = up[++i];
  }
  while (i > -4 && value != 0 && std::fabs(value) < 0.9995) {
    value *= 1000;
    prefix = down[-(--i)];
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  std::string sep = unit.empty() && prefix.empty() ? "" : " ";
  return std::string(buf) + sep + prefix + unit;
}

std::string percent_label(double share) {
  double p = share * 100;
  if (p > 0 && p < 0.1) return "<0.1%";
  char buf[32];
  std::snprintf(buf, sizeof buf, p >= 9.95 ? "%.0f%%" : "%.1f%%", p);
  return buf;
}

}  // namespace ridge::plots
