// The roofline plot's label placement (see roofline_labels.hpp).
#include "plots/roofline_labels.hpp"

#include <algorithm>
#include <cmath>

#include "plots/plot_text.hpp"

namespace ridge::plots::roofline {

// Roof labels inside the plot, above their roof at the right edge, else further left,
// else below it. False when one does not fit.
bool place_roof_labels(Placing& P) {
  const Frame& f = P.L.frame;
  const Box area = P.placer.area();
  for (size_t h = 0; h < P.scene.hw.size(); ++h) {
    std::vector<const Roof*> order;
    for (const Roof& r : P.scene.hw[h].roofs)
      if (r.run || !run_only(P.L.roof_labels)) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const Roof* a, const Roof* b) { return a->run > b->run; });
    for (const Roof* r : order) {
      double w = P.line_w(r->label), y = f.to_in_y(r->flops);
      // Over its own roof; a small figure's single label may reach past the roof's start.
      double right = area.x1 - 0.02, left_limit = run_only(P.L.roof_labels) ? area.x0 : f.to_in_x(r->x0);
      bool placed = false;
      // A small figure's single label may, as a last resort, cross other lines.
      for (bool over_lines : {false, true})
      for (double shift = 0; !placed && right - shift - w >= left_limit - 1e-9; shift += 0.25)
        for (double dy : {kLineThickness / 2 + 0.02 + P.line_h / 2, -(kLineThickness / 2 + 0.02 + P.line_h / 2)}) {
          if (over_lines && !run_only(P.L.roof_labels)) break;
          double cx = right - shift - w / 2, cy = y + dy;
          std::vector<Box> b{{cx - w / 2, cy - P.line_h / 2, cx + w / 2, cy + P.line_h / 2}};
          if (!P.placer.fits(b, over_lines)) continue;
          // Over lines as a last resort, but never over a point: it would hide the data.
          if (std::any_of(P.markers.begin(), P.markers.end(), [&](const Box& m) { return m.overlaps(b[0]); })) continue;
          P.placer.take(b);
          P.L.line_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), 0, r->label});
          placed = true;
          break;
        }
      if (!placed) return false;
    }
  }
  return true;
}

// Roof labels in the right margin, in the order of their roofs, a line apart.
void place_margin_roof_labels(Placing& P) {
  const Frame& f = P.L.frame;
  struct MarginLabel {
    size_t h;
    const Roof* roof;
    double y;
  };
  std::vector<MarginLabel> ml;
  for (size_t h = 0; h < P.scene.hw.size(); ++h)
    for (const Roof& r : P.scene.hw[h].roofs)
      if (r.run || !run_only(P.L.roof_labels)) ml.push_back({h, &r, f.to_in_y(r.flops)});
  std::stable_sort(ml.begin(), ml.end(), [](const MarginLabel& a, const MarginLabel& b) { return a.y < b.y; });
  double gap = P.line_h * 1.1;
  for (size_t i = 1; i < ml.size(); ++i) ml[i].y = std::max(ml[i].y, ml[i - 1].y + gap);
  double top = f.height_in - f.top_in + P.style.line_in();
  for (size_t i = ml.size(); i-- > 0;) {
    double cap = i + 1 < ml.size() ? ml[i + 1].y - gap : top - P.line_h / 2;
    ml[i].y = std::min(ml[i].y, cap);
  }
  for (const MarginLabel& m : ml) P.L.margin_labels.push_back({m.h, f.to_in_y(m.roof->flops), m.y, m.roof->label});
}

// Diagonal labels along the slope beside their line, nearest its middle first; else on
// the line in an opaque box, clear of other labels; else mid-way regardless.
void place_diagonal_labels(Placing& P) {
  const Frame& f = P.L.frame;
  const double angle = f.slope_angle_deg();
  const double a = angle * M_PI / 180, nx = -std::sin(a), ny = std::cos(a);
  const double off = kLineThickness / 2 + 0.03 + P.line_h / 2;
  static const double kAlong[] = {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9};
  for (size_t h = 0; h < P.scene.hw.size(); ++h)
    for (const Diagonal& d : P.scene.hw[h].diags) {
      double ax = f.to_in_x(d.x0), ay = f.to_in_y(d.bandwidth * d.x0);
      double bx = f.to_in_x(d.x1), by = f.to_in_y(d.bandwidth * d.x1);
      double w = P.line_w(d.label);
      auto try_at = [&](double t, double side, bool labels_only) {
        double cx = ax + t * (bx - ax) + side * off * nx, cy = ay + t * (by - ay) + side * off * ny;
        auto boxes = LabelPlacer::rotated_text(cx, cy, w, P.line_h, angle);
        if (!P.placer.fits(boxes, labels_only)) return false;
        P.placer.take(boxes);
        (side == 0 ? P.L.boxed_labels : P.L.line_labels)[h].push_back({f.from_in_x(cx), f.from_in_y(cy), angle, d.label});
        return true;
      };
      bool placed = false;
      for (double side : {1.0, -1.0, 0.0})
        for (double t : kAlong)
          if (!placed) placed = try_at(t, side, false);
      for (double t : kAlong)
        if (!placed) placed = try_at(t, 0, true);
      if (!placed) {
        double cx = (ax + bx) / 2, cy = (ay + by) / 2;
        P.placer.take(LabelPlacer::rotated_text(cx, cy, w, P.line_h, angle));
        P.L.boxed_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), angle, d.label});
      }
    }
}

namespace {

// A leader line from a marker's edge (radius r around x, y) to the nearest point of its label's box.
void add_leader(Layout& L, double x, double y, double r, const Box& b) {
  double tx = std::clamp(x, b.x0, b.x1), ty = std::clamp(y, b.y0, b.y1);
  double dx = tx - x, dy = ty - y, len = std::hypot(dx, dy);
  if (len <= r) return;
  const Frame& f = L.frame;
  L.leaders += segment(f.from_in_x(x + dx / len * r), f.from_in_y(y + dy / len * r), f.from_in_x(tx), f.from_in_y(ty));
}

}  // namespace

// Each memory level's ridge point at the run's dtype (with several hardware, DRAM's
// only), marked by a thin line dropped from its corner to the floor and labelled along
// that line, just under the roof: the label cannot be read as another corner's.
void place_ridge_labels(Placing& P, const RooflineRequest& req) {
  const Frame& f = P.L.frame;
  const Box area = P.placer.area();
  for (size_t h = 0; h < P.scene.hw.size(); ++h) {
    const Hardware& H = P.scene.hw[h];
    const std::vector<double>& ridges = req.runs[h].timing.hardware->ridge_points;
    const size_t levels = P.scene.hw.size() > 1 ? 1 : ridges.size();
    for (size_t m = 0; m < levels; ++m) {
      std::string text = (ridges.size() > 1 ? req.runs[h].hw.memory[m].name + " ridge " : "ridge ") + si_label(ridges[m], "FLOP/B");
      const double x = f.to_in_x(ridges[m]), y = f.to_in_y(H.run_flops), w = P.line_w(text);
      P.L.drops.push_back({h, ridges[m], H.run_flops});
      const double cy = std::max(area.y0 + w / 2, y - 0.1 - w / 2);
      bool placed = false;
      for (bool labels_only : {false, true})
        for (double side : {1.0, -1.0}) {
          if (placed) break;
          double cx = x + side * (0.02 + P.line_h / 2);
          auto boxes = LabelPlacer::rotated_text(cx, cy, w, P.line_h, 90);
          if (!P.placer.fits(boxes, labels_only)) continue;
          P.placer.take(boxes);
          (labels_only ? P.L.boxed_labels : P.L.line_labels)[h].push_back({f.from_in_x(cx), f.from_in_y(cy), 90, text});
          placed = true;
        }
      P.placer.block_segment(x, y, x, area.y0, kLineThickness / 2);
    }
  }
}

// The `labels` heaviest points over all hardware, by share of their run's time.
void place_layer_labels(Placing& P, int labels) {
  const Frame& f = P.L.frame;
  std::vector<const Point*> heavy;
  for (const Point& p : P.scene.points) heavy.push_back(&p);
  std::stable_sort(heavy.begin(), heavy.end(), [](const Point* a, const Point* b) { return a->share > b->share; });
  if (heavy.size() > static_cast<size_t>(labels)) heavy.resize(static_cast<size_t>(labels));
  P.L.layers_wanted = heavy.size();
  // A line's height and a little: at a journal column's 8 pt the rendered text is
  // taller than the estimate, and stacked labels must keep a gap.
  const double text_h = P.style.line_in() * 0.85 + 0.025;
  // In a plot area under 2.5 in wide (a journal column) a label in a box over the lines
  // would hide the roofline itself: there only free spots are used.
  const Box area = P.placer.area();
  const bool over_lines = area.x1 - area.x0 >= 2.5;
  for (const Point* p : heavy) {
    std::string text = p->label();
    double x = f.to_in_x(p->intensity), y = f.to_in_y(p->attained);
    // A little wider than the estimate: neighbouring labels keep a gap.
    auto spot = P.placer.place_near(x, y, p->r_in, P.style.text_width_in(text) + 0.08, text_h, 1, 0, over_lines);
    if (!spot) continue;
    const Box& b = spot->box;
    (spot->boxed ? P.L.boxed_layer_labels : P.L.layer_labels)
        .push_back({f.from_in_x(b.x0), f.from_in_y((b.y0 + b.y1) / 2), 0, text, p->run % kOkabeIto.size() + 1});
    if (spot->leader) add_leader(P.L, x, y, p->r_in, b);
  }
}

}  // namespace ridge::plots::roofline
