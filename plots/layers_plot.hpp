// `ridge plot layers`: where the step's time goes, as horizontal stacked bars, heaviest
// at the top, each named in full. A bar is a layer, or with grouping a block (the name
// up to its first all-digit part: "encoder.layer.3") or an op type ("linear"); the
// `top` heaviest bars are drawn and the rest summed into one "other" bar, so a 321-layer
// transformer reads as well as AlexNet. Each bar's parts add up to its time, as the
// hardware models compute it (time = max(compute, memory) + link + launch):
//   compute          the compute time, flops / achievable peak;
//   exposed memory   the memory time not hidden under compute, max(0, memory - compute);
//   link             host-link transfer (with --data-on host);
//   launch           kernel-launch overhead.
// With a transformer's parallel plan, the bars are the parts of one device's training
// iteration (sim/parallel/iteration_parts.hpp): the layers of its pipeline stage over
// the iteration's microbatches, each collective on the critical path ("tp all_reduce
// forward (scale_up)", link time: the key's "collectives"), the exposed data-parallel
// reduction, the pipeline bubble (idle) and the optimizer step; they add up to the
// iteration time of `ridge analyze --parallel`, which the title gives. With data
// parallelism of any other model, the bars are one replica's training step and its
// gradient all-reduce a bar of its own.
// A symbol after each bar marks its bound, as the Result stage gives it: a square for
// compute-bound, a triangle for memory-bound, a circle in the launch colour for
// launch-overhead-bound (most of its time is kernel launches, whatever its roofline
// says), a diamond in the link colour for link-bound; none for a bar that takes no
// time, nor for "other" (a group: the bound of most of its time; the level is in the
// .dat file).
#pragma once

#include <string>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/parallel/iteration_parts.hpp"

namespace ridge::plots {

// automatic: per layer, or per block where per-layer bars would leave over half the
// step in "other" (see layers_plot).
enum class LayerGrouping { none, block, op, automatic };
// "auto", "none", "block", "op"; anything else is an InputError naming the four.
LayerGrouping parse_layer_grouping(const std::string& text);

// The block a layer belongs to: its name up to and including the first all-digit
// part ("encoder.layer.3.attention.self.query" -> "encoder.layer.3"), else its first
// part ("embeddings.word" -> "embeddings"), else the whole name.
std::string block_of(const std::string& layer_name);

struct LayersRequest {
  const Model* model = nullptr;
  RunSettings settings;
  TimedHardware run;
  LayerGrouping group = LayerGrouping::automatic;
  size_t top = 25;  // bars drawn; the rest go into "other"
  // --parallel: the plan ("tp8 pp1 dp1 mb1") and its collectives, each a bar of its own
  // (never folded into "other"), all link time, bound `link:<level>`.
  std::string plan = {};
  std::vector<CollectiveWork> collectives = {};
  // A transformer's plan: the iteration's parts, drawn instead of `run`'s layers, the
  // title's time their sum (the iteration time); `microbatches` per iteration.
  std::vector<IterationPart> parts = {};
  int64_t microbatches = 0;
};

PlotBundle layers_plot(const LayersRequest& req, const PlotStyle& style, const std::string& stem);

// Columns of the .dat file's bars block, one row per bar from the top: 1 position,
// 2 compute_time_s, 3 exposed_memory_s, 4 link_time_s, 5 overhead_time_s, 6 time_s,
// 7 bound code (0 compute, 1 memory, 2 overhead, 3 link, -1 none: no time, or "other"),
// 8 name, 9 layers in the bar, 10 bound (the schema's label, "mixed" for a group that differs),
// 11 shown name, 12 idle_time_s (the pipeline bubble's; 0 elsewhere).
inline constexpr int kLayersColumns = 12;

}  // namespace ridge::plots
