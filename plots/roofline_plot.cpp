// The roofline plot (see roofline_plot.hpp), in four phases: what to draw (roofs,
// diagonals, points), where the frame and every label go (inches), the data file, the
// script. Geometry and label placement are done here; gnuplot only draws.
#include "plots/roofline_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"
#include "sim/views/layer_fields.hpp"

namespace ridge::plots {

namespace {

struct Roof {
  double flops;                 // achievable FLOP/s
  std::vector<DType> dtypes;    // sharing this peak
  bool run = false;             // includes the run's dtype
  std::string label;
  double x0 = 0, x1 = 0;        // extent
};

struct Diagonal {
  double bandwidth;             // achievable B/s
  std::string label;
  double x0 = 0, x1 = 0;        // from the frame's floor to the run's roof
};

// A marker: one layer, or (grouped) the layers of repeated blocks that sit on one spot.
struct Point {
  size_t run;
  std::vector<size_t> layers;   // first: the representative
  std::string name;             // the layer's name, or the group's pattern ("encoder.*.ffn")
  double intensity, attained, share, time_s, size;
  double r_in = 0;              // marker radius, inches
  bool launch_bound = false;    // the Result's bound is `overhead`: kernel launches take most of its time
  std::string label() const {
    return name + (layers.size() > 1 ? " x" + std::to_string(layers.size()) + "," : "") + " " + percent_label(share);
  }
};

struct Hardware {
  std::vector<Roof> roofs;
  std::vector<Diagonal> diags;  // per memory level, DRAM first
  double run_flops = 0;         // the run's dtype roof
  size_t skipped = 0;           // layers without arithmetic or traffic
};

struct Scene {
  std::vector<Hardware> hw;
  std::vector<Point> points;
  bool launch_bound = false;  // some point is launch-bound: the key explains its marker
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  double run_roofs_hi = 0;  // the highest roof of the run's dtype
};

// The key's entry for launch-bound layers' square markers.
constexpr const char* kLaunchBoundKey = "launch-bound (launches aside)";

// Roof, bandwidth and ridge labels are set at this fraction of the font size.
constexpr double kLineFont = 0.9;

struct Text {
  double x, y, angle;  // data coordinates: the text's centre (layer labels: its left edge)
  std::string text;
  size_t lt = 1;       // gnuplot linetype of its colour: its hardware's
};

struct MarginText {
  size_t run;
  double roof_y_in, y_in;  // the roof's height and the label's, inches from the bottom
  std::string text;
};

// Where the roofs' labels go, tried in this order: inside by their roofs; in the right
// margin; then, for a small figure, the run's dtype's only (the other roofs are drawn,
// unlabelled), inside or in the margin. An overlay in a narrow figure (a journal
// column) names each hardware's run roof in its key entry instead (`key`).
enum class RoofLabels { inside, margin, inside_run_only, margin_run_only, key };
bool run_only(RoofLabels m) { return m == RoofLabels::inside_run_only || m == RoofLabels::margin_run_only; }
bool in_margin(RoofLabels m) { return m == RoofLabels::margin || m == RoofLabels::margin_run_only; }

struct Layout {
  Frame frame;
  RoofLabels roof_labels = RoofLabels::inside;
  bool margin_roofs = false;
  std::vector<std::vector<Text>> line_labels;  // per hardware: roof, bandwidth and ridge labels
  std::vector<std::vector<Text>> boxed_labels; // per hardware: bandwidth labels on their line
  std::vector<MarginText> margin_labels;       // roof labels in the right margin
  std::vector<Text> layer_labels, boxed_layer_labels;
  struct Drop {
    size_t run;
    double x, y;  // a ridge point: a line drops from it to the floor
  };
  std::vector<Drop> drops;
  size_t layers_wanted = 0;
  std::string leaders;
};

// Marker size (gnuplot pointsize) for a share of the step time: area proportional
// to the share, never smaller than a dot.
double marker_size(double share) { return std::max(0.6, 6.0 * std::sqrt(share)); }
// Radius in inches of a pointtype-7 circle of that size (in every format).
double marker_radius_in(double size) { return size * kMarkerInPerSize / 2; }

std::string hardware_title(const HardwareSpec& hw) { return hw.name.empty() ? hw.id : hw.name; }

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); }

std::string segment(double x0, double y0, double x1, double y1) {
  return gp_number(x0) + " " + gp_number(y0) + "\n" + gp_number(x1) + " " + gp_number(y1) + "\n\n";
}

// ---- phase 1: what to draw ----

std::vector<Roof> roofs_of(const HardwareSpec& hw, DType run_dtype) {
  std::map<double, Roof> by_peak;
  for (DType t : kAllDTypes) {
    auto p = hw.peak(t);
    if (!p) continue;
    double f = *p * hw.compute_efficiency;
    Roof& r = by_peak.try_emplace(f, Roof{f, {}, false, "", 0, 0}).first->second;
    r.dtypes.push_back(t);
    if (t == run_dtype) r.run = true;
  }
  std::vector<Roof> out;
  for (auto& [f, r] : by_peak) {
    std::string names;
    bool integer_only = true;
    for (DType t : r.dtypes) {
      names += (names.empty() ? "" : "/") + std::string(dtype_name(t));
      if (t != DType::int8) integer_only = false;
    }
    r.label = names + " " + si_label(f, integer_only ? "OP/s" : "FLOP/s");
    out.push_back(r);
  }
  return out;
}

// A layer name with every all-digit component as '*': the repeated blocks of a
// transformer ("encoder.layer.3.ffn") share one pattern ("encoder.layer.*.ffn").
std::string block_pattern(const std::string& name) {
  std::string out, part;
  auto flush = [&]() {
    bool digits = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    out += digits ? "*" : part;
    part.clear();
  };
  for (char c : name) {
    if (c == '.' || c == '/' || c == '_') {
      flush();
      out += c;
    } else {
      part += c;
    }
  }
  flush();
  return out;
}

// The points of one run: one per layer that does work or, grouped, one per set of
// layers with the same block pattern at the same spot (within 1 %).
std::vector<Point> points_of(size_t h, const Model& model, const RunResult& t, bool group, size_t& skipped) {
  std::vector<Point> out;
  std::map<std::string, std::vector<size_t>> by_pattern;  // pattern -> indices into out
  for (size_t i = 0; i < t.layers.size(); ++i) {
    const LayerResult& l = t.layers[i];
    if (!(l.arithmetic_intensity > 0) || !(l.roofline_attained_flops > 0)) {
      ++skipped;
      continue;
    }
    const std::string pattern = block_pattern(model.layers[i].name);
    if (group && pattern != model.layers[i].name) {
      bool merged = false;
      for (size_t k : by_pattern[pattern]) {
        Point& p = out[k];
        if (std::fabs(p.intensity / l.arithmetic_intensity - 1) < 0.01 &&
            std::fabs(p.attained / l.roofline_attained_flops - 1) < 0.01 &&
            p.launch_bound == (l.bound.kind == Bound::Kind::overhead)) {
          p.layers.push_back(i);
          p.name = pattern;
          p.share += l.step_share;
          p.time_s += l.timing.time_s;
          merged = true;
          break;
        }
      }
      if (merged) continue;
      by_pattern[pattern].push_back(out.size());
    }
    // At its roofline position: FLOPs over max(compute, memory), its launch time shown apart.
    out.push_back({h, {i}, model.layers[i].name, l.arithmetic_intensity, l.roofline_attained_flops, l.step_share,
                   l.timing.time_s, 0, 0, l.bound.kind == Bound::Kind::overhead});
  }
  for (Point& p : out) {
    p.size = marker_size(p.share);
    p.r_in = marker_radius_in(p.size);
  }
  return out;
}

Scene scene_of(const RooflineRequest& req) {
  const DType dtype = req.settings.dtype;
  Scene s;
  for (size_t h = 0; h < req.runs.size(); ++h) {
    const HardwareSpec& hw = req.runs[h].hw;
    Hardware H;
    H.roofs = roofs_of(hw, dtype);
    if (H.roofs.empty() || hw.memory.empty()) throw RunError(hw.id + ": no compute peak or memory level to draw");
    for (const Roof& r : H.roofs)
      if (r.run) H.run_flops = r.flops;
    if (H.run_flops == 0) throw RunError(hw.id + ": no " + std::string(dtype_name(dtype)) + " peak to draw");
    double b_max = 0;
    for (const MemoryLevel& m : hw.memory) {
      double b = m.bandwidth_Bps * hw.memory_efficiency;
      H.diags.push_back({b, m.name + " " + si_label(b, "B/s")});
      b_max = std::max(b_max, b);
      s.x_lo = std::min(s.x_lo, H.run_flops / b);
      s.x_hi = std::max(s.x_hi, H.run_flops / b);
    }
    // Each roof starts where the fastest level's diagonal would meet it.
    for (Roof& r : H.roofs) r.x0 = r.flops / b_max;
    s.y_hi = std::max(s.y_hi, H.roofs.back().flops);
    s.run_roofs_hi = std::max(s.run_roofs_hi, H.run_flops);
    s.y_lo = std::min(s.y_lo, H.roofs.front().flops);
    for (Point& p : points_of(h, *req.model, req.runs[h].timing, req.group, H.skipped)) {
      s.x_lo = std::min(s.x_lo, p.intensity);
      s.x_hi = std::max(s.x_hi, p.intensity);
      s.y_lo = std::min(s.y_lo, p.attained);
      s.launch_bound = s.launch_bound || p.launch_bound;
      s.points.push_back(std::move(p));
    }
    s.hw.push_back(std::move(H));
  }
  return s;
}

// With several hardware, a key entry names each one's bandwidths and DRAM ridge point:
// "NVIDIA V100: HBM2 900 GB/s, L2 2.15 TB/s; ridge 17.4 FLOP/B". When that is wider
// than the figure (a journal column), the short form: "v100: HBM2 900 GB/s, ridge 17.4".
std::string hardware_key(const TimedHardware& run, const Hardware& H) {
  std::string text = hardware_title(run.hw) + ":";
  for (size_t m = 0; m < H.diags.size(); ++m) text += (m ? ", " : " ") + H.diags[m].label;
  return text + "; ridge " + si_label(run.timing.hardware->ridge_points.at(0), "FLOP/B");
}
// The short form, with the run's roof (then not labelled in the plot) and the DRAM
// bandwidth, whose quotient is the ridge point: "v100: 15.7 TFLOP/s, 900 GB/s".
std::string short_hardware_key(const TimedHardware& run, const Hardware& H) {
  double roof = 0;
  for (const Roof& r : H.roofs)
    if (r.run) roof = r.flops;
  return run.hw.id + ": " + si_label(roof, "FLOP/s") + ", " + si_label(H.diags[0].bandwidth, "B/s");
}
// Whether a key entry fits the figure's width: gnuplot's key sample and its estimate of
// the text take about 0.8 in more than ours.
bool key_entry_fits(const PlotStyle& style, const std::string& text) {
  return style.text_width_in(text) * 1.25 + 0.8 <= style.width_in - 0.3;
}

// ---- phase 2: the frame and the labels, in inches ----

struct Placing {
  const PlotStyle& style;
  Scene& scene;
  Layout& L;
  LabelPlacer& placer;
  double line_h;  // height of a line label
  std::vector<Box> markers;  // the points' markers: no roof label goes over one
  double line_w(const std::string& s) const { return style.text_width_in(s) * kLineFont; }
};

constexpr double kLineThickness = 0.05;

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

// A leader line from a marker's edge (radius r around x, y) to the nearest point of its label's box.
void add_leader(Layout& L, double x, double y, double r, const Box& b) {
  double tx = std::clamp(x, b.x0, b.x1), ty = std::clamp(y, b.y0, b.y1);
  double dx = tx - x, dy = ty - y, len = std::hypot(dx, dy);
  if (len <= r) return;
  const Frame& f = L.frame;
  L.leaders += segment(f.from_in_x(x + dx / len * r), f.from_in_y(y + dy / len * r), f.from_in_x(tx), f.from_in_y(ty));
}

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

// First with the roofs' labels inside the plot, by their roofs; when any does not fit
// (several hardware, crowded roofs), again with all of them in the right margin.
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

// ---- phase 3: the data file ----

struct Blocks {
  int run_roof, other_roofs, dram, other_levels, ridges, points, labels, boxed, drops;
};

// Texts at the figure's font size or (points > 0) at `points`.
void write_texts(DataFile& dat, const std::vector<Text>& texts, TextMarkup mk, double points = 0) {
  for (const Text& t : texts)
    dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " "
              << (points > 0 ? data_string(t.text, mk, points) : data_string(t.text, mk)) << " " << gp_number(t.angle) << " "
              << t.lt << "\n";
}

// The points block's columns: the layer schema's keys (sim/views/layer_fields), and the
// plot's own marker_size and layer_index between them. A key the schema lacks is a bug.
std::vector<std::string> point_columns(const RunResult& run) {
  const std::vector<std::string> columns = {"arithmetic_intensity", "roofline_attained_flops", "step_share", "marker_size",
                                            "time_s", "layer_index", "bound", "name"};
  std::set<std::string> keys;
  for (const auto& f : layer_fields(run)) keys.insert(f.key);
  for (const std::string& c : columns)
    if (c != "marker_size" && c != "layer_index" && !keys.count(c)) throw RunError("roofline plot: no field '" + c + "' in the layer schema");
  return columns;
}

// `line_points`: the size of the roof, bandwidth and ridge labels.
Blocks write_hardware(DataFile& dat, const RooflineRequest& req, const Scene& s, const Layout& L, size_t h, TextMarkup mk,
                      double line_points) {
  const HardwareSpec& hw = req.runs[h].hw;
  const RunResult& t = req.runs[h].timing;
  const Hardware& H = s.hw[h];
  std::string which = "hardware " + std::to_string(h + 1) + " of " + std::to_string(s.hw.size());
  Blocks b;
  b.run_roof = dat.begin_block(which + ": the roof of the run's dtype, x y (a segment)");
  for (const Roof& r : H.roofs)
    if (r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
  b.other_roofs = dat.begin_block(which + ": roofs of the other dtypes, x y (segments)");
  for (const Roof& r : H.roofs)
    if (!r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
  b.dram = dat.begin_block(which + ": DRAM diagonal (memory level 0), x y = bandwidth x intensity, up to the run's roof");
  const Diagonal& d0 = H.diags[0];
  dat.out() << segment(d0.x0, d0.bandwidth * d0.x0, d0.x1, d0.bandwidth * d0.x1);
  b.other_levels = dat.begin_block(which + ": diagonals of the nearer memory levels, x y (segments)");
  for (size_t m = 1; m < H.diags.size(); ++m) {
    const Diagonal& d = H.diags[m];
    dat.out() << segment(d.x0, d.bandwidth * d.x0, d.x1, d.bandwidth * d.x1);
  }
  b.ridges = dat.begin_block(which + ": ridge points at the run's dtype, one per memory level: x y level");
  const std::vector<double>& ridges = t.hardware->ridge_points;
  for (size_t m = 0; m < ridges.size(); ++m)
    dat.out() << gp_number(ridges[m]) << " " << gp_number(H.run_flops) << " " << m << "\n";
  const std::vector<std::string> columns = point_columns(t);
  std::string names;
  for (const std::string& c : columns) names += (names.empty() ? "" : " ") + c;
  b.points = dat.begin_block(which + ": layers: " + names + " (" + std::to_string(H.skipped) +
                             " layers without arithmetic or traffic left out; repeated blocks on one spot are one row " +
                             "named by their pattern, layer_index the first; y is the roofline position, launch time aside)");
  dat.out() << data_string(hardware_title(hw), mk);
  for (size_t c = 1; c < columns.size(); ++c) dat.out() << " " << data_string(columns[c], TextMarkup::plain);
  dat.out() << "\n";
  for (const Point& p : s.points) {
    if (p.run != h) continue;
    const LayerResult& l = t.layers[p.layers.front()];
    dat.out() << gp_number(p.intensity) << " " << gp_number(p.attained) << " " << gp_number(p.share) << " " << gp_number(p.size)
              << " " << gp_number(p.time_s) << " " << p.layers.front() << " " << data_string(l.bound.label, mk) << " "
              << data_string(p.layers.size() > 1 ? p.name + " x" + std::to_string(p.layers.size()) : p.name, mk) << "\n";
  }
  b.labels = dat.begin_block(which + ": roof, bandwidth and ridge labels: x y text angle linetype (centred)");
  write_texts(dat, L.line_labels[h], mk, line_points);
  b.boxed = dat.begin_block(which + ": bandwidth labels set on their line, in an opaque box: x y text angle");
  write_texts(dat, L.boxed_labels[h], mk, line_points);
  b.drops = dat.begin_block(which + ": lines dropped from the labelled ridge points to the floor, x y (segments)");
  for (const Layout::Drop& d : L.drops)
    if (d.run == h) dat.out() << segment(d.x, d.y, d.x, L.frame.y_min);
  return b;
}

// ---- phase 4: the script ----

std::string margin_roof_script(const Layout& L, const PlotStyle& style) {
  std::ostringstream g;
  g << "# The roofs' labels, in the right margin (they hold no names from input files)\n";
  const Frame& f = L.frame;
  const Box area = f.plot_area();
  int n = 0;
  for (const MarginText& m : L.margin_labels) {
    std::string lt = std::to_string(m.run % kOkabeIto.size() + 1);
    g << "set label " << ++n << " " << gp_string(m.text, style.markup(), style.font_size * kLineFont) << " at screen "
      << gp_number((area.x1 + 0.12) / f.width_in) << ", screen " << gp_number(m.y_in / f.height_in) << " left font ',"
      << gp_number(style.font_size * kLineFont) << "' textcolor lt " << lt << "\n";
    g << "set arrow " << n << " from screen " << gp_number(area.x1 / f.width_in) << ", screen "
      << gp_number(m.roof_y_in / f.height_in) << " to screen " << gp_number((area.x1 + 0.1) / f.width_in) << ", screen "
      << gp_number(m.y_in / f.height_in) << " nohead lt " << lt << " lw 0.8\n";
  }
  return g.str();
}

std::string plot_command(const Scene& s, const Layout& L, const std::vector<Blocks>& blocks, int layer_block,
                         int boxed_layer_block, int leader_block, const std::vector<std::string>& key_texts,
                         const PlotStyle& style) {
  std::vector<std::string> clauses;
  auto idx = [](int i) { return "data index " + std::to_string(i); };
  const size_t H = s.hw.size();
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    clauses.push_back(idx(b.run_roof) + " using 1:2 with lines " + lt + " lw 2.5 notitle");
    if (s.hw[h].roofs.size() > 1)
      clauses.push_back(idx(b.other_roofs) + " using 1:2 with lines " + lt + " lw 0.8 dt (4,4) lc rgb '#A0" +
                        std::string(kOkabeIto[h % kOkabeIto.size()]).substr(1) + "' notitle");
    clauses.push_back(idx(b.dram) + " using 1:2 with lines " + lt + " lw 2.5 notitle");
    if (s.hw[h].diags.size() > 1) clauses.push_back(idx(b.other_levels) + " using 1:2 with lines " + lt + " lw 1 dt (5,4) notitle");
  }
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    std::string rgb = kOkabeIto[h % kOkabeIto.size()];
    // Filled translucent circles (#AARRGGBB: alpha 0x70) with an outline in the same colour;
    // launch-bound layers (column 7 "overhead") as squares, at their roofline position.
    const std::string circle = "(strcol(7) eq 'overhead' ? NaN : $2)", square = "(strcol(7) eq 'overhead' ? $2 : NaN)";
    clauses.push_back(idx(b.points) + " using 1:" + circle + ":($4*marker) with points pt 7 ps variable lc rgb '#70" + rgb.substr(1) + "' notitle");
    clauses.push_back(idx(b.points) + " using 1:" + circle + ":($4*marker) with points pt 6 ps variable " + lt + " lw 0.8 notitle");
    if (s.launch_bound)
      clauses.push_back(idx(b.points) + " using 1:" + square + ":($4*marker) with points pt 4 ps variable " + lt + " lw 1.2 notitle");
    clauses.push_back(idx(b.drops) + " using 1:2 with lines " + lt + " lw 0.6 dt (2,3) notitle");
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 13 ps 1.1*marker " + lt + " notitle");
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 12 ps 1.1*marker lc rgb '#222222' lw 0.8 notitle");
  }
  // The key: each hardware (several only) with its bandwidths, then the marker note.
  for (size_t h = 0; h < H && H > 1; ++h)
    clauses.push_back("keyentry with linespoints pt 7 ps 0.8*marker lt " + std::to_string(h % kOkabeIto.size() + 1) + " lw 2.5 title " +
                      gp_string(key_texts[h], style.markup()));
  clauses.push_back("keyentry with points pt 6 ps 1.4*marker lc rgb '#555555' title 'marker area: time share'");
  if (s.launch_bound)
    clauses.push_back("keyentry with points pt 4 ps 1.4*marker lc rgb '#555555' lw 1.2 title " +
                      gp_string(kLaunchBoundKey, style.markup()));
  const std::string line_font = " font '," + gp_number(style.font_size * kLineFont) + "'";
  // LaTeX draws gnuplot's opaque text boxes with \widthof (the calc package): in .tex
  // output such labels go without their box, so that a plain article compiles them.
  const std::string boxed = style.format == ImageFormat::tex ? "" : " boxed";
  for (size_t h = 0; h < H; ++h) {
    std::string tc = " tc lt " + std::to_string(h % kOkabeIto.size() + 1) + " notitle";
    if (!L.line_labels[h].empty())
      clauses.push_back(idx(blocks[h].labels) + " using 1:2:3:4 with labels center rotate variable" + line_font + tc);
    if (!L.boxed_labels[h].empty())
      clauses.push_back(idx(blocks[h].boxed) + " using 1:2:3:4 with labels center rotate variable" + boxed + line_font + tc);
  }
  if (!L.leaders.empty()) clauses.push_back(idx(leader_block) + " using 1:2 with lines lc rgb '#777777' lw 0.7 notitle");
  // Layer labels in near-black; with several hardware, in their hardware's colour.
  const std::string layer_tc = H > 1 ? "using 1:2:3:5 with labels left tc variable" : "using 1:2:3 with labels left tc rgb '#222222'";
  if (!L.layer_labels.empty()) clauses.push_back(idx(layer_block) + " " + layer_tc + " notitle");
  if (!L.boxed_layer_labels.empty())
    clauses.push_back(idx(boxed_layer_block) + " " + layer_tc.substr(0, layer_tc.find(" tc")) + boxed + layer_tc.substr(layer_tc.find(" tc")) + " notitle");
  std::ostringstream p;
  p << "# Per hardware N (colour N): roofs (run's dtype solid, other dtypes light and dashed),\n"
       "# diagonals up to the run's roof (DRAM solid, nearer levels dashed), ridge points,\n"
       "# layers, then the labels.\n"
       "plot \\\n";
  for (size_t i = 0; i < clauses.size(); ++i) p << "    " << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  return p.str();
}

}  // namespace

PlotBundle roofline_plot(const RooflineRequest& req, const PlotStyle& style, const std::string& stem) {
  if (!req.model || req.runs.empty() || req.labels < 0) throw RunError("roofline plot: nothing to draw");
  for (const TimedHardware& r : req.runs)
    if (!r.timing.hardware) throw RunError("roofline plot: a run was not timed on hardware");
  const TextMarkup mk = style.markup();
  const DType dtype = req.settings.dtype;
  const size_t H = req.runs.size();

  Scene scene = scene_of(req);

  // The title names the model, the run and, when there is one, the hardware; as phrases,
  // so that a wrapped title breaks between them, never inside "batch 64". The key sits
  // in a band under it: one entry per hardware (several only) and the marker note.
  const Model& model = *req.model;
  std::vector<std::string> title = {H == 1 ? model.name + " on " + hardware_title(req.runs[0].hw) + ":" : model.name + ",",
                                    "batch " + std::to_string(req.settings.batch) + ",", std::string(dtype_name(dtype)) + ",",
                                    std::string(phase_name(req.settings.phase))};
  std::vector<std::string> key_texts;
  if (H > 1)
    for (size_t h = 0; h < H; ++h) key_texts.push_back(hardware_key(req.runs[h], scene.hw[h]));
  // An overlay too narrow for the full entries (at a given size or \textwidth): short
  // ones naming each run roof, which the plot then leaves unlabelled (labels by the
  // roofs would crowd the points).
  const bool roofs_in_key =
      H > 1 && !style.may_widen() &&
      std::any_of(key_texts.begin(), key_texts.end(), [&](const std::string& k) { return !key_entry_fits(style, k); });
  if (roofs_in_key)
    for (size_t h = 0; h < H; ++h) key_texts[h] = short_hardware_key(req.runs[h], scene.hw[h]);
  key_texts.push_back("marker area: time share");
  if (scene.launch_bound) key_texts.push_back(kLaunchBoundKey);
  // Several hardware: without --size, room for their roof labels in the margin (and
  // for the key's entries, below the title).
  PlotStyle sized = style;
  if (H > 1 && !style.size_given) {
    if (style.may_widen()) sized.width_in += 1.5;
    sized.height_in += 0.8;
  }
  HeaderBand band = header_band(sized, title, key_texts);
  // A preset (--style paper: a journal column's width) fixes the width, not the height:
  // its height is for a one-row key, and each further row (an overlay's hardware, the
  // launch-bound note) makes the figure taller rather than its plot area shorter.
  if (style.size_given && !style.height_given) {
    sized.height_in += band.top_in - header_band(sized, title, {key_texts.front()}).top_in;
    band = header_band(sized, title, key_texts);  // it places the title and key by height
  }

  const Layout L = layout_of(req, sized, scene, band.top_in, roofs_in_key);
  sized.width_in = L.frame.width_in;

  DataFile dat;
  dat.comment("ridge roofline plot data: " + std::to_string(H) + " hardware run(s); blocks are selected with `index N`");
  dat.comment("units: arithmetic intensity in FLOP/B, performance in FLOP/s, time in s");
  dat.comment("roofs and diagonals are at achievable values: peak x the descriptor's efficiency factors");
  dat.out() << "\n";
  std::vector<Blocks> blocks;
  for (size_t h = 0; h < H; ++h) blocks.push_back(write_hardware(dat, req, scene, L, h, mk, sized.font_size * kLineFont));
  int layer_block = dat.begin_block("labels of the heaviest layers: x y text angle linetype (x: left edge, y: vertical centre)");
  write_texts(dat, L.layer_labels, mk);
  int boxed_layer_block = dat.begin_block("labels of the heaviest layers set over lines, in an opaque box: x y text angle");
  write_texts(dat, L.boxed_layer_labels, mk);
  int leader_block = dat.begin_block("leader lines from markers to labels placed away from them, x y (segments)");
  dat.out() << L.leaders;

  const Frame& f = L.frame;
  std::ostringstream g;
  g << "# ridge roofline plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# The numbers are in the .dat file beside it; every name is read from there.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "# ---- axes: log-log ----\n"
       "set logscale xy 10\n"
       "set format x '%g'\n"
       "set format y '%.0s %cFLOP/s'\n"
       "set xtics 10\nset ytics 10\nset mxtics 10\nset mytics 10\n";
  g << f.gnuplot_margins();
  g << axis_titles(sized, f, "Arithmetic intensity [FLOP/B]", "Attained performance");
  g << band.script;
  g << "set style fill transparent solid 0.45 noborder\n"
       "set style textbox opaque noborder margins 1,1\n";
  if (L.margin_roofs) g << margin_roof_script(L, sized);
  g << "\ndata = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n\n";
  g << plot_command(scene, L, blocks, layer_block, boxed_layer_block, leader_block, key_texts, sized);

  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  if (run_only(L.roof_labels))
    bundle.notes.push_back("only the run's roof is labelled: the figure has no room for the other dtypes' values");
  const size_t placed = L.layer_labels.size() + L.boxed_layer_labels.size();
  if (placed < L.layers_wanted)
    bundle.notes.push_back("labelled " + std::to_string(placed) + " of the " + std::to_string(L.layers_wanted) +
                           " heaviest points; the rest had no free spot (a larger --size makes room)");
  return bundle;
}

}  // namespace ridge::plots
