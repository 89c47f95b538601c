// The roofline plot's frame and the choice of where its roof labels go (see
// roofline_layout.hpp); the labels themselves are placed by roofline_labels.
#include "plots/roofline_layout.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "plots/roofline_labels.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots::roofline {

std::string segment(double x0, double y0, double x1, double y1) {
  return gp_number(x0) + " " + gp_number(y0) + "\n" + gp_number(x1) + " " + gp_number(y1) + "\n\n";
}

namespace {

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); }

// The frame: decades around everything drawn, margins for the tick labels, the header
// band and (with `margin`) the roofs' labels.
// Nothing when the plot area would be under an inch either way.
std::optional<Frame> frame_of(const PlotStyle& style, const Scene& s, double ridge_hi, double header_top_in, RoofLabels mode) {
  const bool margin = in_margin(mode);
  Frame f;
  f.width_in = style.width_in;
  f.height_in = style.height_in;
  f.x_min = decade_below(s.x_lo / 1.5);
  // Inside, the roofs' labels need room right of the ridge points: two decades.
  const bool inside = mode == RoofLabels::inside || mode == RoofLabels::inside_run_only;
  f.x_max = decade_above(std::max(s.x_hi * 2, ridge_hi * (inside ? 100 : 4)));
  if (f.x_max / f.x_min < 100) f.x_max = f.x_min * 100;
  f.y_min = decade_below(s.y_lo / 1.5);
  // Where only the run's roofs are named, the others (fp16 and int8 tensor roofs, up to
  // 40x higher) do not stretch the axis: drawn where they fall inside it, they would
  // otherwise take decades of a small figure's height from the layers.
  const bool others_named = mode == RoofLabels::inside || mode == RoofLabels::margin;
  f.y_max = decade_above((others_named ? s.y_hi : s.run_roofs_hi) * 2.5);
  if (f.y_max / f.y_min < 100) f.y_min = f.y_max / 100;
  const double line = style.line_in();
  f.left_in = 0.12 + line + style.text_width_in("100 TFLOP/s") + 0.1;
  f.right_in = 0.2 + style.text_width_in("100000") / 2;
  if (margin) {
    double widest = 0;
    for (const Hardware& H : s.hw)
      for (const Roof& r : H.roofs)
        if (r.run || !run_only(mode)) widest = std::max(widest, style.text_width_in(r.label) * kLineFont);
    const double right = std::max(f.right_in, 0.2 + widest + 0.1);
    // Where it may, the figure widens by the margin, keeping the plot area's width.
    if (style.may_widen()) f.width_in += right - f.right_in;
    f.right_in = right;
  }
  f.bottom_in = 0.15 + 2.2 * line;
  f.top_in = header_top_in;
  Box a = f.plot_area();
  if (a.x1 - a.x0 < 1.0 || a.y1 - a.y0 < 1.0) return std::nullopt;
  return f;
}

// Lines end where they meet: a diagonal rises from the floor to the run's roof and
// stops; every roof runs from its start to the right edge.
void clip_lines(Scene& s, const Frame& f) {
  for (Hardware& H : s.hw) {
    for (Roof& r : H.roofs) r.x1 = f.x_max;
    for (Diagonal& d : H.diags) {
      d.x0 = std::max(f.x_min, f.y_min / d.bandwidth);
      d.x1 = H.run_flops / d.bandwidth;
    }
  }
}

}  // namespace

Layout layout_of(const RooflineRequest& req, const PlotStyle& style, Scene& s, double header_top_in, bool roofs_in_key) {
  double ridge_hi = 0;
  for (const TimedHardware& r : req.runs)
    for (double x : r.timing.hardware->ridge_points) ridge_hi = std::max(ridge_hi, x);
  Layout L;
  const std::vector<RoofLabels> modes =
      roofs_in_key ? std::vector<RoofLabels>{RoofLabels::key}
                   : std::vector<RoofLabels>{RoofLabels::inside, RoofLabels::margin, RoofLabels::inside_run_only,
                                             RoofLabels::margin_run_only};
  for (RoofLabels mode : modes) {
    const bool margin = in_margin(mode);
    std::optional<Frame> frame = frame_of(style, s, ridge_hi, header_top_in, mode);
    if (!frame) {
      if (mode == modes.back())
        throw InputError({}, "--size is too small for this font size", "make the figure larger or --font-size smaller");
      continue;
    }
    L = Layout{};
    L.roof_labels = mode;
    L.margin_roofs = margin;
    L.frame = *frame;
    clip_lines(s, L.frame);
    const Frame& f = L.frame;
    const Box area = f.plot_area();
    // Inset a little: text metrics are estimates, and nothing may touch the axes.
    LabelPlacer placer({area.x0 + 0.05, area.y0 + 0.04, area.x1 - 0.04, area.y1 - 0.04});
    for (const Hardware& H : s.hw) {
      for (const Roof& r : H.roofs)
        placer.block_segment(f.to_in_x(r.x0), f.to_in_y(r.flops), f.to_in_x(r.x1), f.to_in_y(r.flops), kLineThickness);
      for (const Diagonal& d : H.diags)
        placer.block_segment(f.to_in_x(d.x0), f.to_in_y(d.bandwidth * d.x0), f.to_in_x(d.x1), f.to_in_y(d.bandwidth * d.x1),
                             kLineThickness);
    }
    std::vector<Box> markers;
    for (const Point& p : s.points) {
      double x = f.to_in_x(p.intensity), y = f.to_in_y(p.attained);
      markers.push_back({x - p.r_in, y - p.r_in, x + p.r_in, y + p.r_in});
      placer.block(markers.back());
    }
    L.line_labels.assign(s.hw.size(), {});
    L.boxed_labels.assign(s.hw.size(), {});
    Placing P{style, s, L, placer, style.line_in() * 0.85 * kLineFont, markers};
    if (mode != RoofLabels::key && !margin && !place_roof_labels(P)) continue;

    if (margin) place_margin_roof_labels(P);
    // With several hardware the bandwidths and ridge points are named in the key instead:
    // in the plot, six diagonals' labels would crowd one narrow band.
    if (s.hw.size() == 1) {
      place_diagonal_labels(P);
      place_ridge_labels(P, req);
    }
    place_layer_labels(P, req.labels);
    break;
  }
  return L;
}

}  // namespace ridge::plots::roofline
