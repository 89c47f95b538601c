// Deriving every reported number once (see result.hpp).
#include "sim/engine/result.hpp"

#include <algorithm>
#include <limits>

#include "hw/attainable_rates.hpp"
#include "sim/base/error.hpp"
#include "sim/base/ratio.hpp"

namespace ridge {

Bound compute_bound() { return {Bound::Kind::compute, -1, "compute"}; }

Bound memory_bound_at(const HardwareSpec& hw, int level) {
  std::string name = level >= 0 && static_cast<size_t>(level) < hw.memory.size() ? hw.memory[static_cast<size_t>(level)].name
                                                                                   : "memory";
  return {Bound::Kind::memory, level, "memory:" + name};
}

Bound bound_of(const LayerTiming& t, const LayerWork& w, const HardwareSpec& hw) {
  if (w.kernels == 0 && t.time_s == 0) return Bound{};
  if (t.overhead_dominates()) return {Bound::Kind::overhead, -1, "overhead"};
  if (t.link_dominates()) return {Bound::Kind::link, -1, "link"};
  return t.memory_bound() ? memory_bound_at(hw, t.bound_level) : compute_bound();
}

void check_dtype_supported(const HardwareSpec& hw, DType dtype) {
  if (hw.peak(dtype)) return;
  std::string known;
  for (const auto& [t, peak] : hw.peak_flops) known += (known.empty() ? "" : ", ") + std::string(dtype_name(t));
  throw InputError({}, hw.id + " has no " + std::string(dtype_name(dtype)) + " peak",
                   known.empty() ? "its descriptor lists no [compute] peak" : "it computes in " + known + " (--dtype)");
}

namespace {

std::vector<int64_t> batched_shape(const Shape& per_sample, int64_t batch) {
  std::vector<int64_t> s{batch};
  s.insert(s.end(), per_sample.begin(), per_sample.end());
  return s;
}

LayerResult untimed_layer(const Layer& layer, const LayerCost& cost, const LayerWork& work, int64_t batch) {
  LayerResult r;
  r.name = layer.name;
  r.op = layer.op;
  r.output_shape = batched_shape(layer.output, batch);
  r.cost = cost;
  r.work = work;
  r.arithmetic_intensity = ratio(work.flops, work.bytes());
  return r;
}

// The timing-dependent fields of `r` (its work already set); step_share is set by the caller.
void add_timing(LayerResult& r, const LayerTiming& t, const HardwareSpec& hw, DType dtype, double peak) {
  r.timed = true;
  r.timing = t;
  r.bound = bound_of(t, r.work, hw);
  // Rates and intensities count the FLOPs the layer's kernel runs: a convolution a [conv_algorithms] rule
  // times as Winograd runs fewer multiplies than its direct count, and is placed under the roof it is timed by.
  r.executed_flops = r.work.flops * kernel_choice(r.work, hw, dtype).multiplies;
  r.attained_flops = ratio(r.executed_flops, t.time_s);
  r.roofline_attained_flops = ratio(r.executed_flops, t.roof_s());
  // Memory time not hidden under compute (all of it where the two do not overlap).
  r.exposed_memory_s = t.overlapped ? std::max(0.0, t.memory_s - t.compute_s) : t.memory_s;
  r.peak_fraction = ratio(r.attained_flops, peak);
  r.streams = {StreamResult{"input", r.work.input_bytes, t.input_level, "", t.required_input_Bps, 0},
               StreamResult{"output", r.work.output_bytes, t.output_level, "", t.required_output_Bps, 0},
               StreamResult{"weights", r.work.weight_bytes, t.weight_level, "", t.required_weight_Bps, 0},
               StreamResult{"kv", r.work.kv_bytes, t.kv_level, "", t.required_kv_Bps, 0}};
  // A calibrated layer attains its class's bandwidth and compute rate (hw/attainable_rates.hpp), as its timing does.
  const ClassEfficiency* cal = calibrated(r.work, hw, dtype);
  r.calibrated = cal != nullptr;
  for (StreamResult& s : r.streams) {
    s.available_Bps = attainable_level_Bps(hw, s.level, cal);
    if (static_cast<size_t>(s.level) < hw.memory.size()) s.level_name = hw.memory[static_cast<size_t>(s.level)].name;
  }
  // What each level serves, as the model placed it (a stream may be split over levels).
  std::vector<double> level_bytes = t.level_bytes;
  level_bytes.resize(hw.memory.size(), 0.0);
  r.required_Bps = t.required_Bps();
  // The level in question: the binding one, else the one with the longest traffic time.
  int level = t.bound_level;
  if (level < 0) {
    level = 0;
    for (size_t k = 0; k < t.level_s.size(); ++k)
      if (t.level_s[k] > t.level_s[static_cast<size_t>(level)]) level = static_cast<int>(k);
  }
  r.intensity_level = level;
  r.intensity_by_level.assign(hw.memory.size(), 0.0);
  for (size_t k = 0; k < hw.memory.size(); ++k) r.intensity_by_level[k] = ratio(r.executed_flops, level_bytes[k]);
  r.arithmetic_intensity = hw.memory.empty() ? ratio(r.executed_flops, r.work.bytes())
                                             : r.intensity_by_level[static_cast<size_t>(level)];
  for (const StreamResult& s : r.streams)
    if (s.level == level) {
      r.level_bytes += s.bytes;
      r.required_level_Bps += s.required_Bps;
    }
  // A stream the model split over levels (hierarchical) is not whole at any: the level's own bytes.
  if (!hw.memory.empty() && r.level_bytes != level_bytes[static_cast<size_t>(level)]) {
    r.streams_split = true;
    r.level_bytes = level_bytes[static_cast<size_t>(level)];
    r.required_level_Bps = r.level_bytes <= 0      ? 0
                           : t.compute_s > 0 ? r.level_bytes / t.compute_s
                                             : std::numeric_limits<double>::infinity();
  }
  r.available_level_Bps = attainable_level_Bps(hw, level, cal);
  r.ridge_point = layer_ridge_point(r.work, hw, dtype, level);
}

void add_work(LayerWork& sum, const LayerWork& w) {
  sum.flops += w.flops;
  sum.epilogue_flops += w.epilogue_flops;
  sum.input_bytes += w.input_bytes;
  sum.output_bytes += w.output_bytes;
  sum.weight_bytes += w.weight_bytes;
  sum.kv_bytes += w.kv_bytes;
  sum.dequant_weights += w.dequant_weights;
  sum.link_bytes += w.link_bytes;
  sum.kernels += w.kernels;
}

void add_times(LayerTiming& sum, const LayerTiming& t) {
  sum.compute_s += t.compute_s;
  if (sum.level_s.size() < t.level_s.size()) sum.level_s.resize(t.level_s.size(), 0.0);
  for (size_t k = 0; k < t.level_s.size(); ++k) sum.level_s[k] += t.level_s[k];
  sum.memory_s += t.memory_s;
  sum.link_s += t.link_s;
  sum.overhead_s += t.overhead_s;
  sum.dequant_s += t.dequant_s;
  sum.time_s += t.time_s;
}

RunResult derive_untimed(const Model& model, const CostAnalysis& costs, const std::vector<LayerWork>& work) {
  RunResult r;
  r.model = model.name;
  r.model_notes = model.notes;
  r.settings = costs.settings;
  r.totals.is_total = true;
  r.totals.name = "total";
  r.totals.cost = costs.totals;
  r.totals.work.kernels = 0;  // a sum: starts from no launches
  r.layers.reserve(model.layers.size());
  for (size_t i = 0; i < model.layers.size(); ++i) {
    r.layers.push_back(untimed_layer(model.layers[i], costs.layers[i], work[i], costs.settings.batch));
    add_work(r.totals.work, work[i]);
  }
  r.totals.arithmetic_intensity = ratio(r.totals.work.flops, r.totals.work.bytes());
  return r;
}

}  // namespace

RunResult derive(const Model& model, const CostAnalysis& costs) {
  return derive_untimed(model, costs, layer_work(model, costs));
}

RunResult derive(const Model& model, const CostAnalysis& costs, const HardwareSpec& hw, const HardwareModel& hw_model) {
  const DType dtype = costs.settings.dtype;
  check_dtype_supported(hw, dtype);
  std::vector<LayerWork> work = layer_work(model, costs);
  RunResult r = derive_untimed(model, costs, work);
  HardwareContext ctx{hw, std::string(hw_model.name()), *hw.peak(dtype), {}};
  for (size_t k = 0; k < hw.memory.size(); ++k) ctx.ridge_points.push_back(ridge_point(hw, dtype, k));
  LayerTiming& sum = r.totals.timing;
  sum.level_s.assign(hw.memory.size(), 0.0);
  double memory_bound_s = 0;
  for (LayerResult& l : r.layers) {
    add_timing(l, hw_model.time_layer(l.work, hw, dtype), hw, dtype, ctx.peak_flops);
    add_times(sum, l.timing);
    if (l.bound.kind == Bound::Kind::memory) memory_bound_s += l.timing.time_s;
  }
  for (LayerResult& l : r.layers) l.step_share = ratio(l.timing.time_s, sum.time_s);
  LayerResult& tot = r.totals;
  tot.timed = true;
  tot.attained_flops = ratio(tot.work.flops, sum.time_s);
  tot.peak_fraction = ratio(tot.attained_flops, ctx.peak_flops);
  tot.step_share = sum.time_s > 0 ? 1.0 : 0.0;
  r.samples_per_s = ratio(static_cast<double>(costs.settings.batch), sum.time_s);
  r.memory_bound_share = ratio(memory_bound_s, sum.time_s);
  if (has_energy_model(hw)) {
    std::vector<double> level_bytes(hw.memory.size(), 0.0);
    for (const LayerResult& l : r.layers)
      for (size_t k = 0; k < level_bytes.size() && k < l.timing.level_bytes.size(); ++k) level_bytes[k] += l.timing.level_bytes[k];
    r.energy = step_energy(hw, dtype, tot.work.flops, level_bytes, sum.time_s, sum.overhead_s);
    r.joules_per_sample = ratio(r.energy->total_J, static_cast<double>(costs.settings.batch));
  }
  r.hardware = std::move(ctx);
  return r;
}

}  // namespace ridge
