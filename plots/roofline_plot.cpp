// The roofline plot (see roofline_plot.hpp): geometry and label placement in C++,
// drawing in the generated gnuplot script.
#include "plots/roofline_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

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
  size_t level;
  double bandwidth;             // achievable B/s
  std::string label;
  double x0 = 0, x1 = 0;
};

struct Point {
  size_t run, layer;
  double intensity, attained, share, size;
  double r_in = 0;              // marker radius, inches
};

// Marker size (gnuplot pointsize) for a share of the step time: area proportional
// to the share, never smaller than a dot.
constexpr double kLineFont = 0.9;

struct Text {
  double x, y, angle;  // data coordinates: the text's centre (layer labels: its left edge)
  std::string text;
};

struct MarginText {
  size_t run;
  double roof_y_in, y_in;  // the roof's height and the label's, inches from the bottom
  std::string text;
};

struct Layout {
  Frame frame;
  bool margin_roofs = false;
  std::vector<std::vector<Text>> line_labels;  // per hardware: roof, bandwidth and ridge labels
  std::vector<std::vector<Text>> boxed_labels; // per hardware: bandwidth labels on their line
  std::vector<MarginText> margin_labels;       // roof labels in the right margin
  std::vector<Text> layer_labels;
  std::string leaders;
};

double marker_size(double share) { return std::max(0.6, 6.0 * std::sqrt(share)); }
// Radius in inches of a pointtype-7 circle of that size (cairo terminals).
double marker_radius_in(double size) { return size * 0.028; }

std::string hardware_title(const HardwareSpec& hw) { return hw.name.empty() ? hw.id : hw.name; }

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

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); }

void write_texts(DataFile& dat, const std::vector<Text>& texts, TextMarkup mk) {
  for (const Text& t : texts)
    dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " " << data_string(t.text, mk) << " " << gp_number(t.angle) << "\n";
}

std::string segment(double x0, double y0, double x1, double y1) {
  return gp_number(x0) + " " + gp_number(y0) + "\n" + gp_number(x1) + " " + gp_number(y1) + "\n\n";
}

}  // namespace

PlotBundle roofline_plot(const RooflineRequest& req, const PlotStyle& style, const std::string& stem) {
  if (!req.model || req.runs.empty() || req.labels < 0) throw RunError("roofline plot: nothing to draw");
  const TextMarkup mk = style.markup();
  const DType dtype = req.settings.dtype;
  const size_t H = req.runs.size();

  // ---- what to draw, per hardware ----
  std::vector<std::vector<Roof>> roofs(H);
  std::vector<std::vector<Diagonal>> diags(H);
  std::vector<Point> points;
  std::vector<size_t> skipped(H, 0);
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  for (size_t h = 0; h < H; ++h) {
    const HardwareSpec& hw = req.runs[h].hw;
    const RunResult& t = req.runs[h].timing;
    roofs[h] = roofs_of(hw, dtype);
    if (roofs[h].empty() || hw.memory.empty()) throw RunError(hw.id + ": no compute peak or memory level to draw");
    double p_max = roofs[h].back().flops, p_min = roofs[h].front().flops;
    double b_max = 0;
    for (size_t m = 0; m < hw.memory.size(); ++m) {
      double b = hw.memory[m].bandwidth_Bps * hw.memory_efficiency;
      diags[h].push_back({m, b, hw.memory[m].name + " " + si_label(b, "B/s")});
      b_max = std::max(b_max, b);
      x_lo = std::min(x_lo, p_min / b);
      x_hi = std::max(x_hi, p_max / b);
    }
    for (Roof& r : roofs[h]) r.x0 = r.flops / b_max;
    y_hi = std::max(y_hi, p_max);
    y_lo = std::min(y_lo, p_min);
    for (size_t i = 0; i < t.layers.size(); ++i) {
      const LayerResult& l = t.layers[i];
      if (!(l.arithmetic_intensity > 0) || !(l.attained_flops > 0)) {
        ++skipped[h];
        continue;
      }
      double share = l.step_share;
      Point p{h, i, l.arithmetic_intensity, l.attained_flops, share, marker_size(share)};
      p.r_in = marker_radius_in(p.size);
      points.push_back(p);
      x_lo = std::min(x_lo, p.intensity);
      x_hi = std::max(x_hi, p.intensity);
      y_lo = std::min(y_lo, p.attained);
    }
  }

  // ---- the frame and the labels, in inches ----
  // First with the roofs' labels inside the plot, by their roofs; when any does not fit
  // (several hardware, crowded roofs), again with all of them in the right margin.
  double ridge_hi = 0;
  for (size_t h = 0; h < H; ++h) ridge_hi = std::max(ridge_hi, ridge_point(req.runs[h].hw, dtype, 0));
  const double line = style.line_in();
  const double text_h = line * 0.85;
  // Roof, bandwidth and ridge labels are set at kLineFont of the font size.
  const double line_h = text_h * kLineFont;
  auto line_w = [&](const std::string& s) { return style.text_width_in(s) * kLineFont; };
  const Model& model = *req.model;
  // The title names the model, the run and, when there is one, the hardware.
  // As phrases: a wrapped title breaks between them, never inside "batch 64".
  std::vector<std::string> title = {H == 1 ? model.name + " on " + req.runs[0].hw.name + ":" : model.name + ",",
                                    "batch " + std::to_string(req.settings.batch) + ",", std::string(dtype_name(dtype)) + ",",
                                    std::string(phase_name(req.settings.phase))};
  // The key sits in a band under the title: one entry per hardware (several only) and the marker note.
  std::vector<std::string> key_texts{"marker area: time share"};
  if (H > 1)
    for (const TimedHardware& r : req.runs) key_texts.insert(key_texts.end() - 1, hardware_title(r.hw));
  Layout L;
  for (bool margin : {false, true}) {
    L = Layout{};
    L.margin_roofs = margin;
    Frame& f = L.frame;
    f.width_in = style.width_in;
    f.height_in = style.height_in;
    f.x_min = decade_below(x_lo / 1.5);
    // Inside, the roofs' labels need room right of the ridge points: two decades.
    f.x_max = decade_above(std::max(x_hi * 2, ridge_hi * (margin ? 4 : 100)));
    if (f.x_max / f.x_min < 100) f.x_max = f.x_min * 100;
    f.y_min = decade_below(y_lo / 1.5);
    f.y_max = decade_above(y_hi * 2.5);
    if (f.y_max / f.y_min < 100) f.y_min = f.y_max / 100;
    f.left_in = 0.12 + line + style.text_width_in("100 TFLOP/s") + 0.1;
    f.right_in = 0.2 + style.text_width_in("100000") / 2;
    if (margin) {
      double widest = 0;
      for (size_t h = 0; h < H; ++h)
        for (const Roof& r : roofs[h]) widest = std::max(widest, line_w(r.label));
      f.right_in = std::max(f.right_in, 0.2 + widest + 0.1);
    }
    double plot_w = f.width_in - f.left_in - f.right_in;
    f.bottom_in = 0.15 + 2.2 * line;
    f.top_in = header_band(style, title, key_texts).top_in;
    if (plot_w < 1.0 || f.plot_area().y1 - f.plot_area().y0 < 1.0)
      throw InputError({}, "--size is too small for this font size", "make the figure larger or --font-size smaller");
    for (size_t h = 0; h < H; ++h) {
      for (Roof& r : roofs[h]) r.x1 = f.x_max;
      double p_max = roofs[h].back().flops;
      for (Diagonal& d : diags[h]) {
        d.x0 = std::max(f.x_min, f.y_min / d.bandwidth);
        d.x1 = p_max / d.bandwidth;
      }
    }

    // Inset a little: text metrics are estimates, and nothing may touch the axes.
    const Box area = f.plot_area();
    LabelPlacer placer({area.x0 + 0.05, area.y0 + 0.04, area.x1 - 0.04, area.y1 - 0.04});
    const double thick = 0.05;
    for (size_t h = 0; h < H; ++h) {
      for (const Roof& r : roofs[h]) placer.block_segment(f.to_in_x(r.x0), f.to_in_y(r.flops), f.to_in_x(r.x1), f.to_in_y(r.flops), thick);
      for (const Diagonal& d : diags[h])
        placer.block_segment(f.to_in_x(d.x0), f.to_in_y(d.bandwidth * d.x0), f.to_in_x(d.x1), f.to_in_y(d.bandwidth * d.x1), thick);
    }
    for (const Point& p : points) {
      double x = f.to_in_x(p.intensity), y = f.to_in_y(p.attained);
      placer.block({x - p.r_in, y - p.r_in, x + p.r_in, y + p.r_in});
    }
    L.line_labels.assign(H, {});
    L.boxed_labels.assign(H, {});
    const double angle = f.slope_angle_deg();
    if (!margin) {
      // Roof labels: above the roof, right-aligned at the plot's edge, else further left, else below.
      bool all = true;
      for (size_t h = 0; h < H && all; ++h) {
        std::vector<const Roof*> order;
        for (const Roof& r : roofs[h]) order.push_back(&r);
        std::stable_sort(order.begin(), order.end(), [](const Roof* a, const Roof* b) { return a->run > b->run; });
        for (const Roof* r : order) {
          double w = line_w(r->label), y = f.to_in_y(r->flops);
          double right = area.x1 - 0.06, left_limit = f.to_in_x(r->x0);
          bool placed = false;
          for (double shift = 0; !placed && right - shift - w >= left_limit - 1e-9; shift += 0.25)
            for (double dy : {thick / 2 + 0.02 + line_h / 2, -(thick / 2 + 0.02 + line_h / 2)}) {
              double cx = right - shift - w / 2, cy = y + dy;
              std::vector<Box> b{{cx - w / 2, cy - line_h / 2, cx + w / 2, cy + line_h / 2}};
              if (!placer.fits(b)) continue;
              placer.take(b);
              L.line_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), 0, r->label});
              placed = true;
              break;
            }
          if (!placed) all = false;
        }
      }
      if (!all) continue;  // again, with the roofs' labels in the margin
    } else {
      // In the right margin, in the order of their roofs, pushed apart to a line each.
      struct MarginLabel {
        size_t h;
        const Roof* roof;
        double y;
      };
      std::vector<MarginLabel> ml;
      for (size_t h = 0; h < H; ++h)
        for (const Roof& r : roofs[h]) ml.push_back({h, &r, f.to_in_y(r.flops)});
      std::stable_sort(ml.begin(), ml.end(), [](const MarginLabel& a, const MarginLabel& b) { return a.y < b.y; });
      double gap = line_h * 1.1;
      for (size_t i = 1; i < ml.size(); ++i) ml[i].y = std::max(ml[i].y, ml[i - 1].y + gap);
      double top = f.height_in - f.top_in + line;
      for (size_t i = ml.size(); i-- > 0;) {
        double cap = i + 1 < ml.size() ? ml[i + 1].y - gap : top - line_h / 2;
        ml[i].y = std::min(ml[i].y, cap);
      }
      for (const MarginLabel& m : ml)
        L.margin_labels.push_back({m.h, f.to_in_y(m.roof->flops), m.y, m.roof->label});
    }
    // Diagonal labels: along the slope beside the line, nearest the middle first; else
    // on the line itself in an opaque box.
    for (size_t h = 0; h < H; ++h)
      for (const Diagonal& d : diags[h]) {  // DRAM first: it is the one the roofline model uses
        double ax = f.to_in_x(d.x0), ay = f.to_in_y(d.bandwidth * d.x0);
        double bx = f.to_in_x(d.x1), by = f.to_in_y(d.bandwidth * d.x1);
        double w = line_w(d.label);
        double a = angle * M_PI / 180, nx = -std::sin(a), ny = std::cos(a);
        double off = thick / 2 + 0.03 + line_h / 2;
        bool placed = false;
        for (double side : {1.0, -1.0, 0.0})
          for (double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9}) {
            if (placed) break;
            double cx = ax + t * (bx - ax) + side * off * nx, cy = ay + t * (by - ay) + side * off * ny;
            auto boxes = LabelPlacer::rotated_text(cx, cy, w, line_h, angle);
            if (!placer.fits(boxes)) continue;
            placer.take(boxes);
            (side == 0 ? L.boxed_labels : L.line_labels)[h].push_back({f.from_in_x(cx), f.from_in_y(cy), angle, d.label});
            placed = true;
          }
        // Nowhere free: on the line over points and lines, but clear of other labels;
        // as a last resort mid-way over whatever is there.
        for (double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9, -1.0}) {
          if (placed) break;
          double u = t < 0 ? 0.5 : t;
          double cx = ax + u * (bx - ax), cy = ay + u * (by - ay);
          auto boxes = LabelPlacer::rotated_text(cx, cy, w, line_h, angle);
          if (t >= 0 && !placer.fits(boxes, true)) continue;
          placer.take(boxes);
          L.boxed_labels[h].push_back({f.from_in_x(cx), f.from_in_y(cy), angle, d.label});
          placed = true;
        }
      }
    // Leader lines, from a marker's edge (radius r around x, y) to the nearest point of its label's box.
    auto add_leader = [&](double x, double y, double r, const Box& b) {
      double tx = std::clamp(x, b.x0, b.x1), ty = std::clamp(y, b.y0, b.y1);
      double dx = tx - x, dy = ty - y, len = std::hypot(dx, dy);
      if (len <= r) return;
      L.leaders += segment(f.from_in_x(x + dx / len * r), f.from_in_y(y + dy / len * r), f.from_in_x(tx), f.from_in_y(ty));
    };
    // The DRAM ridge point at the run's dtype, labelled with its intensity.
    for (size_t h = 0; h < H; ++h) {
      const HardwareSpec& hw = req.runs[h].hw;
      double rx = ridge_point(hw, dtype, 0), ry = *hw.peak(dtype) * hw.compute_efficiency;
      std::string text = "ridge " + si_label(rx, "FLOP/B");
      auto spot = placer.place_near(f.to_in_x(rx), f.to_in_y(ry), 0.05, line_w(text), line_h);
      if (!spot) continue;
      const Box& b = spot->box;
      L.line_labels[h].push_back({f.from_in_x((b.x0 + b.x1) / 2), f.from_in_y((b.y0 + b.y1) / 2), 0, text});
      if (spot->leader) add_leader(f.to_in_x(rx), f.to_in_y(ry), 0.05, b);
    }
    // The heaviest layers, over all hardware, by share of their run's time.
    std::vector<const Point*> heavy;
    for (const Point& p : points) heavy.push_back(&p);
    std::stable_sort(heavy.begin(), heavy.end(), [](const Point* a, const Point* b) { return a->share > b->share; });
    if (heavy.size() > static_cast<size_t>(req.labels)) heavy.resize(static_cast<size_t>(req.labels));
    for (const Point* p : heavy) {
      std::string text = req.model->layers[p->layer].name + " " + percent_label(p->share);
      double x = f.to_in_x(p->intensity), y = f.to_in_y(p->attained);
      auto spot = placer.place_near(x, y, p->r_in, style.text_width_in(text), text_h);
      if (!spot) continue;
      const Box& b = spot->box;
      L.layer_labels.push_back({f.from_in_x(b.x0), f.from_in_y((b.y0 + b.y1) / 2), 0, text});
      if (spot->leader) add_leader(x, y, p->r_in, b);
    }
    break;
  }
  const Frame& f = L.frame;

  // ---- the data file ----
  DataFile dat;
  dat.comment("ridge roofline plot data: " + std::to_string(H) + " hardware run(s); blocks are selected with `index N`");
  dat.comment("units: arithmetic intensity in FLOP/B, performance in FLOP/s, time in s");
  dat.comment("roofs and diagonals are at achievable values: peak x the descriptor's efficiency factors");
  dat.out() << "\n";
  struct Blocks {
    int run_roof, other_roofs, dram, other_levels, ridges, points, labels, boxed;
  };
  std::vector<Blocks> blocks(H);
  for (size_t h = 0; h < H; ++h) {
    const HardwareSpec& hw = req.runs[h].hw;
    const RunResult& t = req.runs[h].timing;
    std::string which = "hardware " + std::to_string(h + 1) + " of " + std::to_string(H);
    Blocks& b = blocks[h];
    b.run_roof = dat.begin_block(which + ": the roof of the run's dtype, x y (a segment)");
    for (const Roof& r : roofs[h])
      if (r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
    b.other_roofs = dat.begin_block(which + ": roofs of the other dtypes, x y (segments)");
    for (const Roof& r : roofs[h])
      if (!r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
    b.dram = dat.begin_block(which + ": DRAM diagonal (memory level 0), x y = bandwidth x intensity");
    const Diagonal& d0 = diags[h][0];
    dat.out() << segment(d0.x0, d0.bandwidth * d0.x0, d0.x1, d0.bandwidth * d0.x1);
    b.other_levels = dat.begin_block(which + ": diagonals of the nearer memory levels, x y (segments)");
    for (size_t m = 1; m < diags[h].size(); ++m) {
      const Diagonal& d = diags[h][m];
      dat.out() << segment(d.x0, d.bandwidth * d.x0, d.x1, d.bandwidth * d.x1);
    }
    b.ridges = dat.begin_block(which + ": ridge points at the run's dtype, one per memory level: x y level");
    for (size_t m = 0; m < hw.memory.size(); ++m)
      dat.out() << gp_number(ridge_point(hw, dtype, m)) << " " << gp_number(*hw.peak(dtype) * hw.compute_efficiency) << " "
                << m << "\n";
    b.points = dat.begin_block(which + ": layers: intensity attained share marker_size time_s layer_index bound name (" +
                               std::to_string(skipped[h]) + " layers without arithmetic or traffic left out)");
    dat.out() << data_string(hardware_title(hw), mk)
              << " \"attained\" \"share\" \"marker_size\" \"time_s\" \"layer_index\" \"bound\" \"name\"\n";
    for (const Point& p : points) {
      if (p.run != h) continue;
      const LayerResult& l = t.layers[p.layer];
      const std::string& bound = l.bound.label;
      dat.out() << gp_number(p.intensity) << " " << gp_number(p.attained) << " " << gp_number(p.share) << " "
                << gp_number(p.size) << " " << gp_number(l.timing.time_s) << " " << p.layer << " "
                << data_string(bound, mk) << " " << data_string(req.model->layers[p.layer].name, mk) << "\n";
    }
    b.labels = dat.begin_block(which + ": roof, bandwidth and ridge labels: x y text angle (centred)");
    write_texts(dat, L.line_labels[h], mk);
    b.boxed = dat.begin_block(which + ": bandwidth labels set on their line, in an opaque box: x y text angle");
    write_texts(dat, L.boxed_labels[h], mk);
  }
  int layer_block = dat.begin_block("labels of the heaviest layers: x y text angle (x: left edge, y: vertical centre)");
  write_texts(dat, L.layer_labels, mk);
  int leader_block = dat.begin_block("leader lines from markers to labels placed away from them, x y (segments)");
  dat.out() << L.leaders;

  // ---- the script ----
  const std::string image = stem + extension_of(style.format);
  const std::string data = stem + ".dat";
  std::ostringstream g;
  g << "# ridge roofline plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# The numbers are in the .dat file beside it; every name is read from there.\n\n";
  g << script_preamble(style, image) << "\n";
  g << "# ---- axes: log-log ----\n"
       "set logscale xy 10\n"
       "set xlabel 'Arithmetic intensity [FLOP/B]'\n"
       "set ylabel 'Attained performance'\n"
       "set format x '%g'\n"
       "set format y '%.0s %cFLOP/s'\n"
       "set xtics 10\nset ytics 10\nset mxtics 10\nset mytics 10\n";
  g << f.gnuplot_margins();
  g << header_band(style, title, key_texts).script;
  g << "set style fill transparent solid 0.45 noborder\n"
       "set style textbox opaque noborder margins 1,1\n";
  if (L.margin_roofs) {
    g << "# The roofs' labels, in the right margin (they hold no names from input files)\n";
    const Box area = f.plot_area();
    int n = 0;
    for (const MarginText& m : L.margin_labels) {
      std::string lt = std::to_string(m.run % kOkabeIto.size() + 1);
      g << "set label " << ++n << " " << gp_string(m.text, mk) << " at screen " << gp_number((area.x1 + 0.12) / f.width_in)
        << ", screen " << gp_number(m.y_in / f.height_in) << " left font '," << gp_number(style.font_size * kLineFont)
        << "' textcolor lt " << lt << "\n";
      g << "set arrow " << n << " from screen " << gp_number(area.x1 / f.width_in) << ", screen "
        << gp_number(m.roof_y_in / f.height_in) << " to screen " << gp_number((area.x1 + 0.1) / f.width_in) << ", screen "
        << gp_number(m.y_in / f.height_in) << " nohead lt " << lt << " lw 0.8\n";
    }
  }
  g << "\n";
  g << "data = " << gp_string(data, TextMarkup::plain) << "\n";
  std::string script = g.str();
  std::ostringstream p;
  p << "# Per hardware N (colour N): roofs (run's dtype solid, other dtypes dashed), diagonals\n"
       "# (DRAM solid, nearer levels dashed), ridge points, layers, then the labels.\n"
       "plot \\\n";
  std::vector<std::string> clauses;
  auto idx = [](int i) { return "data index " + std::to_string(i); };
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    std::string rgb = kOkabeIto[h % kOkabeIto.size()];
    clauses.push_back(idx(b.run_roof) + " using 1:2 with lines " + lt + " lw 2.5 notitle");
    if (roofs[h].size() > 1) clauses.push_back(idx(b.other_roofs) + " using 1:2 with lines " + lt + " lw 1 dt (5,4) notitle");
    clauses.push_back(idx(b.dram) + " using 1:2 with lines " + lt + " lw 2.5 notitle");
    if (diags[h].size() > 1) clauses.push_back(idx(b.other_levels) + " using 1:2 with lines " + lt + " lw 1 dt (5,4) notitle");
  }
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    std::string rgb = kOkabeIto[h % kOkabeIto.size()];
    // Filled translucent circles (#AARRGGBB: alpha 0x70) with an outline in the same colour.
    clauses.push_back(idx(b.points) + " using 1:2:4 with points pt 7 ps variable lc rgb '#70" + rgb.substr(1) + "' notitle");
    clauses.push_back(idx(b.points) + " using 1:2:4 with points pt 6 ps variable " + lt + " lw 0.8 " + (H > 1 ? "title columnheader(1)" : "notitle"));
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 13 ps 1.1 " + lt + " notitle");
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 12 ps 1.1 lc rgb '#222222' lw 0.8 notitle");
  }
  clauses.push_back("keyentry with points pt 6 ps 1.4 lc rgb '#555555' title 'marker area: time share'");
  const std::string line_font = " font '," + gp_number(style.font_size * kLineFont) + "'";
  for (size_t h = 0; h < H; ++h) {
    std::string tc = " tc lt " + std::to_string(h % kOkabeIto.size() + 1) + " notitle";
    if (!L.line_labels[h].empty())
      clauses.push_back(idx(blocks[h].labels) + " using 1:2:(stringcolumn(3)):4 with labels center rotate variable" + line_font + tc);
    if (!L.boxed_labels[h].empty())
      clauses.push_back(idx(blocks[h].boxed) + " using 1:2:(stringcolumn(3)):4 with labels center rotate variable boxed" + line_font + tc);
  }
  if (!L.leaders.empty()) clauses.push_back(idx(leader_block) + " using 1:2 with lines lc rgb '#777777' lw 0.7 notitle");
  if (!L.layer_labels.empty())
    clauses.push_back(idx(layer_block) + " using 1:2:(stringcolumn(3)) with labels left tc rgb '#222222' notitle");
  for (size_t i = 0; i < clauses.size(); ++i) p << "    " << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  script += "\n" + p.str();

  return make_bundle(style, stem, script, dat.str());
}

}  // namespace ridge::plots
