// The whole-model bandwidth story (see model_query.hpp).
#include "sim/engine/model_query.hpp"

#include <algorithm>

#include "sim/base/ratio.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge {

ModelQuery query_model(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                       const HardwareModel& hw_model) {
  ModelQuery q;
  q.run = derive(model, analyze_costs(model, settings), hw, hw_model);
  const RunResult& run = q.run;
  const double step = run.totals.timing.time_s;
  double by_kind[5] = {0, 0, 0, 0, 0};  // Bound::Kind order: none, compute, memory, overhead, link
  q.levels.resize(hw.memory.size());
  for (size_t k = 0; k < hw.memory.size(); ++k) {
    q.levels[k].name = hw.memory[k].name;
    q.levels[k].peak_Bps = hw.memory[k].bandwidth_Bps;
    q.levels[k].time_s = run.totals.timing.level_s[k];
  }
  int biggest = -1;
  for (size_t i = 0; i < run.layers.size(); ++i) {
    const LayerResult& l = run.layers[i];
    by_kind[static_cast<int>(l.bound.kind)] += l.timing.time_s;
    for (const StreamResult& s : l.streams)
      if (s.bytes > 0) q.levels[static_cast<size_t>(s.level)].bytes += s.bytes;
    if (l.work.op_class == OpClass::linear && (biggest < 0 || l.work.weight_bytes > run.layers[static_cast<size_t>(biggest)].work.weight_bytes))
      biggest = static_cast<int>(i);
  }
  q.compute_share = ratio(by_kind[static_cast<int>(Bound::Kind::compute)], step);
  q.memory_share = ratio(by_kind[static_cast<int>(Bound::Kind::memory)], step);
  q.overhead_share = ratio(by_kind[static_cast<int>(Bound::Kind::overhead)], step);
  q.link_share = ratio(by_kind[static_cast<int>(Bound::Kind::link)], step);
  q.bandwidth_limited =
      q.memory_share > 0 && q.memory_share >= std::max({q.compute_share, q.overhead_share, q.link_share});
  for (size_t k = 0; k < q.levels.size(); ++k) {
    q.levels[k].achieved_Bps = ratio(q.levels[k].bytes, step);
    if (q.levels[k].time_s > q.levels[static_cast<size_t>(q.busiest_level)].time_s) q.busiest_level = static_cast<int>(k);
  }
  const int64_t per_sequence = settings.phase == Phase::prefill ? run.settings.seq : 1;
  q.tokens = static_cast<double>(settings.batch) * static_cast<double>(per_sequence);
  const LayerWork& w = run.totals.work;
  q.weight_bytes_per_token = w.weight_bytes / q.tokens;
  q.kv_bytes_per_token = w.kv_bytes / q.tokens;
  q.activation_bytes_per_token = (w.input_bytes + w.output_bytes) / q.tokens;
  if (biggest >= 0) q.biggest_linear = query_layer(model, settings, hw, hw_model, run.layers[static_cast<size_t>(biggest)].name);
  return q;
}

}  // namespace ridge
