// Mixture-of-experts MLP (Shazeer et al. 2017; Mixtral, Jiang et al. 2024): each token's
// router logits (a separate `linear` layer, hidden -> num_experts) pick its top_k of
// num_experts experts; each expert is a SwiGLU MLP (gate and up [I, h], down [h, I], no
// biases) and the token's output is the routing-weighted sum of its k experts' outputs.
// Inputs: x [T, h] and the router logits [T, E]. Output [T, h].
// Parameters: E x 3hI (every expert; all are resident). Active per token: k x 3hI.
// Per token (the routing as Hugging Face's MixtralSparseMoeBlock computes it: softmax
// over all E logits, top-k, the k weights renormalised to sum 1):
//   macs  = k x 3hI
//   flops = 2 x macs + softmax 5E-2 + top-k k(E-1) comparisons + renormalise 2k-1
//           + the gated activation 6 per element of each expert's I (gated.cpp) 6kI
//           + the weighted sum of k outputs (2k-1)h
// Traffic: the kernels vLLM's fused_moe runs (6 launches): topk_softmax reads E logits,
//   writes k weights and k ids; moe_align_block_size reads the k ids, writes k sorted
//   ids; the gate+up GEMM reads the ids and x once per routed expert (kh), writes 2kI;
//   silu_and_mul reads 2kI, writes kI; the down GEMM reads the ids, the k weights and
//   kI, writes kh; moe_sum reads kh, writes h. Ids are counted in the activation dtype.
//   input = E + 4k + 2kh + 3kI, output = 3k + 3kI + kh + h elements per token.
// Weights read per step depend on how many distinct experts the step's T tokens touch
// (cost_analysis.cpp, expected_experts_touched): each touched expert's 3hI weights once.
// Expert parallelism (optional `expert_parallel` = N, dividing E; default 1): the layer
//   is one of N ranks that each hold E / N experts and exchange tokens by all-to-all
//   (the communication is the parallel plan's, sim/parallel). Each rank routes its own
//   T tokens and receives the token-expert pairs meant for its experts from all N ranks:
//   under uniform routing N x T x k / N = T x k pairs, so macs, flops and activation
//   traffic per token are those above; params are E / N x 3hI, and the weights a step
//   reads are the rank's experts that the N x T tokens touch, (E / N)(1 - (1 - k/E)^(N T)).
// Training: dX and dW through the k experts (each k x 3hI MACs per token), the gated
// activation's backward 13kI, the weighted sum's 2kh and the router softmax's 4E-1; the
// step reads every expert's weights and writes every gradient (a training batch routes
// to them all), and keeps the routed intermediates (3kI per token) in fp32.
#include <cmath>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

double expected_experts_touched(int64_t experts, int64_t top_k, int64_t tokens) {
  if (tokens <= 0) return 0.0;
  // E (1 - (1 - k/E)^T), as E (1 - exp(T log1p(-k/E))) for precision at small k/E.
  double miss = static_cast<double>(tokens) * std::log1p(-static_cast<double>(top_k) / static_cast<double>(experts));
  return -static_cast<double>(experts) * std::expm1(miss);
}

OpResult moe(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& logits = in[1];
  if (x.size() != 2 || logits.size() != 2)
    throw ShapeMismatch("moe takes x [tokens, hidden] and router logits [tokens, num_experts], got " +
                        shape_to_string(x) + " and " + shape_to_string(logits));
  if (x[0] != logits[0])
    throw ShapeMismatch("moe needs one router logit row per token, got " + std::to_string(x[0]) + " tokens and " +
                        std::to_string(logits[0]) + " rows");
  ExpertShape e;
  e.experts = a.positive("num_experts");
  if (logits[1] != e.experts)
    throw ShapeMismatch("the router gives " + std::to_string(logits[1]) + " logits per token but num_experts = " +
                        std::to_string(e.experts));
  e.top_k = a.positive("top_k");
  if (e.top_k > e.experts)
    a.fail("top_k", "must be at most num_experts = " + std::to_string(e.experts) + " (got " + std::to_string(e.top_k) + ")");
  const int64_t inter = a.positive("intermediate_size");
  const int64_t h = x[1], k = e.top_k, E = e.experts, t = x[0];
  e.expert_weight_elems = checked_product({3, h, inter});
  e.tokens = t;
  e.ranks = a.positive("expert_parallel", 1);
  if (E % e.ranks != 0)
    a.fail("expert_parallel", "must divide num_experts = " + std::to_string(E) + " (got " + std::to_string(e.ranks) + ")",
           "each expert-parallel rank holds num_experts / expert_parallel whole experts");

  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.params = n.weight_elems = checked_mul(E / e.ranks, e.expert_weight_elems);
  int64_t macs = checked_mul(k, e.expert_weight_elems);
  int64_t other = (5 * E - 2) + k * (E - 1) + (2 * k - 1) + checked_product({6, k, inter}) + checked_mul(2 * k - 1, h);
  int64_t input = E + 4 * k + checked_product({2, k, h}) + checked_product({3, k, inter});
  int64_t output = 3 * k + checked_product({3, k, inter}) + checked_mul(k, h) + h;
  n.macs = checked_mul(t, macs);
  n.flops = checked_mul(t, checked_add(checked_mul(2, macs), other));
  n.input_elems = checked_mul(t, input);
  n.output_elems = checked_mul(t, output);
  n.kernels = 6;
  n.quantizable = true;
  n.bwd_input_macs = n.bwd_weight_macs = n.macs;
  n.bwd_input_other_flops = checked_mul(t, checked_product({13, k, inter}) + checked_product({2, k, h}) + 4 * E - 1);
  n.saves_input = true;
  n.saved_aux_bytes = checked_mul(t, checked_product({3, k, inter, 4}));
  n.experts = e;
  return r;
}

}  // namespace ridge::ops
