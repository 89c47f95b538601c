// Tensor- and pipeline-parallel serving communication (see serving_communication.hpp).
#include "sim/parallel/serving_communication.hpp"

#include "sim/base/ratio.hpp"

namespace ridge {

ServingCommunication serving_communication(const SystemSpec& system, int64_t tp, int64_t pp, const TransformerParams& shape,
                                           int64_t batch, int64_t prompt, double element_bytes) {
  GroupPlacement tpg = place_group(system, tp, 1);
  GroupPlacement ppg = place_group(system, pp, tp);
  const double token = static_cast<double>(shape.hidden) * element_bytes * static_cast<double>(batch);
  const double all_reduces = 2 * static_cast<double>(shape.layers), sends = static_cast<double>(pp - 1);
  auto step = [&](double tokens, CollectiveCost* ar) {
    CollectiveCost c = collective_cost(system, CollectiveOp::all_reduce, token * tokens, tpg);
    if (ar) *ar = c;
    double t = all_reduces * c.time_s;
    if (pp > 1) t += sends * collective_cost(system, CollectiveOp::send_recv, token * tokens, ppg).time_s;
    return t;
  };
  ServingCommunication out;
  out.prefill_s = step(static_cast<double>(prompt), nullptr);
  out.decode_step_s = step(1, &out.decode_all_reduce);
  return out;
}

void add_serving_communication(GenerationResult& g, const ServingCommunication& c, int64_t tp, int64_t pp) {
  const double memory_bound_s = g.memory_bound_share * g.total_s;
  const double prefill_memory_bound_s = g.prefill_memory_bound_share * g.ttft_s;
  const double decode_memory_bound_s = g.decode_memory_bound_share * g.decode_s;
  g.tp = tp;
  g.pp = pp;
  g.prefill_communication_s = c.prefill_s;
  g.decode_step_communication_s = c.decode_step_s;
  g.ttft_s += c.prefill_s;
  g.prefill_memory_bound_share = ratio(prefill_memory_bound_s, g.ttft_s);
  if (g.decode_steps > 0) {
    const double steps = static_cast<double>(g.decode_steps);
    g.decode_s += steps * c.decode_step_s;
    g.tpot_s = g.decode_s / steps;
    g.step_at_mean_context_s += c.decode_step_s;
    g.decode_tokens_per_s = ratio(static_cast<double>(g.batch) * steps, g.decode_s);
    g.decode_memory_bound_share = ratio(decode_memory_bound_s, g.decode_s);
  }
  g.total_s = g.ttft_s + g.decode_s;
  g.tokens_per_s = ratio(static_cast<double>(g.batch * g.gen), g.total_s);
  g.memory_bound_share = ratio(memory_bound_s, g.total_s);
  if (g.energy_J) g.average_power_w = ratio(*g.energy_J, g.total_s);
  g.kv_cache_bytes /= pp;
}

}  // namespace ridge
