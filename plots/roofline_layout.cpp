// The roofline plot's frame and the choice of where its roof labels go (see
// roofline_layout.hpp); the labels themselves are placed by roofline_labels.
#include "plots/roofline_layout.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "plots/roofline_labels.hpp"
#include "plots/gnuplot_text.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots::roofline {

YUnit y_unit(double y_min, double y_max) {
  static const char* const kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  const double lo = std::pow(10.0, std::ceil(std::log10(y_min) - 1e-9)), hi = std::pow(10.0, std::floor(std::log10(y_max) + 1e-9));
  // Ticks from 0.01 to 10000 where a prefix allows; else from 0.001 or 0.0001 (a seven-
  // or eight-decade axis: a parallel plan's slow collectives under a device's roof):
  // "0.0001" is still narrower than "100 GFLOP/s" on every tick, which took a third of
  // a column's width.
  for (double smallest : {0.01, 0.001, 0.0001})
    for (int k = 6; k >= 0; --k) {
      const double scale = std::pow(10.0, 3 * k);
      if (lo / scale >= smallest * (1 - 1e-9) && hi / scale <= 1e4 * (1 + 1e-9)) return {scale, std::string(kPrefix[k]) + "FLOP/s"};
    }
  return {};
}

std::vector<std::pair<double, std::string>> y_tick_labels(double y_min, double y_max, const YUnit& u) {
  std::vector<std::pair<double, std::string>> out;
  for (double e = std::ceil(std::log10(y_min) - 1e-9); e <= std::floor(std::log10(y_max) + 1e-9); ++e) {
    const double v = std::pow(10.0, e);
    // "0.0001", not "1e-04"
    const double shown = v / u.scale;
    std::string text = u.scale <= 0 ? si_label(v, "FLOP/s") : shown < 0.01 ? "0." + std::string(static_cast<size_t>(std::lround(-std::log10(shown))) - 1, '0') + "1" : gp_number(shown);
    out.emplace_back(v, text);
  }
  return out;
}

std::string segment(double x0, double y0, double x1, double y1) {
  return gp_number(x0) + " " + gp_number(y0) + "\n" + gp_number(x1) + " " + gp_number(y1) + "\n\n";
}

namespace {

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); }

// The frame: decades around everything drawn (the top at most a decade above the
// highest roof drawn, the bottom at most a decade below the lowest point or roof), margins for the tick labels, the header
// band and (with `margin`) the roofs' labels; `roomy`: a full decade above the top roof
// (for a small figure's roof label).
// Nothing when the plot area would be under an inch either way.
std::optional<Frame> frame_of(const PlotStyle& style, const Scene& s, double ridge_hi, double header_top_in, RoofLabels mode,
                              bool roomy) {
  const bool margin = in_margin(mode);
  Frame f;
  f.width_in = style.width_in;
  f.height_in = style.height_in;
  f.x_min = decade_below(s.x_lo / 1.5);
  f.x_max = decade_above(std::max(s.x_hi * 1.5, ridge_hi * 4));
  if (f.x_max / f.x_min < 100) f.x_max = f.x_min * 100;
  f.y_min = std::max(decade_below(s.y_lo / 1.5), s.y_lo / 10);
  // Where only the run's roofs are named (and drawn), the others (fp16 and int8 tensor
  // roofs, up to 40x higher) do not stretch the axis.
  const bool others_named = mode == RoofLabels::inside || mode == RoofLabels::margin;
  // Room above the top roof for its label, and at most a decade of empty axis beyond
  // the data and roofs either way.
  const double top = others_named ? s.y_hi : s.run_roofs_hi;
  f.y_max = roomy ? top * 10 : std::min(decade_above(top * 1.5), top * 10);
  if (f.y_max / f.y_min < 100) f.y_min = std::max(f.y_max / 100, s.y_lo / 10);
  const double line = style.line_in();
  double tick_w = 0;
  for (const auto& [v, text] : y_tick_labels(f.y_min, f.y_max, y_unit(f.y_min, f.y_max)))
    tick_w = std::max(tick_w, style.text_width_in(text));
  f.left_in = 0.12 + line + tick_w + 0.15;
  f.right_in = 0.2 + style.text_width_in("100000") / 2;
  if (margin) {
    double widest = 0;
    for (const Hardware& H : s.hw)
      for (const Roof& r : H.roofs)
        if (r.run || !run_only(mode)) widest = std::max(widest, style.text_width_in(r.label) * kLineFont);
    const double right = std::max(f.right_in, 0.2 + widest + 0.1);
    // The figure keeps its width (every kind's default is one width, so figures scaled to
    // a text width share a font size): the margin comes out of the plot area.
    f.right_in = right;
  }
  f.bottom_in = 0.15 + 2.2 * line;
  f.top_in = header_top_in;
  Box a = f.plot_area();
  if (a.x1 - a.x0 < 1.0 || a.y1 - a.y0 < 1.0) return std::nullopt;
  // Inside, each named roof's label sits over its own roof (a run-only label may reach
  // left of it, over the diagonal): the axis runs on, a decade at a time, only until
  // every such label has its width right of its roof's start. Each further decade
  // squeezes the points, which sit left of the ridge points.
  const bool inside = mode == RoofLabels::inside || mode == RoofLabels::inside_run_only;
  if (inside && !run_only(mode)) {
    const double w_in = a.x1 - a.x0;
    auto room = [&](const Roof& r) {
      const double from = std::log10(f.x_max / std::max(r.x0, f.x_min)) / std::log10(f.x_max / f.x_min) * w_in;
      return from >= style.text_width_in(r.label) * kLineFont + 0.15;
    };
    for (int more = 0; more < 3; ++more) {
      bool fits = true;
      for (const Hardware& H : s.hw)
        for (const Roof& r : H.roofs) fits = fits && room(r);
      if (fits) break;
      f.x_max *= 10;
    }
  }
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

// One try: the labels on `frame` with the roofs' labels placed as `mode` says, the
// lines in `s` clipped to it; nothing when a roof's label does not fit inside.
// `points_first`: the heaviest points' names before the bandwidths' (a diagonal's label
// can go anywhere along its line, a point's only near it), else after them.
std::optional<Layout> layout_on(const RooflineRequest& req, const PlotStyle& style, Scene& s, const Frame& frame, RoofLabels mode,
                                bool points_first) {
  const bool margin = in_margin(mode);
  // Where only the run's roof can be named (or the run roofs are named in the key: one
  // hardware's, or each of an overlay's in its entry), the other dtypes' roofs are not
  // drawn: an unnamed roof says nothing (an overlay in a column showed a dozen faint
  // unnamed stubs above its roofs), and would take the room its label needs.
  Layout L;
  if (run_only(mode) || mode == RoofLabels::key)
    for (Hardware& H : s.hw) L.other_roofs_hidden |= std::erase_if(H.roofs, [](const Roof& r) { return !r.run; }) > 0;
  L.roof_labels = mode;
  L.margin_roofs = margin;
  L.frame = frame;
  clip_lines(s, L.frame);
  const Frame& f = L.frame;
  const Box area = f.plot_area();
  // Inset a little: text metrics are estimates, and nothing may touch the axes.
  LabelPlacer placer({area.x0 + 0.05, area.y0 + 0.04, area.x1 - 0.04, area.y1 - 0.04});
  for (size_t h = 0; h < s.hw.size(); ++h) {
    const int owner = static_cast<int>(h);
    // (the other dtypes' roofs are thin lines, lw 0.8 against the run's 2.5: half the clearance)
    for (const Roof& r : s.hw[h].roofs)
      placer.block_segment(f.to_in_x(r.x0), f.to_in_y(r.flops), f.to_in_x(r.x1), f.to_in_y(r.flops),
                           r.run ? kLineThickness : kLineThickness / 2, owner);
    for (const Diagonal& d : s.hw[h].diags)
      placer.block_segment(f.to_in_x(d.x0), f.to_in_y(d.bandwidth * d.x0), f.to_in_x(d.x1), f.to_in_y(d.bandwidth * d.x1),
                           kLineThickness, owner);
  }
  // Each memory level's ridge point at the run's dtype (with several hardware, DRAM's
  // only) drops a thin line to the floor: the labels keep off it.
  if (s.hw.size() == 1)
    for (double x : req.runs[0].timing.hardware->ridge_points) L.drops.push_back({0, x, s.hw[0].run_flops});
  for (const Layout::Drop& d : L.drops) {
    placer.block_segment(f.to_in_x(d.x), f.to_in_y(d.y), f.to_in_x(d.x), area.y0, kLineThickness / 2, 0);  // hardware 0's
    // and the ridge point's diamond
    const double x = f.to_in_x(d.x), y = f.to_in_y(d.y), r = 0.06;
    placer.block_marker({x - r, y - r, x + r, y + r});
  }
  for (const Point& p : s.points) {
    double x = f.to_in_x(p.intensity), y = f.to_in_y(p.attained);
    L.geometry.markers.push_back({x - p.r_in, y - p.r_in, x + p.r_in, y + p.r_in});
    placer.block_marker(L.geometry.markers.back());
  }
  L.line_labels.assign(s.hw.size(), {});
  Placing P{style, s, L, placer, style.line_in() * 0.85 * kLineFont};
  if (mode != RoofLabels::key && !margin && !place_roof_labels(P)) return std::nullopt;

  if (margin) place_margin_roof_labels(P);
  // With several hardware the bandwidths and ridge points are named in the key instead:
  // in the plot, six diagonals' labels would crowd one narrow band.
  // The ridge labels first: near the knee they have the fewest spots.
  if (s.hw.size() == 1) place_ridge_labels(P, req);
  if (points_first) place_layer_labels(P, req.labels);
  if (s.hw.size() == 1) place_diagonal_labels(P);
  if (!points_first) place_layer_labels(P, req.labels);
  L.geometry.area = area;
  L.geometry.labels = placer.labels();
  for (size_t h = 0; h < s.hw.size(); ++h) {
    for (const Roof& r : s.hw[h].roofs)
      L.geometry.lines.push_back(RooflineGeometry::Segment{f.to_in_x(r.x0), f.to_in_y(r.flops), f.to_in_x(r.x1), f.to_in_y(r.flops), h});
    for (const Diagonal& d : s.hw[h].diags)
      L.geometry.lines.push_back(
          RooflineGeometry::Segment{f.to_in_x(d.x0), f.to_in_y(d.bandwidth * d.x0), f.to_in_x(d.x1), f.to_in_y(d.bandwidth * d.x1), h});
  }
  for (const Layout::Drop& d : L.drops) L.geometry.lines.push_back(RooflineGeometry::Segment{f.to_in_x(d.x), f.to_in_y(d.y), f.to_in_x(d.x), area.y0});
  return L;
}

// Every line label placed and at least a quarter of the wanted points labelled: a
// later try (one that leaves the other dtypes' roofs out, say) is not worth a label or
// two more.
bool enough(const Layout& L) { return L.dropped.empty() && 4 * L.layer_labels.size() >= L.layers_wanted; }
// Fewer line labels left out, else more points labelled.
bool better(const Layout& a, const Layout& b) {
  if (a.dropped.size() != b.dropped.size()) return a.dropped.size() < b.dropped.size();
  return a.layer_labels.size() > b.layer_labels.size();
}

}  // namespace

// The tries in order of preference (the roofs' labels inside, by their roofs, first);
// the first that places every line label and a quarter of the points' labels wins, else the one
// that leaves out the fewest.
std::optional<Layout> layout_of(const RooflineRequest& req, const PlotStyle& style, Scene& s, double header_top_in, bool roofs_in_key) {
  double ridge_hi = 0;
  for (const TimedHardware& r : req.runs)
    for (double x : r.timing.hardware->ridge_points) ridge_hi = std::max(ridge_hi, x);
  struct Try {
    RoofLabels mode;
    bool roomy;
  };
  const std::vector<Try> tries =
      roofs_in_key ? std::vector<Try>{{RoofLabels::key, false}}
                   : std::vector<Try>{{RoofLabels::inside, false},
                                      {RoofLabels::margin, false},
                                      {RoofLabels::inside_run_only, false},
                                      {RoofLabels::inside_run_only, true},
                                      {RoofLabels::margin_run_only, false}};
  std::optional<Layout> best;
  Scene best_scene;
  for (const Try& t : tries) {
    std::optional<Frame> frame = frame_of(style, s, ridge_hi, header_top_in, t.mode, t.roomy);
    if (!frame) continue;
    for (bool points_first : {false, true}) {
      Scene trial = s;
      std::optional<Layout> L = layout_on(req, style, trial, *frame, t.mode, points_first);
      if (!L || (best && !better(*L, *best))) continue;
      best = std::move(L);
      best_scene = std::move(trial);
      if (enough(*best)) break;
    }
    if (best && enough(*best)) break;
  }
  if (best) s = std::move(best_scene);
  return best;
}

}  // namespace ridge::plots::roofline
