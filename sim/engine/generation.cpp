// Prefill plus summed decode steps (see generation.hpp).
#include "sim/engine/generation.hpp"

#include <algorithm>
#include <vector>

#include "hw/layer_batch.hpp"
#include "sim/base/error.hpp"
#include "sim/base/ratio.hpp"
#include "sim/workload/busiest_expert_rank.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/memory_footprint.hpp"

namespace ridge {

namespace {

RunSettings decode_at(const RunSettings& base, int64_t context) {
  RunSettings s = base;
  s.phase = Phase::decode;
  s.context = context;
  return s;
}

// A step's costs: the busiest expert rank's under a routing imbalance `expert_load`.
CostAnalysis step_costs(const Model& model, const RunSettings& s, double expert_load) {
  return busiest_expert_rank(analyze_costs(model, s), model, s, expert_load);
}

bool same_work(const LayerWork& a, const LayerWork& b) {
  return a.flops == b.flops && a.epilogue_flops == b.epilogue_flops && a.input_bytes == b.input_bytes &&
         a.output_bytes == b.output_bytes && a.weight_bytes == b.weight_bytes && a.kv_bytes == b.kv_bytes &&
         a.link_bytes == b.link_bytes && a.kernels == b.kernels && a.step_weight_bytes == b.step_weight_bytes &&
         a.step_kv_bytes == b.step_kv_bytes && a.dequant_weights == b.dequant_weights && a.in_place == b.in_place;
}

// Work at step k = first + k x step, as one array per field over `steps` steps (every
// field of LayerWorkArrays: a model may read any). Every count is an integer below
// 2^53, so the doubles are exact.
LayerWorkArrays over_steps(const LayerWork& first, const LayerWork& next, int64_t steps) {
  LayerWorkArrays a;
  const Eigen::ArrayXd k = Eigen::ArrayXd::LinSpaced(steps, 0.0, static_cast<double>(steps - 1));
  auto line = [&](double w0, double w1) -> Eigen::ArrayXd { return w0 + k * (w1 - w0); };
  a.flops = line(first.flops, next.flops);
  a.input_bytes = line(first.input_bytes, next.input_bytes);
  a.output_bytes = line(first.output_bytes, next.output_bytes);
  a.weight_bytes = line(first.weight_bytes, next.weight_bytes);
  a.kv_bytes = line(first.kv_bytes, next.kv_bytes);
  a.dequant_weights = line(first.dequant_weights, next.dequant_weights);
  a.link_bytes = line(first.link_bytes, next.link_bytes);
  a.kernels = line(first.kernels, next.kernels);
  a.step_weight_bytes = line(first.step_weight_bytes, next.step_weight_bytes);
  a.step_kv_bytes = line(first.step_kv_bytes, next.step_kv_bytes);
  // The op class and GEMM shape do not change with the context (a calibration reads them).
  a.op_class = Eigen::ArrayXi::Constant(steps, static_cast<int>(first.op_class));
  a.gemm_positions = Eigen::ArrayXd::Constant(steps, first.gemm_positions);
  a.gemm_reduction = Eigen::ArrayXd::Constant(steps, first.gemm_reduction);
  // Nor the batch and the convolution geometry (the kernel-library rule reads them).
  a.batch = Eigen::ArrayXd::Constant(steps, first.batch);
  a.input_elements = line(first.input_elements, next.input_elements);
  a.conv.assign(static_cast<size_t>(steps), first.conv);
  a.in_place = Eigen::ArrayXd::Constant(steps, first.in_place ? 1.0 : 0.0);
  return a;
}

void add_times(TimingSums& total, const TimingSums& s, double times) {
  total.compute_s += s.compute_s * times;
  total.memory_s += s.memory_s * times;
  total.link_s += s.link_s * times;
  total.overhead_s += s.overhead_s * times;
  total.time_s += s.time_s * times;
  total.memory_bound_s += s.memory_bound_s * times;
}

// Sum over decode contexts first, first + 1, ..., first + steps - 1 of every layer's time.
TimingSums sum_decode_steps(const Model& model, const RunSettings& base, double expert_load, int64_t first, int64_t steps,
                            const HardwareSpec& hw, const HardwareModel& hw_model) {
  std::vector<LayerWork> w0 = layer_work(model, step_costs(model, decode_at(base, first), expert_load));
  std::vector<LayerWork> w1 = layer_work(model, step_costs(model, decode_at(base, first + 1), expert_load));
  TimingSums total;
  auto add = [&](const TimingSums& s, double times) { add_times(total, s, times); };
  // Layers whose work does not grow with the context: timed once, the same every step.
  std::vector<LayerWork> fixed;
  // Layers whose work grows with it (attention), grouped: identical layers are timed once.
  std::vector<std::pair<size_t, int>> growing;  // (first layer of a group, layers in it)
  for (size_t i = 0; i < w0.size(); ++i) {
    if (same_work(w0[i], w1[i])) {
      fixed.push_back(w0[i]);
      continue;
    }
    auto group = std::find_if(growing.begin(), growing.end(), [&](const std::pair<size_t, int>& g) {
      return same_work(w0[g.first], w0[i]) && same_work(w1[g.first], w1[i]);
    });
    if (group != growing.end())
      ++group->second;
    else
      growing.emplace_back(i, 1);
  }
  LayerTimingArrays scratch;
  if (!fixed.empty()) add(hw_model.time_layers(to_arrays(fixed), hw, base.dtype, scratch), static_cast<double>(steps));
  for (const auto& [rep, count] : growing)
    add(hw_model.time_layers(over_steps(w0[rep], w1[rep], steps), hw, base.dtype, scratch), count);
  return total;
}

// The same over contexts first .. first + steps - 1, cut where a sliding window fills
// (context window - 1 and on, a windowed layer's work stops growing): each piece is
// linear in the context, so sum_decode_steps sums it exactly.
TimingSums sum_decode_steps_windowed(const Model& model, const RunSettings& base, double expert_load, int64_t first,
                                     int64_t steps, const HardwareSpec& hw, const HardwareModel& hw_model) {
  std::vector<int64_t> cuts;
  for (const Layer& l : model.layers)
    if (l.counts.attention.window > 0) cuts.push_back(l.counts.attention.window - 1);
  std::sort(cuts.begin(), cuts.end());
  TimingSums total;
  const int64_t end = first + steps;
  int64_t from = first;
  for (size_t i = 0; i <= cuts.size() && from < end; ++i) {
    const int64_t to = i < cuts.size() ? std::clamp(cuts[i], from, end) : end;
    if (to == from) continue;
    add_times(total, sum_decode_steps(model, base, expert_load, from, to - from, hw, hw_model), 1.0);
    from = to;
  }
  return total;
}

}  // namespace

GenerationResult simulate_generation(const Model& prefill_model, const Model& decode_model, const RunSettings& base,
                                     const GenerationRequest& req, const HardwareSpec& hw,
                                     const HardwareModel& hw_model) {
  check_dtype_supported(hw, base.dtype);
  // The last step holds prompt + gen - 1 tokens: said in generate's own terms (the
  // prefill and decode checks would name --seq and --context).
  const int64_t most = prefill_model.max_positions;
  if (most > 0 && (req.prompt > most || req.gen - 1 > most - req.prompt))
    throw InputError(prefill_model.max_positions_loc,
                     "--prompt " + std::to_string(req.prompt) + " + --gen " + std::to_string(req.gen) +
                         " - 1 tokens are longer than " + prefill_model.name + "'s max_positions = " + std::to_string(most),
                     "use a shorter --prompt or --gen");
  GenerationResult r;
  r.prompt = req.prompt;
  r.gen = req.gen;
  r.batch = base.batch;
  r.decode_steps = req.gen - 1;
  RunSettings pre = base;
  pre.phase = Phase::prefill;
  pre.seq = req.prompt;
  r.hardware_model = std::string(hw_model.name());
  r.prefill = derive(prefill_model, step_costs(prefill_model, pre, req.expert_load), hw, hw_model);
  // The engine's fixed time per request ([efficiency] request_overhead) is part of the first token's.
  r.ttft_s = r.prefill.totals.timing.time_s + hw.request_overhead_s;
  double memory_bound_s = r.prefill.memory_bound_share * r.prefill.totals.timing.time_s;
  r.prefill_memory_bound_share = r.prefill.memory_bound_share;
  r.mean_context = req.prompt + (r.decode_steps > 0 ? (r.decode_steps - 1) / 2 : 0);
  if (r.decode_steps > 0) {
    // The last step (the longest context) is checked against max_positions first.
    const int64_t last = req.prompt + r.decode_steps - 1;
    analyze_costs(decode_model, decode_at(base, last));
    TimingSums d = sum_decode_steps_windowed(decode_model, base, req.expert_load, req.prompt, r.decode_steps, hw, hw_model);
    r.decode_s = d.time_s;
    r.decode_memory_bound_share = ratio(d.memory_bound_s, d.time_s);
    memory_bound_s += d.memory_bound_s;
    r.tpot_s = d.time_s / static_cast<double>(r.decode_steps);
    r.decode_tokens_per_s = ratio(static_cast<double>(base.batch * r.decode_steps), d.time_s);
    r.mean_step = derive(decode_model, step_costs(decode_model, decode_at(base, r.mean_context), req.expert_load), hw, hw_model);
    r.step_at_mean_context_s = r.mean_step.totals.timing.time_s;
  }
  r.total_s = r.ttft_s + r.decode_s;
  r.tokens_per_s = ratio(static_cast<double>(base.batch * req.gen), r.total_s);
  r.memory_bound_share = ratio(memory_bound_s, r.total_s);
  if (r.prefill.energy && (r.decode_steps == 0 || r.mean_step.energy)) {
    double decode_J = r.decode_steps > 0 ? r.mean_step.energy->average_power_w * r.decode_s : 0;
    r.energy_J = r.prefill.energy->total_J + decode_J;
    r.joules_per_token = ratio(*r.energy_J, static_cast<double>(base.batch * req.gen));
    r.average_power_w = ratio(*r.energy_J, r.total_s);
  }
  RunSettings end = r.decode_steps > 0 ? decode_at(base, req.prompt + req.gen - 2) : pre;
  r.kv_cache_bytes = memory_footprint(r.decode_steps > 0 ? decode_model : prefill_model, end, CheckpointPolicy{})
                         .kv_cache_bytes();
  return r;
}

}  // namespace ridge
