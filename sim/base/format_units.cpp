// Number formatting (see format_units.hpp).
#include "sim/base/format_units.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace ridge {

namespace {
// Beyond this a fixed-point figure has more digits than anyone reads (1e300 B was 63
// truncated digits): such values are shown in scientific notation instead.
constexpr double kFixedPointLimit = 1e15;

std::string scientific(double v, const std::string& unit) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return unit.empty() ? std::string(buf) : std::string(buf) + " " + unit;
}

std::string scaled(double v, const char* const* prefixes, int count, double step, const std::string& unit) {
  if (std::fabs(v) >= kFixedPointLimit * std::pow(step, count - 1)) return scientific(v, unit);
  int i = 0;
  double a = std::fabs(v);
  while (i + 1 < count && a >= step * 0.9995) {
    a /= step;
    v /= step;
    ++i;
  }
  char buf[64];
  if (i == 0 && std::fabs(v - std::round(v)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", std::fabs(v) >= 100 ? 1 : (std::fabs(v) >= 10 ? 2 : 3), v);
  std::string s = buf;
  std::string p = prefixes[i];
  if (!unit.empty()) return s + " " + p + unit;
  return s + p;
}
// Four significant digits from 1 to 999.9 ("1.757", "45.60", "458.5"); 1000 and up
// whole ("1663").
std::string significant4(double v) {
  double a = std::fabs(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", a >= 999.95 ? 0 : a >= 99.995 ? 1 : a >= 9.9995 ? 2 : 3, v);
  return buf;
}
}  // namespace

std::string format_count(double n) {
  static const char* const p[] = {"", "k", "M", "G", "T", "P", "E"};
  return scaled(n, p, 7, 1000.0, "");
}

std::string format_bytes(double b) {
  static const char* const p[] = {"", "K", "M", "G", "T", "P", "E"};
  return scaled(b, p, 7, 1000.0, "B");
}

std::string format_seconds(double s) {
  double a = std::fabs(s);
  if (a == 0) return "0 s";
  if (a >= kFixedPointLimit) return scientific(s, "s");
  return format_in_units(s, {{1, "s"}, {1e-3, "ms"}, {1e-6, "\u00b5s"}, {1e-9, "ns"}});
}

std::string format_in_units(double v, std::initializer_list<std::pair<double, const char*>> units) {
  if (v == 0 || units.size() == 0) return "0" + std::string(units.size() ? " " + std::string(units.begin()->second) : "");
  // The unit whose value rounds to at least 1 (0.9995 ms is "999.5 µs", 0.99996 ms "1.000 ms").
  for (auto it = units.begin(); it != units.end(); ++it)
    if (std::fabs(v) >= it->first * 0.99995 || it + 1 == units.end()) return significant4(v / it->first) + " " + it->second;
  return "";
}

std::string format_rate(double per_s, const std::string& unit) {
  static const char* const p[] = {"", "k", "M", "G", "T", "P", "E"};
  std::string u = unit;
  auto slash = u.find('/');
  std::string base = slash == std::string::npos ? u : u.substr(0, slash);
  std::string tail = slash == std::string::npos ? "" : u.substr(slash);
  std::string s = scaled(per_s, p, 7, 1000.0, base);
  return s + tail;
}

std::string format_fixed(double v, int decimals) {
  if (std::fabs(v) >= kFixedPointLimit) return scientific(v, "");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_raw(int64_t v) { return std::to_string(v); }

std::string format_raw(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest form that reads back exactly
  return std::string(buf, end);
}

}  // namespace ridge
