// The training iteration model (see training_estimate.hpp for the rules and sources).
#include "sim/parallel/training_estimate.hpp"

#include <algorithm>

#include "sim/engine/device_fit.hpp"
#include "sim/parallel/activation_memory.hpp"

namespace ridge {

namespace {

constexpr double kActivationBytes = 2;  // bf16 / fp16
constexpr double kWeightBytes = 2, kGradientBytes = 2, kOptimizerBytes = 12;
constexpr double kUpdateBytes = 28;  // grad 2 + fp32 master read+write 8 + bf16 weight write 2 + m, v read+write 16
constexpr double kUpdateFlops = 12;  // Adam (run_settings.hpp)

struct Comm {
  const SystemSpec& sys;
  std::vector<CollectiveRow>& rows;
  double add(const char* group, const char* when, CollectiveOp op, double bytes, const GroupPlacement& g, double count) {
    CollectiveRow r{group, when, collective_cost(sys, op, bytes, g), count};
    if (g.size > 1 && count > 0) rows.push_back(r);
    return r.total_s();
  }
};

DeviceMemory stage_memory(const TrainingEstimate& e, double params, double activations) {
  const ParallelPlan& p = e.plan;
  double d = static_cast<double>(p.dp);
  DeviceMemory m;
  m.weights = params * kWeightBytes / (p.zero >= 3 ? d : 1);
  m.gradients = params * kGradientBytes / (p.zero >= 2 ? d : 1);
  m.optimizer = params * kOptimizerBytes / (p.zero >= 1 ? d : 1);
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
  const double nl = static_cast<double>(e.layers_per_stage);
  const bool sp = plan.sequence_parallel && plan.tp > 1;

  // Compute per microbatch for one layer: sequence parallelism shards the norms,
  // dropouts and residual adds that tensor parallelism replicates.
  const PassCost& blk = layers.block;
  double cut = sp ? (1 - 1 / t) : 0;
  double layer_f = blk.forward_s - cut * blk.replicated_forward_s;
  double layer_b = blk.backward_s - cut * blk.replicated_backward_s;
  double recompute_f = plan.recompute == Recompute::full        ? layer_f
                       : plan.recompute == Recompute::selective ? blk.attention_forward_s
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
  GroupPlacement dpg = place_group(sys, plan.dp, plan.tp);
  GroupPlacement ppg = place_group(sys, plan.pp, plan.tp * plan.dp);
  double act = static_cast<double>(shape.seq) * static_cast<double>(plan.microbatch) *
               static_cast<double>(shape.hidden) * kActivationBytes;
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
  double tp_per_mb = m > 0 ? e.tp_comm_s / m : 0;

  // Pipeline: the 1F1B schedule with its point-to-point sends (activations scattered
  // across the tp ranks, Narayanan et al. 2021's scatter/gather optimisation).
  double slots = p > 1 ? m * V + p - 1 : 0;
  if (p > 1) e.pp_comm_s = comm.add("pp", "forward+backward", CollectiveOp::send_recv, act / t, ppg, 2 * slots);
  double per_mb_time = e.stage_forward_s + e.stage_backward_s + tp_per_mb;
  e.pipeline_s = (m + (p - 1) / V) * per_mb_time + e.pp_comm_s;
  e.bubble_s = (p - 1) / V * per_mb_time;
  e.bubble_share = e.pipeline_s > 0 ? e.bubble_s / e.pipeline_s : 0;

  // Data parallelism over the stage's parameters held by one tp rank.
  double first_params = nl * static_cast<double>(blk.params) + static_cast<double>(a.params);
  double last_params = nl * static_cast<double>(blk.params) + static_cast<double>(z.params + z.tied_params);
  if (plan.pp == 1) first_params = last_params = first_params + static_cast<double>(z.params);
  double stage_params = std::max(first_params, last_params);
  double grads = stage_params * kGradientBytes;
  if (plan.dp > 1) {
    if (plan.zero == 0) {
      e.dp_comm_s = comm.add("dp", "step", CollectiveOp::all_reduce, grads, dpg, 1);
    } else {
      e.dp_comm_s = comm.add("dp", "step", CollectiveOp::reduce_scatter, grads, dpg, 1);
      if (plan.zero <= 2) e.dp_comm_s += comm.add("dp", "step", CollectiveOp::all_gather, stage_params * kWeightBytes, dpg, 1);
    }
    double hidden_by = plan.overlap ? e.stage_backward_s : 0;
    e.dp_exposed_s = std::max(0.0, e.dp_comm_s - hidden_by);
    if (plan.zero == 3) {
      double ag = collective_cost(sys, CollectiveOp::all_gather, stage_params * kWeightBytes, dpg).time_s;
      double fwd = comm.add("dp", "forward", CollectiveOp::all_gather, stage_params * kWeightBytes, dpg, m);
      double bwd = comm.add("dp", "backward", CollectiveOp::all_gather, stage_params * kWeightBytes, dpg, m);
      e.dp_comm_s += fwd + bwd;
      e.dp_exposed_s += plan.overlap ? m * (std::max(0.0, ag - e.stage_forward_s) + std::max(0.0, ag - e.stage_backward_s))
                                     : fwd + bwd;
    }
  }

  // Optimizer step on the parameters this device updates.
  double updated = stage_params / (plan.zero >= 1 ? static_cast<double>(plan.dp) : 1);
  double hbm = sys.device.memory.empty() ? 1 : sys.device.memory.front().bandwidth_Bps;
  double fp32 = sys.device.peak_flops.count(DType::fp32) ? sys.device.peak_flops.at(DType::fp32) : 1;
  e.optimizer_s = std::max(updated * kUpdateBytes / hbm, updated * kUpdateFlops / fp32);

  e.iteration_time_s = e.pipeline_s + e.dp_exposed_s + e.optimizer_s;
  e.communication_time_s = e.tp_comm_s + e.pp_comm_s + e.dp_exposed_s;
  double batch = static_cast<double>(plan.batch());
  e.tokens_per_s = batch * static_cast<double>(shape.seq) / e.iteration_time_s;

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
  double peak = sys.device.peak_flops.count(DType::bf16) ? sys.device.peak_flops.at(DType::bf16) : 1;
  double devices = static_cast<double>(plan.devices());
  e.mfu = e.model_flops / (e.iteration_time_s * devices * peak);
  e.hfu = e.hardware_flops / (e.iteration_time_s * devices * peak);

  // Memory: the first stage (most activations) or the last (lm_head), whichever is larger.
  LayerShape ls{shape.seq, shape.hidden, shape.heads};
  double per_layer = layer_activation_bytes(ls, plan.microbatch, plan.tp, sp, plan.recompute);
  double acts = per_layer * in_flight_layers(e.layers_per_stage, plan.pp, e.microbatches, plan.interleave);
  double working = plan.recompute == Recompute::full ? layer_activation_bytes(ls, plan.microbatch, plan.tp, sp, Recompute::none) : 0;
  acts += working;
  double last_acts = p > 1 ? per_layer * nl + working : acts;  // 1F1B: the last stage holds one microbatch
  DeviceMemory first = stage_memory(e, first_params, acts);
  DeviceMemory last = stage_memory(e, last_params, last_acts);
  bool first_peak = first.total() >= last.total();
  e.memory = first_peak ? first : last;
  e.peak_stage = first_peak ? "first" : "last";
  e.capacity_bytes = static_cast<double>(usable_capacity(sys.device, kDefaultReserveFraction));
  e.fits = e.memory.total() <= e.capacity_bytes;
  return e;
}

}  // namespace ridge
