// The Result stage: one `derive` step computes, per layer and per run, every number a
// view shows (counts, times, the bound, arithmetic intensity, attained FLOP/s, share of
// peak and of the step, the bandwidth each stream needs). Views and plots only format a
// RunResult; they never compute a number, so table, CSV, JSON, Markdown and plot data
// cannot disagree.
//
// Arithmetic intensity has one definition (docs/reference/counting-conventions.md): the FLOPs the
// compute units are timed for (a conv / linear bias add runs in the fused epilogue and
// is not timed) over the bytes a memory level serves, forward (+ backward + update in
// training). A layer's `arithmetic_intensity` is taken at its level in question: the
// binding level when it is memory-bound, else the level with the longest traffic time;
// without hardware, every byte counts (as the roofline model's DRAM sees them).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "hw/attainable_rates.hpp"  // ridge_point: the device's, per level
#include "hw/energy_model.hpp"
#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

// What limits a layer (or a sweep point): nothing (it does no work), compute, the
// memory level `level`, kernel launches (overhead: launches take more than compute,
// memory and link together) or the host link (likewise). `label` is the one spelling
// every view uses: "-", "compute", "memory:<level name>", "overhead", "link".
struct Bound {
  enum class Kind { none, compute, memory, overhead, link } kind = Kind::none;
  int level = -1;  // the memory level when kind == memory
  std::string label = "-";
};
Bound compute_bound();
Bound memory_bound_at(const HardwareSpec& hw, int level);
// The bound of a timed layer: none when it does no work and takes no time.
Bound bound_of(const LayerTiming& t, const LayerWork& w, const HardwareSpec& hw);

// One tensor stream of a timed layer (input, output, weights, and the KV cache a
// prefill or decode step reads and writes).
struct StreamResult {
  const char* tensor = "";   // "input", "output", "weights", "kv"
  double bytes = 0;          // over the step (forward, + backward + update in training)
  int level = 0;             // the memory level serving it
  std::string level_name;
  double required_Bps = 0;   // bytes / compute time: what keeps the layer compute-bound
  double available_Bps = 0;  // that level's attainable bandwidth for this layer (hw/attainable_rates.hpp)
};

// Everything reported of one layer; for the run's totals row, the same fields summed
// (per-layer-only fields stay empty: no op, no shape, no bound, no needed bandwidth).
struct LayerResult {
  bool is_total = false;
  std::string name;
  std::string op;
  std::vector<int64_t> output_shape;  // batch first
  LayerCost cost;                     // hardware-independent counts at the run's batch and dtype
  LayerWork work;                     // what the hardware is asked to do
  double arithmetic_intensity = 0;    // timed FLOPs / bytes at the level in question (0: nothing moves)

  // With hardware only.
  bool timed = false;
  LayerTiming timing;
  Bound bound;
  double executed_flops = 0;                // the FLOPs its kernel runs: work.flops, fewer for a convolution a
                                            // [conv_algorithms] rule times as Winograd (the timed FLOPs below)
  int intensity_level = 0;                  // the level in question
  std::vector<double> intensity_by_level;   // timed FLOPs / bytes each level serves (0 where none)
  double attained_flops = 0;                // timed FLOPs / time
  double roofline_attained_flops = 0;       // timed FLOPs / LayerTiming::roof_s(): the roofline's own
                                            // position, launches and the host link aside
  double exposed_memory_s = 0;              // memory time compute does not hide: max(0, memory - compute)
                                            // (all of it for a class whose compute and memory add)
  double peak_fraction = 0;                 // attained / nominal peak at the dtype, 0..1
  double step_share = 0;                    // time / step time, 0..1
  std::array<StreamResult, 4> streams;      // input, output, weights, kv
  double required_Bps = 0;                  // all streams' bytes / compute time
  double level_bytes = 0;                   // bytes the level in question serves
  double required_level_Bps = 0;            // the streams at the level in question
  // The model split the activations over levels (hierarchical: they fit a cache only in
  // part), so the level in question serves a share of them, not whole streams.
  bool streams_split = false;
  double available_level_Bps = 0;           // that level's attainable bandwidth for this layer (its class's, if calibrated)
  double ridge_point = 0;                   // this layer's, at the level in question, FLOP/B (its class's, if calibrated)
  // The descriptor's [calibration] has a fit for this layer's op class at the run's dtype;
  // false on a calibrated descriptor means the layer runs at the pure roofline.
  bool calibrated = false;
};

// The hardware a run was timed on, as reports describe it.
struct HardwareContext {
  HardwareSpec spec;
  std::string hardware_model;         // registry name ("roofline")
  double peak_flops = 0;              // nominal peak at the run's dtype
  std::vector<double> ridge_points;   // the device's per memory level, at the run's dtype ([efficiency], not per class)
};

struct RunResult {
  std::string model;
  std::vector<std::string> model_notes;  // Model::notes, shown in the report's header
  RunSettings settings;
  std::optional<HardwareContext> hardware;
  std::vector<LayerResult> layers;  // parallel to Model::layers
  LayerResult totals;
  // With hardware only.
  double samples_per_s = 0;        // batch / step time
  double memory_bound_share = 0;   // share of the step time spent in memory-bound layers, 0..1
  // With hardware whose descriptor gives [power] (hw/energy_model.hpp): the step's energy.
  std::optional<StepEnergy> energy;
  double joules_per_sample = 0;    // energy->total_J / batch
};

// Costs only (analyze without --hw).
RunResult derive(const Model& model, const CostAnalysis& costs);
// Costs timed on `hw` with `hw_model`. Throws InputError when `hw` lacks the run's dtype.
RunResult derive(const Model& model, const CostAnalysis& costs, const HardwareSpec& hw, const HardwareModel& hw_model);

// Throws InputError ("v100 has no fp8 peak") when `hw` does not support `dtype`.
void check_dtype_supported(const HardwareSpec& hw, DType dtype);

}  // namespace ridge
