// Tensor-, pipeline- and expert-parallel serving communication (see serving_communication.hpp).
#include "sim/parallel/serving_communication.hpp"

#include "sim/base/ratio.hpp"

namespace ridge {

ServingCommunication serving_communication(const SystemSpec& system, const ParallelPlan& plan, const TransformerParams& shape,
                                           int64_t batch, int64_t prompt, double element_bytes) {
  GroupPlacement tpg = place_group(system, plan.tp, 1);
  GroupPlacement ppg = place_group(system, plan.pp, plan.tp * plan.dp);
  GroupPlacement epg = place_group(system, plan.ep, plan.tp);
  const double token = static_cast<double>(shape.hidden) * element_bytes * static_cast<double>(batch);
  const double layers = static_cast<double>(shape.layers), sends = static_cast<double>(plan.pp - 1);
  const bool experts = plan.ep > 1 && shape.mixture_of_experts();
  auto step = [&](double tokens, ServingCommunication* out) {
    CollectiveCost ar = collective_cost(system, CollectiveOp::all_reduce, token * tokens, tpg);
    double t = 2 * layers * ar.time_s;
    if (plan.pp > 1) t += sends * collective_cost(system, CollectiveOp::send_recv, token * tokens, ppg).time_s;
    CollectiveCost a2a;
    if (experts) {
      // The busiest rank (--expert-imbalance F) receives and returns F x the mean's pairs.
      a2a = collective_cost(system, CollectiveOp::all_to_all,
                            plan.expert_imbalance * token * tokens * static_cast<double>(shape.top_k), epg);
      t += 2 * layers * a2a.time_s;  // dispatch and combine in every MoE layer
    }
    if (out) {
      out->decode_all_reduce = ar;
      out->decode_all_to_all = a2a;
    }
    return t;
  };
  ServingCommunication out;
  out.prefill_s = step(static_cast<double>(prompt), nullptr);
  out.decode_step_s = step(1, &out);
  return out;
}

void add_serving_communication(GenerationResult& g, const ServingCommunication& c, const ParallelPlan& plan) {
  const double memory_bound_s = g.memory_bound_share * g.total_s;
  const double prefill_memory_bound_s = g.prefill_memory_bound_share * g.ttft_s;
  const double decode_memory_bound_s = g.decode_memory_bound_share * g.decode_s;
  g.tp = plan.tp;
  g.pp = plan.pp;
  g.ep = plan.ep;
  g.expert_imbalance = plan.expert_imbalance;
  g.prefill_communication_s = c.prefill_s;
  g.decode_step_communication_s = c.decode_step_s;
  g.decode_all_to_all_bytes = c.decode_all_to_all.bytes;
  g.decode_all_to_all_s = c.decode_all_to_all.time_s;
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
  g.kv_cache_bytes /= plan.pp;
}

}  // namespace ridge
