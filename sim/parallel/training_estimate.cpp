// The training iteration model (see training_estimate.hpp for the rules and sources).
#include "sim/parallel/training_estimate.hpp"

#include <algorithm>

#include "sim/engine/device_fit.hpp"
#include "sim/parallel/activation_memory.hpp"
#include "sim/parallel/optimizer_step.hpp"
#include "sim/parallel/rank_layers.hpp"

namespace ridge {

namespace {

constexpr double kActivationBytes = 2;  // bf16 / fp16
constexpr double kWeightBytes = 2, kGradientBytes = 2, kOptimizerBytes = 12;

struct Comm {
  const SystemSpec& sys;
  std::vector<CollectiveRow>& rows;
  double add(const char* group, const char* when, CollectiveOp op, double bytes, const GroupPlacement& g, double count) {
    CollectiveRow r{group, when, collective_cost(sys, op, bytes, g), count};
    if (g.size > 1 && count > 0) rows.push_back(r);
    return r.total_s();
  }
};

// Parameters one device holds for a stage: the dense ones (replicated over the dp x cp
// ranks, so ZeRO shards them `dense_shards` ways) and its experts' (replicated over
// the dp x cp / ep ranks that hold the same experts: `expert_shards` ways).
struct StageParams {
  double dense = 0;
  double experts = 0;  // this device's experts only (the stage's expert parameters / ep)
};

DeviceMemory stage_memory(const ParallelPlan& p, const StageParams& s, double dense_shards, double expert_shards,
                          double activations) {
  auto held = [&](double bytes_per_param, int from_stage) {
    return bytes_per_param * (s.dense / (p.zero >= from_stage ? dense_shards : 1) +
                              s.experts / (p.zero >= from_stage ? expert_shards : 1));
  };
  DeviceMemory m;
  m.weights = held(kWeightBytes, 3);
  m.gradients = held(kGradientBytes, 2);
  m.optimizer = held(kOptimizerBytes, 1);
  m.activations = activations;
  return m;
}

}  // namespace

TrainingEstimate estimate_training(const std::string& model, const SystemSpec& sys, const ParallelPlan& plan,
                                   const TransformerParams& shape, const ShardedLayers& layers,
                                   const ShardedLayers& unsharded) {
  TrainingEstimate e;
  e.model = model;
  e.system = sys.id;
  e.plan = plan;
  e.shape = shape;
  e.microbatches = plan.microbatches();
  e.layers_per_stage = shape.layers / plan.pp;
  const double m = static_cast<double>(e.microbatches), p = static_cast<double>(plan.pp);
  const double V = static_cast<double>(plan.interleave), t = static_cast<double>(plan.tp);
  const double c = static_cast<double>(plan.cp);
  const double nl = static_cast<double>(e.layers_per_stage);
  const bool sp = plan.sequence_parallel && plan.tp > 1;

  // Compute per microbatch for one layer: sequence parallelism shards the norms,
  // dropouts and residual adds that tensor parallelism replicates. Under context
  // parallelism the layers were timed at s/cp tokens; a rank's attention is its s/cp
  // queries against all s keys, cp times what attention of s/cp tokens alone does.
  const PassCost& blk = layers.block;
  double cut = sp ? (1 - 1 / t) : 0;
  double attention_f = c * blk.attention_forward_s;
  // A routing imbalance F (--expert-imbalance) gives the busiest expert rank F times the
  // mean rank's token-expert pairs: its expert GEMMs take F times as long, and the rest wait.
  const double imbalance = plan.expert_imbalance;
  double layer_f = blk.forward_s + (c - 1) * blk.attention_forward_s - cut * blk.replicated_forward_s +
                   (imbalance - 1) * blk.expert_forward_s;
  double layer_b = blk.backward_s + (c - 1) * blk.attention_backward_s - cut * blk.replicated_backward_s +
                   (imbalance - 1) * blk.expert_backward_s;
  double recompute_f = plan.recompute == Recompute::full        ? layer_f
                       : plan.recompute == Recompute::selective ? attention_f
                                                                : 0;
  // The embeddings run on the first stage, the final norm and lm_head on the last (both
  // on the one stage when p = 1); the slower end stage sets the pipeline's pace.
  const PassCost& a = layers.first;
  const PassCost& z = layers.last;
  bool first_slower = a.forward_s + a.backward_s >= z.forward_s + z.backward_s;
  double ends_f = plan.pp == 1 ? a.forward_s + z.forward_s : (first_slower ? a : z).forward_s;
  double ends_b = plan.pp == 1 ? a.backward_s + z.backward_s : (first_slower ? a : z).backward_s;
  e.stage_forward_s = nl * layer_f + ends_f;
  e.stage_backward_s = nl * (layer_b + recompute_f) + ends_b;

  // Tensor-parallel collectives of one microbatch through one stage.
  Comm comm{sys, e.collectives};
  GroupPlacement tpg = place_group(sys, plan.tp, 1);
  GroupPlacement cpg = place_group(sys, plan.cp, plan.tp);
  GroupPlacement epg = place_group(sys, plan.ep, plan.tp);
  GroupPlacement dpg = place_group(sys, plan.dp * plan.cp, plan.tp);  // gradients reduce over dp x cp
  GroupPlacement edpg = place_group(sys, plan.dp * plan.cp / plan.ep, plan.tp * plan.ep);
  GroupPlacement ppg = place_group(sys, plan.pp, plan.tp * plan.cp * plan.dp);
  double tokens = static_cast<double>(shape.seq) * static_cast<double>(plan.microbatch) / c;  // one rank's
  double act = tokens * static_cast<double>(shape.hidden) * kActivationBytes;
  double per_mb = m * nl;  // layer passes per iteration on one device
  double tp_f = 0, tp_b = 0;
  double full = plan.recompute == Recompute::full ? 1 : 0;  // the recomputed forward's collectives
  if (sp) {
    // Backward: the gradients' reduce-scatters (of the forward all-gathers) and
    // all-gathers (of its reduce-scatters), and the input all-gathers the weight
    // gradients need, redone (or, under full recomputation, the recomputed forward's).
    tp_f += comm.add("tp", "forward", CollectiveOp::all_gather, act, tpg, 2 * per_mb);
    tp_f += comm.add("tp", "forward", CollectiveOp::reduce_scatter, act, tpg, 2 * per_mb);
    tp_b += comm.add("tp", "backward", CollectiveOp::all_gather, act, tpg, 4 * per_mb);
    tp_b += comm.add("tp", "backward", CollectiveOp::reduce_scatter, act, tpg, (2 + 2 * full) * per_mb);
  } else {
    tp_f += comm.add("tp", "forward", CollectiveOp::all_reduce, act, tpg, 2 * per_mb);
    tp_b += comm.add("tp", "backward", CollectiveOp::all_reduce, act, tpg, (2 + 2 * full) * per_mb);
  }
  e.tp_comm_s = tp_f + tp_b;

  // Context parallelism: each layer all-gathers K and V over the cp group in forward,
  // and in backward gathers them again and reduce-scatters their gradients (the ring
  // of Megatron-LM's context parallelism circulates K, V and then dK, dV); full
  // recomputation gathers once more. Counted on the critical path (no overlap with the
  // attention's compute, so an upper bound).
  if (plan.cp > 1) {
    double kv_width = static_cast<double>(shape.key_value_heads() * (shape.hidden / shape.heads)) / t;
    double kv = 2 * static_cast<double>(shape.seq) * static_cast<double>(plan.microbatch) * kv_width * kActivationBytes;
    e.cp_comm_s += comm.add("cp", "forward", CollectiveOp::all_gather, kv, cpg, per_mb);
    e.cp_comm_s += comm.add("cp", "backward", CollectiveOp::all_gather, kv, cpg, (1 + full) * per_mb);
    e.cp_comm_s += comm.add("cp", "backward", CollectiveOp::reduce_scatter, kv, cpg, per_mb);
  }

  // Expert parallelism: each mixture-of-experts layer sends every token's hidden vector
  // to its top-k experts (dispatch) and back (combine), two all-to-alls in forward and
  // two in backward (four under full recomputation). A rank's tokens: s b / cp, / tp
  // with sequence parallelism (which Megatron-LM requires with tp and ep together). Under
  // a routing imbalance F the busiest rank receives F times the mean: F x the bytes.
  if (plan.ep > 1) {
    double routed = imbalance * tokens / (sp ? t : 1) * static_cast<double>(shape.hidden * shape.top_k) * kActivationBytes;
    e.ep_comm_s += comm.add("ep", "forward", CollectiveOp::all_to_all, routed, epg, 2 * per_mb);
    e.ep_comm_s += comm.add("ep", "backward", CollectiveOp::all_to_all, routed, epg, (2 + 2 * full) * per_mb);
  }
  double tp_per_mb = m > 0 ? (e.tp_comm_s + e.cp_comm_s + e.ep_comm_s) / m : 0;

  // Pipeline: the 1F1B schedule with its point-to-point sends (activations scattered
  // across the tp ranks, Narayanan et al. 2021's scatter/gather optimisation).
  double slots = p > 1 ? m * V + p - 1 : 0;
  if (p > 1) e.pp_comm_s = comm.add("pp", "forward+backward", CollectiveOp::send_recv, act / t, ppg, 2 * slots);
  double per_mb_time = e.stage_forward_s + e.stage_backward_s + tp_per_mb;
  e.pipeline_s = (m + (p - 1) / V) * per_mb_time + e.pp_comm_s;
  e.bubble_s = (p - 1) / V * per_mb_time;
  e.bubble_share = e.pipeline_s > 0 ? e.bubble_s / e.pipeline_s : 0;

  // Data parallelism over the stage's parameters held by one tp rank: the dense ones
  // over the dp x cp group, the experts (1/ep of them on each rank) over the dp x cp / ep
  // ranks that hold the same experts.
  auto stage_params = [&](const PassCost& end, int64_t extra) {
    double block_dense = static_cast<double>(blk.params - blk.expert_params);
    return StageParams{nl * block_dense + static_cast<double>(end.params - end.expert_params + extra),
                       (nl * static_cast<double>(blk.expert_params) +
                        static_cast<double>(end.expert_params)) / static_cast<double>(plan.ep)};
  };
  StageParams first_params = stage_params(a, 0);
  StageParams last_params = stage_params(z, z.tied_params);
  if (plan.pp == 1) {
    first_params.dense += static_cast<double>(z.params - z.expert_params);
    first_params.experts += static_cast<double>(z.expert_params) / static_cast<double>(plan.ep);
    last_params = first_params;
  }
  const StageParams& held = first_params.dense + first_params.experts >= last_params.dense + last_params.experts
                                ? first_params : last_params;
  const double dense_shards = static_cast<double>(dpg.size), expert_shards = static_cast<double>(edpg.size);
  // One group's gradient reduction per iteration and, under ZeRO 3, its weight
  // all-gathers per microbatch; returns {all of it, exposed}.
  auto synchronise = [&](const char* group, double params, const GroupPlacement& g) -> std::pair<double, double> {
    if (g.size <= 1 || params <= 0) return {0, 0};
    double all = 0;
    if (plan.zero == 0) {
      all = comm.add(group, "step", CollectiveOp::all_reduce, params * kGradientBytes, g, 1);
    } else {
      all = comm.add(group, "step", CollectiveOp::reduce_scatter, params * kGradientBytes, g, 1);
      if (plan.zero <= 2) all += comm.add(group, "step", CollectiveOp::all_gather, params * kWeightBytes, g, 1);
    }
    double exposed = std::max(0.0, all - (plan.overlap ? e.stage_backward_s : 0));
    if (plan.zero == 3) {
      double ag = collective_cost(sys, CollectiveOp::all_gather, params * kWeightBytes, g).time_s;
      double fwd = comm.add(group, "forward", CollectiveOp::all_gather, params * kWeightBytes, g, m);
      double bwd = comm.add(group, "backward", CollectiveOp::all_gather, params * kWeightBytes, g, m);
      all += fwd + bwd;
      exposed += plan.overlap ? m * (std::max(0.0, ag - e.stage_forward_s) + std::max(0.0, ag - e.stage_backward_s))
                              : fwd + bwd;
    }
    return {all, exposed};
  };
  auto [dense_all, dense_exposed] = synchronise("dp", held.dense, dpg);
  auto [expert_all, expert_exposed] = synchronise("edp", held.experts, edpg);
  e.dp_comm_s = dense_all + expert_all;
  e.dp_exposed_s = dense_exposed + expert_exposed;

  // Optimizer step on the parameters this device updates.
  double updated = held.dense / (plan.zero >= 1 ? dense_shards : 1) + held.experts / (plan.zero >= 1 ? expert_shards : 1);
  e.optimizer_s = optimizer_step_time(updated, sys.device).time_s();

  e.iteration_time_s = e.pipeline_s + e.dp_exposed_s + e.optimizer_s;
  e.communication_time_s = e.tp_comm_s + e.cp_comm_s + e.ep_comm_s + e.pp_comm_s + e.dp_exposed_s;
  double batch = static_cast<double>(plan.batch());
  e.tokens_per_s = batch * static_cast<double>(shape.seq) / e.iteration_time_s;
  e.samples_per_s = batch / e.iteration_time_s;

  // FLOPs: the unsharded model's (per sequence of the microbatch) x the batch.
  const ShardedLayers& u = unsharded;
  double per_mb_model = static_cast<double>(shape.layers) * (u.block.forward_flops + u.block.backward_flops) +
                        u.first.forward_flops + u.first.backward_flops + u.last.forward_flops + u.last.backward_flops;
  double mbs = batch / static_cast<double>(plan.microbatch);
  e.model_flops = per_mb_model * mbs;
  double u_recompute = plan.recompute == Recompute::full        ? u.block.forward_flops
                       : plan.recompute == Recompute::selective ? u.block.attention_forward_flops
                                                                : 0;
  e.hardware_flops = e.model_flops + static_cast<double>(shape.layers) * u_recompute * mbs;
  const DType dtype = training_dtype(sys.device);
  double peak = sys.device.peak_flops.count(dtype) ? sys.device.peak_flops.at(dtype) : 1;
  double devices = static_cast<double>(plan.devices());
  e.mfu = e.model_flops / (e.iteration_time_s * devices * peak);
  e.hfu = e.hardware_flops / (e.iteration_time_s * devices * peak);

  // Memory: the first stage (most activations) or the last (lm_head), whichever is
  // larger. Context parallelism splits every activation cp ways.
  LayerShape ls{shape.seq, shape.hidden, shape.heads};
  double per_layer = layer_activation_bytes(ls, plan.microbatch, plan.tp, sp, plan.recompute) / c;
  double acts = per_layer * in_flight_layers(e.layers_per_stage, plan.pp, e.microbatches, plan.interleave);
  double working = plan.recompute == Recompute::full ? layer_activation_bytes(ls, plan.microbatch, plan.tp, sp, Recompute::none) / c : 0;
  acts += working;
  double last_acts = p > 1 ? per_layer * nl + working : acts;  // 1F1B: the last stage holds one microbatch
  DeviceMemory first = stage_memory(plan, first_params, dense_shards, expert_shards, acts);
  DeviceMemory last = stage_memory(plan, last_params, dense_shards, expert_shards, last_acts);
  bool first_peak = first.total() >= last.total();
  e.memory = first_peak ? first : last;
  e.peak_stage = first_peak ? "first" : "last";
  e.expert_params_per_device = (first_peak ? first_params : last_params).experts;
  e.capacity_bytes = static_cast<double>(usable_capacity(sys.device, kDefaultReserveFraction));
  e.fits = e.memory.total() <= e.capacity_bytes;
  return e;
}

}  // namespace ridge
