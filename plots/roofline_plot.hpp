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
//   - with a parallel plan (one hardware, the system's device): one more diagonal per
//     network level the plan's collectives cross, at its achievable bandwidth (the
//     system descriptor's bandwidth x efficiency), labelled like a memory level where
//     there is room (else by its role, "scale-up 234 GB/s"), each link its own dash pattern,
//     and named in the key ("scale-up: NVLink 3 / NVSwitch 234 GB/s"); and
//     each collective a point: x = its FLOPs per byte over the link
//     (collective_intensity.hpp: an all-reduce 1 / (2 x element bytes)), y = FLOPs /
//     time, so its distance under its link's diagonal is the share of the link's
//     achievable bandwidth it attains. A collective without FLOPs (all-gather,
//     send/recv, all-to-all) has no place on a log x axis: it is drawn at the smallest
//     intensity of the rest of the plot, halved, at y = that intensity x its attained
//     link bandwidth, so it reads the same way, and its name says "0 FLOP/B";
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

// A collective of a parallel plan as one device runs it (plot roofline / layers --parallel),
// for one microbatch: the plan's per-iteration count x time over the microbatches.
struct CollectiveWork {
  std::string name;        // "tp all_reduce forward"
  std::string link;        // the level it crosses: "scale_up", "scale_out", "scale_up+scale_out"
  double time_s = 0;
  double flops = 0;        // the reduction's additions; 0 for gathers, all-to-all, send/recv
  double link_bytes = 0;   // bytes x the bus-bandwidth factor (collective_intensity.hpp)
};

// A network level the plan's collectives use, drawn as a diagonal at its achievable
// bandwidth: "NVLink 3 / NVSwitch 234 GB/s".
struct LinkRoof {
  std::string label;
  double bandwidth_Bps = 0;
  std::string role = "link";  // "scale-up", "scale-out": by its line where the label finds no room ("scale-up 234 GB/s")
};

struct RooflineRequest {
  const Model* model = nullptr;
  RunSettings settings;
  std::vector<TimedHardware> runs;  // one or more, overlaid
  int labels = 8;                    // how many of the heaviest points to name
  bool group = true;                 // repeated blocks on one spot as one point
  // --parallel (one run): the plan ("tp8 pp1 dp1 mb1"), its link roofs and collectives
  // (initialised here, so that a request without them needs no empty braces).
  std::string plan = {};
  std::vector<LinkRoof> link_roofs = {};
  std::vector<CollectiveWork> collectives = {};
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
    size_t hw = 0;  // the hardware (of an overlay) whose line or point's leader it is
  };
  std::vector<Segment> lines;  // roofs, diagonals, lines dropped from ridge points
  std::vector<Box> markers;    // each point's bounding square
  std::vector<Segment> leaders;  // from a marker's edge to its label placed away from it
};
RooflineGeometry roofline_geometry(const RooflineRequest& req, const PlotStyle& style);

// Columns of the points block of the .dat file (one row per layer that does work),
// so tests and authors can read it back, named by the layer schema's keys:
// 1 arithmetic_intensity [FLOP/B], 2 roofline_attained_flops [FLOP/s], 3 step_share,
// 4 marker size, 5 time_s, 6 layer index, 7 bound, 8 name (a group: its first layer's
// index and bound, its pattern and count as the name).
inline constexpr int kRooflinePointColumns = 8;

}  // namespace ridge::plots
