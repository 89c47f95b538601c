// A key ridge lays out and draws itself (see figure_key.hpp).
#include "plots/figure_key.hpp"

#include <algorithm>
#include <sstream>

#include "plots/gnuplot_text.hpp"

namespace ridge::plots {

namespace {
constexpr double kSampleIn = 0.22, kGapIn = 0.06, kBetweenIn = 0.18;
// A line's or point's colour option: "lt 1" as it is (gnuplot has no `lc lt 1`), "rgb ..." after lc.
std::string line_colour(const std::string& colour) { return colour.rfind("lt ", 0) == 0 ? colour : "lc " + colour; }
}  // namespace

KeyRows layout_key(const PlotStyle& style, const std::vector<KeyEntry>& entries, double width_in) {
  KeyRows k;
  k.entries = entries;
  if (entries.empty()) return k;
  // Text measured 10 % wide (the estimate is an average). Entries fill rows left to right;
  // each column is as wide as its widest entry, and the rows hold as many as fit the band.
  std::vector<double> entry_w;
  for (const KeyEntry& e : entries) entry_w.push_back(kSampleIn + kGapIn + style.text_width_in(e.text) * 1.1);
  auto column_widths = [&](size_t cols) {
    std::vector<double> w(cols, 0);
    for (size_t i = 0; i < entries.size(); ++i) w[i % cols] = std::max(w[i % cols], entry_w[i]);
    return w;
  };
  auto used_by = [&](const std::vector<double>& w) {
    double used = kBetweenIn * static_cast<double>(w.size() - 1);
    for (double c : w) used += c;
    return used;
  };
  size_t cols = entries.size();
  while (cols > 1 && used_by(column_widths(cols)) > width_in) --cols;
  const std::vector<double> widths = column_widths(cols);
  const double row = style.line_in() * 1.2;
  // Centred: the rows are as wide as their columns, not the whole band.
  double x = std::max(0.0, (width_in - used_by(widths)) / 2);
  std::vector<double> col_x;
  for (double w : widths) col_x.push_back(x), x += w + kBetweenIn;
  for (size_t i = 0; i < entries.size(); ++i) {
    const double y = -static_cast<double>(i / cols) * row;
    k.cells.push_back({col_x[i % cols], y - row, col_x[i % cols] + widths[i % cols], y});
  }
  k.height_in = static_cast<double>((entries.size() + cols - 1) / cols) * row;
  return k;
}

std::string key_script(const PlotStyle& style, const KeyRows& key, double left_in, double top_in, double fig_w,
                       double fig_h, int first_id) {
  std::ostringstream g;
  if (key.entries.empty()) return "";
  auto at = [&](double x, double y) { return "screen " + gp_number(x / fig_w) + ", screen " + gp_number(y / fig_h); };
  g << "# The key, laid out by ridge: a sample and its text per entry\n";
  int id = first_id;
  for (size_t i = 0; i < key.entries.size(); ++i) {
    const KeyEntry& e = key.entries[i];
    const Box& c = key.cells[i];
    const double mid = top_in + (c.y0 + c.y1) / 2, x = left_in + c.x0, h = style.line_in() * 0.55;
    switch (e.sample.kind) {
      case KeySample::Kind::swatch:
        g << "set object " << id++ << " rect from " << at(x, mid - h / 2) << " to " << at(x + kSampleIn, mid + h / 2)
          << " fillcolor " << e.sample.colour << " fillstyle solid 1.0 border lc rgb '#444444' front\n";
        break;
      case KeySample::Kind::line:
        g << "set arrow " << id++ << " from " << at(x, mid) << " to " << at(x + kSampleIn, mid) << " nohead "
          << line_colour(e.sample.colour) << " dt " << e.sample.dash << " front\n";
        [[fallthrough]];
      case KeySample::Kind::marker:
        if (e.sample.point_type > 0)
          g << "set label " << id++ << " '' at " << at(x + kSampleIn / 2, mid) << " point " << line_colour(e.sample.colour) << " pt "
            << e.sample.point_type << " ps " << gp_number(e.sample.point_size) << "*marker front\n";
        break;
    }
    g << "set label " << id++ << " " << gp_string(e.text, style.markup()) << " at " << at(x + kSampleIn + kGapIn, mid)
      << " left front\n";
  }
  return g.str();
}

}  // namespace ridge::plots
