// `ridge plot roofline`: a model's layers on one or more hardware rooflines, log-log:
// x = arithmetic intensity [FLOP/B], y = attained performance [FLOP/s].
//
// Per hardware (one Okabe-Ito colour each):
//   - one horizontal roof per distinct achievable peak (dtypes sharing a peak share a
//     roof: "fp16/bf16 312 TFLOP/s"); the run's dtype solid, the others dashed;
//   - one diagonal per memory level at its achievable bandwidth (DRAM solid, nearer
//     levels dashed), its label written along the slope;
//   - each diagonal rises to the roof of the run's dtype and stops there (Williams et
//     al. 2009; hierarchical rooflines as NERSC and Nsight Compute draw them); the other
//     dtypes' roofs are drawn lighter, from where the fastest level would meet them
//     (where the figure has room to name them);
//   - each level's ridge point at the run's dtype marked and labelled at its own corner;
//   - each layer a point at its roofline position (its arithmetic intensity, its FLOPs
//     over max(compute, memory) time: launch overhead and the host link aside), marker
//     area proportional to its share of the step time (launches included); a layer
//     whose bound is `overhead` (launches take most of its time) is a square, and the
//     key says so; repeated blocks at one spot are
//     one point ("encoder.*.ffn x12, 19%") unless `group` is off; the `labels`
//     heaviest labelled clear of each other, and a note says when fewer fit;
//   - with several hardware, each its own dash pattern and marker shape as well as
//     colour (print-safe). No label is set over a line or a point: one without a free
//     spot is left out, and a note says so.
// Achievable = peak x the descriptor's efficiency factors, as the hardware models use.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_spec.hpp"
#include "plots/gnuplot_runner.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_style.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"
#include "sim/engine/result.hpp"

namespace ridge::plots {

struct TimedHardware {
  HardwareSpec hw;
  RunResult timing;  // the model derived at the run's settings on `hw`
};

struct RooflineRequest {
  const Model* model = nullptr;
  RunSettings settings;
  std::vector<TimedHardware> runs;  // one or more, overlaid
  int labels = 8;                    // how many of the heaviest points to name
  bool group = true;                 // repeated blocks on one spot as one point
};

// The script (`stem`.gp) and data (`stem`.dat) drawing `stem` + the style's extension.
PlotBundle roofline_plot(const RooflineRequest& req, const PlotStyle& style, const std::string& stem);

// The placed scene in inches (plot area, label boxes, roofs and diagonals, markers), for
// tests that check no label crosses a line, a marker or another label.
struct RooflineGeometry {
  Box area;
  std::vector<std::vector<Box>> labels;  // each label as the boxes covering it
  struct Segment {
    double x0, y0, x1, y1;
  };
  std::vector<Segment> lines;  // roofs, diagonals, lines dropped from ridge points
  std::vector<Box> markers;    // each point's bounding square
};
RooflineGeometry roofline_geometry(const RooflineRequest& req, const PlotStyle& style);

// Columns of the points block of the .dat file (one row per layer that does work),
// so tests and authors can read it back, named by the layer schema's keys:
// 1 arithmetic_intensity [FLOP/B], 2 roofline_attained_flops [FLOP/s], 3 step_share,
// 4 marker size, 5 time_s, 6 layer index, 7 bound, 8 name (a group: its first layer's
// index and bound, its pattern and count as the name).
inline constexpr int kRooflinePointColumns = 8;

}  // namespace ridge::plots
