// The sweep plot's legend (see sweep_legend.hpp).
#include "plots/sweep_legend.hpp"

#include <algorithm>

namespace ridge::plots {

LegendLayout layout_legend(const PlotStyle& style, const std::vector<LegendGroup>& groups, double width) {
  LegendLayout out;
  if (groups.empty()) return out;
  // Text is measured 10% wide: the estimate is an average, and a legend must never touch.
  auto text_w = [&](const std::string& s) { return style.text_width_in(s) * 1.1; };
  const double row = style.line_in() * 1.35, sample_w = 0.4, gap = 0.08, between = 0.3, left = 0.15;
  // Every group's entries start at one indent, right of the widest group title, like a
  // table; when the titles are too wide for that, entries go on the rows under them.
  double titles_w = 0;
  for (const LegendGroup& g : groups) titles_w = std::max(titles_w, text_w(g.title + ":"));
  const bool beside = left + titles_w + 0.2 <= width * 0.35;
  const double indent = beside ? left + titles_w + 0.2 : left + 0.3;
  double y = -row * 0.5;
  for (const LegendGroup& g : groups) {
    out.texts.push_back({left, y, g.title + ":"});
    if (!beside) y -= row;
    double x = indent;
    for (const LegendEntry& e : g.entries) {
      double w = sample_w + gap + text_w(e.text);
      if (x > indent && x + w > width - 0.1) {
        y -= row;
        x = indent;
      }
      out.samples.push_back({x, x + sample_w, y, e.colour, e.style});
      out.texts.push_back({x + sample_w + gap, y, e.text});
      x += w + between;
    }
    y -= row;
  }
  out.height = -y - row * 0.5 + 0.12;
  return out;
}

}  // namespace ridge::plots
