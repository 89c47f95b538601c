// One layer's bandwidth story (see layer_query.hpp).
#include "sim/engine/layer_query.hpp"

#include <algorithm>

#include "sim/base/close_names.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

namespace {

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

LayerWork work_at(const Model& model, RunSettings s, int64_t batch, int index) {
  s.batch = batch;
  return layer_work(model, analyze_costs(model, s))[static_cast<size_t>(index)];
}

// The first batch above `batch` at which the layer is compute-bound: doubling, then
// bisecting between the last memory-bound and the first compute-bound batch.
std::optional<int64_t> flip_batch(const Model& model, const RunSettings& s, const HardwareSpec& hw,
                                  const HardwareModel& m, int index, int64_t& searched_to) {
  auto memory_bound = [&](int64_t b) {
    bool bound = m.time_layer(work_at(model, s, b, index), hw, s.dtype).memory_bound();
    searched_to = std::max(searched_to, b);
    return bound;
  };
  int64_t lo = s.batch, hi = s.batch;
  try {
    do {
      lo = hi;
      hi = lo * 2;
      if (hi > kFlipBatchLimit) return std::nullopt;
    } while (memory_bound(hi));
  } catch (const InputError&) {  // a count overflows at this batch: search no further
    return std::nullopt;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (memory_bound(mid) ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

LayerQuery query_layer(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                       const HardwareModel& hw_model, const std::string& layer_name) {
  LayerQuery q;
  q.index = model.find(layer_name);
  if (q.index < 0)
    throw InputError({}, "no layer '" + layer_name + "' in " + model.name,
                     suggestion_hint(layer_name, model.layer_names()));
  check_dtype_supported(hw, settings.dtype);
  q.settings = settings;
  q.hardware_model = std::string(hw_model.name());
  LayerTimed& l = q.timed;
  l.work = work_at(model, settings, settings.batch, q.index);
  l.timing = hw_model.time_layer(l.work, hw, settings.dtype);
  double peak = *hw.peak(settings.dtype);
  l.attained_flops = ratio(l.work.flops, l.timing.time_s);
  l.peak_fraction = ratio(l.attained_flops, peak);
  l.arithmetic_intensity = ratio(l.work.flops, l.work.bytes());
  const LayerTiming& t = l.timing;

  q.level = t.bound_level;
  if (q.level < 0) {
    q.level = 0;
    for (size_t k = 0; k < t.level_s.size(); ++k)
      if (t.level_s[k] > t.level_s[static_cast<size_t>(q.level)]) q.level = static_cast<int>(k);
  }
  double available = hw.memory.empty() ? 0 : hw.memory[static_cast<size_t>(q.level)].bandwidth_Bps * hw.memory_efficiency;
  q.streams = {StreamNeed{"input", l.work.input_bytes, t.input_level, t.required_input_Bps, 0},
               StreamNeed{"output", l.work.output_bytes, t.output_level, t.required_output_Bps, 0},
               StreamNeed{"weights", l.work.weight_bytes, t.weight_level, t.required_weight_Bps, 0},
               StreamNeed{"KV cache", l.work.kv_bytes, t.kv_level, t.required_kv_Bps, 0}};
  for (StreamNeed& s : q.streams) {
    if (static_cast<size_t>(s.level) < hw.memory.size())
      s.available_Bps = hw.memory[static_cast<size_t>(s.level)].bandwidth_Bps * hw.memory_efficiency;
    if (s.level == q.level) {
      q.level_bytes += s.bytes;
      q.required_Bps += s.required_Bps;
    }
  }
  q.available_Bps = available;
  q.arithmetic_intensity = ratio(l.work.flops, q.level_bytes);
  q.ridge_point = ridge_point(hw, settings.dtype, static_cast<size_t>(q.level));

  LayerWork one = work_at(model, settings, 1, q.index), two = work_at(model, settings, 2, q.index);
  q.per_sample_intensity = ratio(two.flops - one.flops, (two.input_bytes + two.output_bytes + two.kv_bytes) -
                                                            (one.input_bytes + one.output_bytes + one.kv_bytes));
  if (t.memory_bound()) q.compute_bound_at_batch = flip_batch(model, settings, hw, hw_model, q.index, q.searched_to_batch);
  return q;
}

}  // namespace ridge
