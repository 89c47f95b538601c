// The communication of generating tokens with a tensor-, pipeline- and expert-parallel
// plan, as Megatron-LM, vLLM and SGLang serve a transformer: each layer all-reduces its
// tokens' activations twice over the tp group (after the attention's output projection
// and after the MLP), in the prefill over batch x prompt tokens and in every decode step
// over batch tokens; with pp > 1 each step also sends those activations from stage to
// stage, p - 1 times. One batch goes through the stages one after another (no
// microbatch pipelining), so pp splits the weights and the KV cache, not the latency.
// The KV cache splits tp ways by itself: the model is read with [params] tp set, so
// each rank holds heads/tp and kv_heads/tp.
//
// Expert parallelism (ep > 1, a mixture of experts, dp = ep, tp = 1): each of the ep
// ranks runs the attention for its own batch (data-parallel attention, SGLang's
// --enable-dp-attention with --ep-size, DeepSeek-V3's decode deployment) and holds
// experts / ep of every MoE layer's experts. Every MoE layer of every step adds two
// all-to-alls over the ep group, dispatch (each token's hidden vector to its top-k
// experts' ranks) and combine (the k expert outputs back), each of
//   bytes = tokens in the step x hidden x dtype bytes x top_k
// per device (tokens: batch x prompt in the prefill, batch in a decode step), the count
// Megatron-LM's MoEAlltoAllTokenDispatcher and DeepSpeed-MoE's inference (Rajbhandari et
// al. 2022, arXiv 2201.05596; its expert-parallel all-to-all) move: one copy of a token
// per chosen expert; (ep - 1)/ep of it leaves the device (collectives.hpp's all-to-all).
// A routing imbalance F (ParallelPlan::expert_imbalance) times the busiest rank, whose
// all-to-alls move F x those bytes (its MoE layers: sim/workload/busiest_expert_rank.hpp).
#pragma once

#include <cstdint>

#include "sim/engine/generation.hpp"
#include "sim/parallel/collectives.hpp"
#include "sim/parallel/parallel_plan.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/parallel/system_spec.hpp"

namespace ridge {

struct ServingCommunication {
  double prefill_s = 0;      // the prefill's all-reduces, sends and all-to-alls
  double decode_step_s = 0;  // one decode step's
  CollectiveCost decode_all_reduce;  // one of a decode step's all-reduces
  CollectiveCost decode_all_to_all;  // one of a decode step's dispatches (or combines); ep = 1: none
};

// `element_bytes`: one activation value (2 for fp16). Reads the plan's tp, pp and ep.
ServingCommunication serving_communication(const SystemSpec& system, const ParallelPlan& plan, const TransformerParams& shape,
                                           int64_t batch, int64_t prompt, double element_bytes);

// Adds `c` to the run's times (time to first token, every decode step) and shares; the
// memory-bound time stays what it was. The KV cache becomes one device's (/ pp).
void add_serving_communication(GenerationResult& g, const ServingCommunication& c, const ParallelPlan& plan);

}  // namespace ridge
