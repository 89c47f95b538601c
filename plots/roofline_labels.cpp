// The roofline plot's label placement (see roofline_labels.hpp).
#include "plots/roofline_labels.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

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
      // The run's roof alone: its dtypes ("fp16/bf16 230 TFLOP/s"), else the run's dtype only.
      std::vector<std::string> forms{r->label};
      if (run_only(P.L.roof_labels) && r->short_label != r->label) forms.push_back(r->short_label);
      const double y = f.to_in_y(r->flops);
      // Over its own roof; a small figure's single label may reach past the roof's start.
      double right = area.x1 - 0.02, left_limit = run_only(P.L.roof_labels) ? area.x0 : f.to_in_x(r->x0);
      // Just over or under the roof; else a little higher, clear of the points on it.
      const double gap = kLineThickness / 2 + 0.02 + P.line_h / 2;
      bool placed = false;
      for (const std::string& text : forms) {
        const double w = P.line_w(text);
        for (double shift = 0; !placed && right - shift - w >= left_limit - 1e-9; shift += 0.25)
          for (double dy : {gap, -gap, gap + 0.1, gap + 0.2}) {
            if (dy > gap && !run_only(P.L.roof_labels)) break;  // with other roofs, it could read as theirs
            double cx = right - shift - w / 2, cy = y + dy;
            std::vector<Box> b{{cx - w / 2, cy - P.line_h / 2, cx + w / 2, cy + P.line_h / 2}};
            if (!P.placer.fits(b)) continue;
            P.placer.take(b);
            P.L.line_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), 0, text});
            placed = true;
            break;
          }
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

// Diagonal labels along the slope beside their line, nearest its middle first; left out
// (and reported) when no spot beside the line is free.
void place_diagonal_labels(Placing& P) {
  const Frame& f = P.L.frame;
  const double angle = f.slope_angle_deg();
  const double a = angle * M_PI / 180, nx = -std::sin(a), ny = std::cos(a);
  // (a fiftieth of an inch from the line: two diagonals a fifth of an inch apart hold a label between them)
  const double off = kLineThickness / 2 + 0.02 + P.line_h / 2;
  // Spots along the line, from its middle outwards in steps of a twentieth.
  std::vector<double> along{0.5};
  for (double d = 0.05; d < 0.5; d += 0.05) along.insert(along.end(), {0.5 - d, 0.5 + d});
  for (size_t h = 0; h < P.scene.hw.size(); ++h)
    for (const Diagonal& d : P.scene.hw[h].diags) {
      if (&d == &P.scene.hw[h].diags.front() && !P.scene.dram_key.empty()) continue;  // named in the key
      double ax = f.to_in_x(d.x0), ay = f.to_in_y(d.bandwidth * d.x0);
      double bx = f.to_in_x(d.x1), by = f.to_in_y(d.bandwidth * d.x1);
      auto try_at = [&](const std::string& text, double t, double side) {
        double cx = ax + t * (bx - ax) + side * off * nx, cy = ay + t * (by - ay) + side * off * ny;
        auto boxes = LabelPlacer::rotated_text(cx, cy, P.line_w(text), P.line_h, angle);
        if (!P.placer.fits(boxes)) return false;
        P.placer.take(boxes);
        P.L.line_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), angle, text});
        return true;
      };
      // The full label ("NVLink 3 / NVSwitch 234 GB/s"), else a link's short one ("scale-up
      // 234 GB/s"), else its bandwidth alone (the key names each link with its bandwidth
      // and dash pattern, so "234 GB/s" by the line still says which it is).
      std::vector<std::string> forms{d.label, d.short_label};
      if (d.link) forms.push_back(si_label(d.bandwidth, "B/s"));
      bool placed = false;
      for (const std::string& text : forms)
        for (double side : {1.0, -1.0})
          for (double t : along)
            if (!placed) placed = try_at(text, t, side);
      if (!placed) P.L.dropped.push_back(d.short_label);
    }
}

namespace {

// A leader line from a marker's edge (radius r around x, y; a point of run `run`) to the nearest point of its label's box.
void add_leader(Layout& L, size_t run, double x, double y, double r, const Box& b) {
  double tx = std::clamp(x, b.x0, b.x1), ty = std::clamp(y, b.y0, b.y1);
  double dx = tx - x, dy = ty - y, len = std::hypot(dx, dy);
  if (len <= r) return;
  const Frame& f = L.frame;
  const RooflineGeometry::Segment s{x + dx / len * r, y + dy / len * r, tx, ty, run};
  L.leaders += segment(f.from_in_x(s.x0), f.from_in_y(s.y0), f.from_in_x(s.x1), f.from_in_y(s.y1));
  L.geometry.leaders.push_back(s);
}

}  // namespace

void place_ridge_labels(Placing& P, const RooflineRequest& req) {
  const Frame& f = P.L.frame;
  const Box area = P.placer.area();
  const std::vector<double>& ridges = req.runs[0].timing.hardware->ridge_points;
  for (size_t m = 0; m < ridges.size(); ++m) {
    const std::string level = ridges.size() > 1 ? req.runs[0].hw.memory[m].name + " " : "";
    // "L2 ridge 4.77 FLOP/B"; where that finds no spot, "L2 4.77 FLOP/B" (by its dotted line).
    bool placed = false;
    std::string text;
    for (const std::string& form : {level + "ridge " + si_label(ridges[m], "FLOP/B"), level + si_label(ridges[m], "FLOP/B")}) {
      if (placed) break;
      text = form;
      const double x = f.to_in_x(ridges[m]), y = f.to_in_y(P.scene.hw[0].run_flops), w = P.line_w(text);
      // Along the line: just under the roof, else lower down (clear of the diagonals near
      // the knee), in steps, and last resting on the floor (the other dtypes' roofs cross
      // the line: the stretch under the lowest may hold the label only there).
      std::vector<double> drops;
      for (double drop = 0.1; y - drop - w >= area.y0 - 1e-9; drop += 0.05) drops.push_back(drop);
      if (y - 0.1 - w >= area.y0 - 1e-9) drops.push_back(y - w - area.y0 - 1e-6);
      for (double drop : drops)
        for (double side : {1.0, -1.0}) {
          if (placed) break;
          double cx = x + side * (0.02 + P.line_h / 2), cy = y - drop - w / 2;
          auto boxes = LabelPlacer::rotated_text(cx, cy, w, P.line_h, 90);
          if (!P.placer.fits(boxes)) continue;
          P.placer.take(boxes);
          P.L.line_labels[0].push_back({f.from_in_x(cx), f.from_in_y(cy), 90, text});
          placed = true;
          break;
        }
      // Else level, beside the line's foot, from the floor up.
      for (double up = 0; !placed && area.y0 + up + P.line_h <= y - 0.1; up += 0.05)
        for (double side : {-1.0, 1.0}) {
          double cx = x + side * (0.04 + w / 2), cy = area.y0 + up + P.line_h / 2;
          std::vector<Box> boxes{{cx - w / 2, cy - P.line_h / 2, cx + w / 2, cy + P.line_h / 2}};
          if (!P.placer.fits(boxes)) continue;
          P.placer.take(boxes);
          P.L.line_labels[0].push_back({f.from_in_x(cx), f.from_in_y(cy), 0, text});
          placed = true;
          break;
        }
    }
    if (!placed) P.L.dropped.push_back(text);
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
  for (const Point* p : heavy) {
    // The full name, else (a narrow figure) its last part only, else that without the
    // count of repeated blocks ("up_proj 18%": the share is still the whole group's).
    const double x = f.to_in_x(p->intensity), y = f.to_in_y(p->attained);
    std::string text;
    std::optional<LabelPlacer::Spot> spot;
    for (const std::string& form : {p->label(), p->label(true), p->short_name() + " " + percent_label(p->share)}) {
      if (form == text) continue;
      text = form;
      // A little wider than the estimate: neighbouring labels keep a gap.
      spot = P.placer.place_near(x, y, p->r_in, P.style.text_width_in(text) + 0.08, text_h, static_cast<int>(p->run));
      if (spot) break;
    }
    if (!spot) continue;
    const Box& b = spot->box;
    P.L.layer_labels.push_back({f.from_in_x(b.x0), f.from_in_y((b.y0 + b.y1) / 2), 0, text, p->run % kOkabeIto.size() + 1});
    if (spot->leader) add_leader(P.L, p->run, x, y, p->r_in, b);
  }
}

}  // namespace ridge::plots::roofline
