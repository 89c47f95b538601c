// The sweep driver: a sweep file's cartesian product (models x hardware x hw_model x
// [[vary]] values x phase x dtype x optimizer x context x seq x batch), evaluated in parallel.
//
// A [[vary]] key "model.NAME" sets a model parameter: each model is then loaded once
// per combination of the model keys' values (a model variant), and a hardware point
// carries which variant it goes with; hardware keys build the spec as before.
//
// Everything is prepared once: each model (variant) is loaded once, each descriptor parsed once
// and a HardwareSpec built per [[vary]] combination (HardwareDescriptor::spec). Work is
// grouped by (model, phase, dtype, optimizer, context, seq, batch): a group runs analyze_costs and
// layer_work once, packs the work as struct-of-arrays, and times it against every
// hardware point through HardwareModel::time_layers (vectorised where the model
// overrides it). Results are stored by point index, so output does not depend on the
// number of threads.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/engine/result.hpp"
#include "sim/engine/sweep_memory.hpp"

namespace ridge {

// One descriptor with one combination of [[vary]] values applied.
struct SweepHardwarePoint {
  size_t hardware = 0;        // index into SweepFile::hardware
  std::vector<size_t> value;  // per [[vary]], the index of its value
  size_t model_combo = 0;     // which combination of the model.* [[vary]] values
  HardwareSpec spec;
};

// Where a point sits in each list.
struct SweepCoords {
  size_t model = 0;      // index into SweepFile::models
  size_t variant = 0;    // index into SweepPlan::models: the model with this point's params
  size_t hw_point = 0;  // index into SweepPlan::hw_points
  size_t hw_model = 0;
  Phase phase = Phase::inference;
  DType dtype = DType::fp32;
  Optimizer optimizer = Optimizer::adam;
  std::optional<DType> kv_dtype;  // nothing: the dtype's
  WeightFormat weight_format = WeightFormat::same;
  LaunchOverhead overhead = LaunchOverhead::per_kernel;
  int64_t context = 0;  // decode: tokens in the KV cache
  int64_t seq = 0;      // prefill: prompt tokens per sequence (0: the model file's input length)
  size_t seq_index = 0; // into SweepFile::seqs
  int64_t batch = 1;
  size_t group = 0;  // index of its (model variant, phase, dtype, optimizer, serving choices, context, seq, batch) group
};

struct SweepPlan {
  SweepFile file;
  // Per file.models entry, one model per combination of model.* [[vary]] values
  // (model * model_combos + combo); one each without such keys.
  std::vector<Model> models;
  size_t model_combos = 1;
  std::vector<Model> decode_models;  // parallel to models: the same read at one token, when the sweep decodes
  // With a seq list: per model variant and seq (variant * seqs + i), the model read at that length.
  std::vector<Model> seq_models;
  std::vector<SweepHardwarePoint> hw_points;   // hardware-major, then [[vary]] combinations
  // Per hw point and hw_model entry (hw_point * hw_models + i): the model used.
  std::vector<const HardwareModel*> hw_model_of;

  size_t point_count() const { return file.point_count(); }
  size_t group_count() const;
  // The point at `index` (row order: model, hardware, hw_model, [[vary]]..., phase,
  // dtype, optimizer, context, seq, batch; the last varies fastest).
  SweepCoords coords(size_t index) const;
  size_t index(size_t model, size_t hw_point, size_t hw_model, size_t group_rest) const;
};

// Loads models and descriptors and builds every hardware point. Errors (unknown
// model, hardware or key, a bad [[vary]] value) are InputErrors located in the sweep file.
SweepPlan plan_sweep(SweepFile file);
// Points per (model, hw point, hw model) block: the product of the group dimensions'
// lengths (phase, dtype, optimizer, serving choices, context, seq, batch).
size_t group_block(const SweepFile& f);

// Whether a point ran, and if not why (`reason` says it in words).
enum class PointStatus { ok, unsupported, does_not_fit, error };

struct SweepPointResult {
  PointStatus status = PointStatus::ok;
  std::string reason;         // why the point did not run ("v100 has no bf16 peak"); empty when ok
  std::string hw_model;       // the hardware model's name
  double peak_flops = 0;      // nominal peak at the point's dtype
  double flops = 0;           // timed FLOPs per step
  double bytes = 0;
  TimingSums sums;
  PointMemory memory;
  LayerTimingArrays layers;   // per layer, with per_layer only
  // Derived once, when the point ran.
  double samples_per_s = 0;        // batch / step time
  double memory_bound_share = 0;   // share of the step in memory-bound layers
  double attained_flops = 0;       // flops / step time
  double peak_fraction = 0;        // attained / nominal peak
  // With the descriptor's [power] / [price] (hw/energy_model, sim/engine/cost_of_use): the
  // step's energy per sample and average power; cost per hour (launch price over one year
  // of full use + electricity at the default price) and samples per dollar.
  std::optional<double> joules_per_sample;
  std::optional<double> average_power_w;
  std::optional<double> usd_per_hour;
  std::optional<double> samples_per_usd;
  // The point's bound: whatever takes more than half the step (memory, overhead, link), else compute.
  Bound::Kind bound = Bound::Kind::none;

  bool ok() const { return status == PointStatus::ok; }
  // "ok", or the status and its reason: "unsupported: v100 has no bf16 peak".
  std::string status_text() const;
  // "memory", "compute", or empty when the point did not run.
  std::string bound_text() const;
};

struct SweepRunOptions {
  unsigned jobs = 1;
  bool per_layer = false;
  const std::atomic<bool>* cancel = nullptr;  // set (by a signal handler): stop soon
  std::atomic<size_t>* done = nullptr;        // points finished so far (progress)
};

struct SweepResult {
  std::vector<SweepPointResult> points;       // by point index
  std::vector<LayerWorkArrays> group_work;    // by group, with per_layer only
  bool cancelled = false;
};

// The most rows --per-layer may produce (points x layers): 2.6 KB per row measured
// (resnet50 at 2,000 batches, 295k rows, reached 766 MB), about 2.6 GB at the limit;
// configs/sweeps/full-zoo.toml with --per-layer is 502,876 rows.
constexpr size_t kMaxSweepLayerRows = 1'000'000;

// Runs every point; --per-layer beyond kMaxSweepLayerRows is an InputError before any work.
SweepResult run_sweep(const SweepPlan& plan, const SweepRunOptions& options);

}  // namespace ridge
