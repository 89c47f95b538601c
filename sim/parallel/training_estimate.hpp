// One training iteration of a transformer under a parallel plan on a system: time,
// throughput, MFU / HFU, communication per collective and memory per device.
//
// Per microbatch, a pipeline stage of L/p layers runs forward F and backward B (with
// recomputation's extra forward), each with its tensor-parallel collectives (per layer:
// 2 all-reduces of the sbh activation forward and 2 backward; with sequence parallelism
// 2 all-gathers + 2 reduce-scatters each way, and the all-gathers redone in backward;
// full recomputation repeats the forward's). The 1F1B schedule takes
//   pipeline = (m + (p-1)/V) (F + B) + 2 t_p2p (mV + p - 1)     (p > 1)
// so the bubble is (p-1)/V / (m + (p-1)/V) = (p-1)/(Vm + p - 1). Data-parallel gradient
// reduction (all-reduce; reduce-scatter + all-gather under ZeRO 1/2; under ZeRO 3 also
// two all-gathers of the weights per microbatch) overlaps, unless --no-overlap, with the
// backward pass of the last microbatch (the rule of bucketed DDP: the last gradients
// are ready only then): exposed = max(0, t_dp - B); ZeRO 3's weight all-gathers
// prefetch under each microbatch's compute: exposed = max(0, t_ag - F) per pass.
// Context parallelism (cp) splits each sequence over cp ranks: each rank runs the layers
// on s/cp tokens (its attention: s/cp queries against all s keys), holds 1/cp of the
// activations, and per layer all-gathers K and V (2 s b kv_heads d/t x 2 B, the gathered
// size) over the cp group in forward, gathers them again and reduce-scatters their
// gradients in backward. Expert parallelism (ep) spreads a mixture of experts' experts
// over ep of the dp x cp ranks: per MoE layer two all-to-alls in forward (dispatch and
// combine) and two in backward, each sending tokens x hidden x top_k x 2 B (tokens: the
// rank's s b / cp, / tp with sequence parallelism), of which the collective moves
// (ep-1)/ep off the device; experts' weights, gradients and optimizer state per device
// are 1/ep, and their gradients reduce over the dp x cp / ep ranks holding the same
// experts (group "edp"), the dense ones over dp x cp. cp and ep communication is on the
// critical path like tp's. Under uniform routing each expert rank computes as many
// token-expert pairs as without ep, so ep leaves the compute time as it is. A routing
// imbalance F (ParallelPlan::expert_imbalance: the busiest rank's token-expert pairs over
// the mean) makes the busiest rank's expert GEMMs (the moe op, forward and backward) take
// F times as long and its all-to-alls move F times the bytes; the other ranks wait for it.
// Activation memory stays at the mean (Korthikanti's formulas have no expert term).
// The optimizer step (Adam, fp32 master weights) reads and writes 28 B per parameter
// the device updates, at the device's memory bandwidth.
// MFU counts model FLOPs (the unsharded model's forward + backward, no recomputation,
// as ridge's engine counts them) over iteration time x devices x peak; HFU the FLOPs
// the devices run, recomputation included.
// Memory per device (the first stage, which holds the most activations, or the last
// where it is larger): weights 2 B, gradients 2 B, optimizer 12 B per parameter (fp32
// master + Adam m and v, as Megatron-LM counts mixed precision), divided by dp for the
// optimizer (ZeRO 1), also the gradients (2) and also the weights (3) (dp x cp for the
// dense parameters, dp x cp / ep for the experts'); activations per
// activation_memory.hpp, plus under full recomputation one layer's full activations
// (the layer being recomputed). It fits when the total is at most the device DRAM less
// `ridge memory`'s runtime reserve (5%).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "sim/parallel/collectives.hpp"
#include "sim/parallel/parallel_plan.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/parallel/system_spec.hpp"

namespace ridge {

struct CollectiveRow {
  std::string group;  // "tp", "cp", "ep", "pp", "dp", "edp" (expert data parallel)
  std::string when;   // "forward", "backward", "step"
  CollectiveCost cost;
  double count = 0;   // times per iteration on one device
  double total_s() const { return cost.time_s * count; }
};

struct DeviceMemory {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double total() const { return weights + gradients + optimizer + activations; }
};

struct TrainingEstimate {
  std::string model;
  std::string system;
  ParallelPlan plan;
  TransformerParams shape;
  int64_t microbatches = 0;
  int64_t layers_per_stage = 0;
  double stage_forward_s = 0;   // one microbatch, compute only
  double stage_backward_s = 0;  // one microbatch, compute only, recomputation included
  double tp_comm_s = 0;         // per iteration, on the critical path
  double cp_comm_s = 0;         // context parallel K/V all-gathers and reduce-scatters
  double ep_comm_s = 0;         // expert parallel all-to-alls
  double pp_comm_s = 0;
  double dp_comm_s = 0;         // all of it
  double dp_exposed_s = 0;      // what the backward pass does not hide
  double optimizer_s = 0;
  double pipeline_s = 0;
  double bubble_s = 0;
  double iteration_time_s = 0;
  double tokens_per_s = 0;
  double samples_per_s = 0;   // sequences per second: global batch / iteration
  double model_flops = 0;     // per iteration, whole model
  double hardware_flops = 0;  // per iteration, all devices, recomputation included
  double mfu = 0;
  double hfu = 0;
  double bubble_share = 0;
  double communication_time_s = 0;  // exposed: tp + cp + ep + pp + exposed dp
  DeviceMemory memory;              // the peak stage's
  std::string peak_stage;           // "first" or "last"
  double expert_params_per_device = 0;  // the peak stage's experts on one device
  double capacity_bytes = 0;        // usable: DRAM less the runtime reserve
  bool fits = false;
  std::vector<CollectiveRow> collectives;
};

// `plan` must already be checked (plan_check.hpp). `layers` comes from time_sharded_layers
// at plan.tp, plan.cp and plan.microbatch, `unsharded` at tp 1, cp 1 (for model FLOPs).
TrainingEstimate estimate_training(const std::string& model, const SystemSpec& system, const ParallelPlan& plan,
                                   const TransformerParams& shape, const ShardedLayers& layers,
                                   const ShardedLayers& unsharded);

}  // namespace ridge
