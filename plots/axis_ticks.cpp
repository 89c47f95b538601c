// Tick marks (see axis_ticks.hpp).
#include "plots/axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <utility>

#include "plots/gnuplot_text.hpp"
#include "plots/plot_text.hpp"

namespace ridge::plots {

LinearAxis nice_axis(double lo, double hi, double count) {
  // A range below double resolution (1e16 and 1e16 + 2) is drawn as one value.
  if (hi - lo <= std::max(std::fabs(lo), std::fabs(hi)) * 1e-12) {
    double d = lo != 0 ? std::fabs(lo) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  double raw = (hi - lo) / std::max(2.0, count);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag * 10;
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  LinearAxis a{std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step, {}};
  // Each tic from its index, never by a running sum that a step below resolution would not advance.
  const int64_t n = std::llround((a.hi - a.lo) / step);
  for (int64_t i = 0; i <= n; ++i) {
    double v = a.lo + static_cast<double>(i) * step;
    a.tics.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return a;
}

// `set ytics ("2.5" 0.0025, ...)`: the values over `divide`, with as many digits as keep them apart.
std::string tic_list(const std::vector<double>& tics, double divide) {
  std::vector<std::string> labels;
  for (int digits = 3; digits <= 8; ++digits) {
    labels.clear();
    for (double v : tics) labels.push_back(si_label(v / divide, "", digits));
    if (std::set<std::string>(labels.begin(), labels.end()).size() == labels.size()) break;
  }
  std::string out = "(";
  for (size_t i = 0; i < tics.size(); ++i) out += (i ? ", " : "") + gp_string(labels[i], TextMarkup::plain) + " " + gp_number(tics[i]);
  return out + ")";
}

SiScale si_scale_of(double largest) {
  static const std::pair<double, const char*> kPrefixes[] = {{1e15, "P"}, {1e12, "T"},      {1e9, "G"},  {1e6, "M"},
                                                              {1e3, "k"},  {1, ""},         {1e-3, "m"}, {1e-6, "\u00b5"},
                                                              {1e-9, "n"}, {1e-12, "p"}};
  largest = std::fabs(largest);
  if (largest == 0) return {};
  for (const auto& [divide, prefix] : kPrefixes)
    if (largest >= divide * 0.9995) return {divide, prefix};
  return {kPrefixes[std::size(kPrefixes) - 1].first, kPrefixes[std::size(kPrefixes) - 1].second};
}

// Linear tics from zero for an axis up to `hi` (in its unit), as many as keep their
// labels apart on `axis_in` inches; the axis ends at the last tic.
LinearAxis time_axis(const PlotStyle& style, double hi, double axis_in) {
  const double label_in = style.text_width_in(gp_number(hi).substr(0, 4)) + 0.25;
  return nice_axis(0, hi > 0 ? hi : 1, std::max(2.0, std::floor(axis_in / label_in)));
}

// The unit a time axis up to `seconds` reads best in.
std::pair<double, std::string> time_unit(double seconds) {
  std::pair<double, std::string> u{1, "s"};
  for (auto [scale, name] : {std::pair{1e-3, "ms"}, std::pair{1e-6, "\u00b5s"}, std::pair{1e-9, "ns"}})
    if (seconds < u.first * 0.9995) u = {scale, name};
  return u;
}

// Tic positions: the x values the data has, thinned so that labels `label_in` wide
// keep apart on an axis `axis_in` long (first and last kept).
std::vector<double> tics_at(std::vector<double> xs, bool log, double axis_in, double label_in) {
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.size() < 2) return xs;
  auto pos = [&](double v) {
    double a = log ? std::log(v) : v, lo = log ? std::log(xs.front()) : xs.front(),
           hi = log ? std::log(xs.back()) : xs.back();
    return (a - lo) / (hi - lo) * axis_in;
  };
  std::vector<double> out{xs.front()};
  for (size_t i = 1; i < xs.size(); ++i) {
    if (pos(xs[i]) - pos(out.back()) < label_in) {
      if (i + 1 == xs.size() && out.size() > 1) out.back() = xs[i];  // keep the last
      continue;
    }
    out.push_back(xs[i]);
  }
  return out;
}

}  // namespace ridge::plots
