// The roofline plot's scene (see roofline_scene.hpp): roofs, diagonals and points.
#include "plots/roofline_scene.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/base/data_paths.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots::roofline {

namespace {


// Marker size (gnuplot pointsize) for a share of the step time: area proportional
// to the share, never smaller than a dot.
double marker_size(double share) { return std::max(0.6, 6.0 * std::sqrt(share)); }
// Radius in inches of a pointtype-7 circle of that size (in every format).
double marker_radius_in(double size) { return size * kMarkerInPerSize / 2; }

// ---- phase 1: what to draw ----

std::vector<Roof> roofs_of(const HardwareSpec& hw, DType run_dtype) {
  std::map<double, Roof> by_peak;
  for (DType t : kAllDTypes) {
    auto p = hw.peak(t);
    if (!p) continue;
    double f = *p * hw.compute_fraction(t);
    Roof& r = by_peak.try_emplace(f, Roof{f, {}, false, "", 0, 0, ""}).first->second;
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
    r.short_label = r.run ? std::string(dtype_name(run_dtype)) + " " + si_label(f, run_dtype == DType::int8 ? "OP/s" : "FLOP/s") : r.label;
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
                   l.timing.time_s, 0, 0, l.bound.kind == Bound::Kind::overhead, ""});
  }
  for (Point& p : out) {
    p.size = marker_size(p.share);
    p.r_in = marker_radius_in(p.size);
  }
  return out;
}

// --parallel: the plan's link roofs join the run's diagonals and its collectives the
// points (roofline_plot.hpp says where a collective without FLOPs goes).
void add_parallel(const RooflineRequest& req, Scene& s) {
  if (req.link_roofs.empty() && req.collectives.empty()) return;
  Hardware& H = s.hw.front();
  for (const LinkRoof& l : req.link_roofs) {
    H.diags.push_back({l.bandwidth_Bps, l.label, 0, 0, l.role + " " + si_label(l.bandwidth_Bps, "B/s"), true});
    s.link_keys.push_back(l.role + ": " + l.label);
    s.x_lo = std::min(s.x_lo, H.run_flops / l.bandwidth_Bps);
    s.x_hi = std::max(s.x_hi, H.run_flops / l.bandwidth_Bps);
  }
  const double step = req.runs.front().timing.totals.timing.time_s;
  std::vector<std::pair<Point, double>> without_flops;  // with their attained link bandwidth
  for (const CollectiveWork& c : req.collectives) {
    if (!(c.time_s > 0) || !(c.link_bytes > 0)) continue;
    Point p{0, {}, c.name + " (" + c.link + ")", 0, 0, step > 0 ? c.time_s / step : 0, c.time_s, 0, 0, false, "link:" + c.link};
    if (c.flops > 0) {
      p.intensity = c.flops / c.link_bytes;
      p.attained = c.flops / c.time_s;
      s.x_lo = std::min(s.x_lo, p.intensity);
      s.y_lo = std::min(s.y_lo, p.attained);
      s.points.push_back(std::move(p));
    } else {
      p.name = c.name + " (" + c.link + ", 0 FLOP/B)";
      without_flops.emplace_back(std::move(p), c.link_bytes / c.time_s);
    }
  }
  const double x_edge = s.x_lo / 2;
  for (auto& [p, link_Bps] : without_flops) {
    p.intensity = x_edge;
    p.attained = x_edge * link_Bps;
    s.y_lo = std::min(s.y_lo, p.attained);
    s.points.push_back(std::move(p));
  }
  if (!without_flops.empty()) s.x_lo = x_edge;
  for (Point& p : s.points)
    if (!p.bound.empty()) {
      p.size = marker_size(std::min(1.0, p.share));
      p.r_in = marker_radius_in(p.size);
    }
}

}  // namespace

std::string hardware_title(const HardwareSpec& hw) { return hw.name.empty() ? hw.id : hw.name; }

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
  add_parallel(req, s);
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
  // A catalog device by its short id ("v100"); a descriptor file given by path by the
  // `name` it declares, not by its file name.
  return (names_a_file(run.hw.id) ? hardware_title(run.hw) : run.hw.id) + ": " + si_label(roof, "FLOP/s") + ", " + si_label(H.diags[0].bandwidth, "B/s");
}
// Whether a key entry fits the figure's width: gnuplot's key sample and its estimate of
// the text take about 0.8 in more than ours.
bool key_entry_fits(const PlotStyle& style, const std::string& text) {
  return style.text_width_in(text) * 1.25 + 0.8 <= style.width_in - 0.3;
}

}  // namespace ridge::plots::roofline
