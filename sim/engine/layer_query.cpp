// One layer's bandwidth story (see layer_query.hpp).
#include "sim/engine/layer_query.hpp"

#include <algorithm>

#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"
#include "sim/base/ratio.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

namespace {

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
  q.model = model.name;
  q.settings = settings;
  q.hardware_model = std::string(hw_model.name());
  // The layer as the whole run derives it, so its share of the step is known too.
  q.layer = derive(model, analyze_costs(model, settings), hw, hw_model).layers[static_cast<size_t>(q.index)];
  LayerWork one = work_at(model, settings, 1, q.index), two = work_at(model, settings, 2, q.index);
  q.per_sample_intensity = ratio(two.flops - one.flops,
                                 (two.input_bytes + two.output_bytes) - (one.input_bytes + one.output_bytes));
  if (q.layer.timing.memory_bound())
    q.compute_bound_at_batch = flip_batch(model, settings, hw, hw_model, q.index, q.searched_to_batch);
  return q;
}

}  // namespace ridge
