// Scaled dot-product attention as one layer: softmax(Q K^T / sqrt(d)) V over `heads`
// query heads of `head_dim`, sharing `kv_heads` key/value heads (multi-head when
// kv_heads = heads, grouped-query when it divides heads, multi-query when 1).
// Inputs: q [S, heads x head_dim], k and v [S, kv_heads x head_dim] (the projections of
// the S new tokens). Output [S, heads x head_dim]. With a KV cache (phases prefill and
// decode) the S new tokens also attend to C cached ones: T = C + S keys per query.
//
// Query-key pairs computed per head, P:
//   not causal, or causal with the masked pairs computed (the default): S x T
//   causal with skip_masked = true (FlashAttention-style, fused only): S x C + S(S+1)/2,
//     the pairs above the diagonal are neither computed nor counted.
// With a sliding window W (`window`, causal only) a query attends to at most W keys, its
// own included: the cached keys seen are min(C, W - 1) (T shrinks to that + S), and
// with skip_masked query i (from 0) of the S new ones pairs with min(C + i + 1, W) keys.
// Per sample:
//   macs  = 2 x heads x head_dim x P            (Q K^T and P V)
//   flops = 2 x macs + heads x (6P - 2S)        (per score: the 1/sqrt(d) scale 1 and
//           softmax 5 (max, subtract, exp, sum, divide), less 2 per row of the max and
//           sum reductions) + heads x P when the causal mask is added to computed scores.
// Traffic (activation dtype):
//   fused (attention = "fused"): one kernel reads q, k, v of the new tokens and writes
//     the output; the scores live on chip. Tile re-reads of K and V are served on chip
//     and not counted.
//   unfused (the default): three kernels, Q K^T (scale folded into it) writing the
//     heads x S x T scores, a masked softmax reading them and writing probabilities, and
//     P V reading those: input = q + k + v + 2 x scores, output = 2 x scores + the output.
// KV cache (its own `kv` stream, in the cache's dtype): 2 x kv_heads x head_dim elements
// per token, written for each new token and read for each cached one. Grouped-query
// heads read the shared K/V heads directly (no repeated copies, as SDPA kernels do).
// Backward (training): fused recomputes the scores: 5 products of heads x head_dim x P
// (S, dV, dP, dQ, dK) and 5 FLOPs per score (exp again 2, dS = P (dP - rowsum) 3), keeps
// q, k, v, the output and per-row log-sum-exp (fp32); unfused 4 products, 3 FLOPs per
// score, and keeps its inputs and the probabilities (fp32, as autocast runs softmax).
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

// Sum over the S new queries of the keys each sees: min(C + i + 1, W) for i = 0..S-1
// (W = 0: no window, C + i + 1).
int64_t causal_pairs(int64_t s, int64_t cached, int64_t window) {
  // Queries whose C + i + 1 stays within the window: they see C + i + 1 keys each.
  const int64_t inside = window > 0 ? std::clamp<int64_t>(window - cached, 0, s) : s;
  const int64_t ramp = checked_add(checked_mul(inside, cached), inside * (inside + 1) / 2);
  return checked_add(ramp, checked_mul(s - inside, window));
}

}  // namespace

LayerCounts attention_counts(const AttentionShape& a, int64_t cached) {
  const int64_t s = a.queries;
  const int64_t t = checked_add(a.visible(cached), s);
  const int64_t full = checked_mul(s, t);
  const int64_t pairs = a.skip_masked ? causal_pairs(s, cached, a.window) : full;
  const int64_t hp = checked_mul(a.heads, pairs);
  const int64_t q_elems = checked_product({s, a.heads, a.head_dim});
  const int64_t kv_new = checked_product({2, s, a.kv_heads, a.head_dim});
  LayerCounts n;
  n.macs = checked_product({2, a.head_dim, hp});
  int64_t other = checked_mul(6, hp) - checked_product({2, a.heads, s});  // 6P >= 2S: P >= S
  if (a.causal && !a.skip_masked) other = checked_add(other, hp);  // the mask added to every computed score
  n.flops = checked_add(checked_mul(2, n.macs), other);
  n.output_elems = q_elems;
  n.input_elems = checked_add(q_elems, kv_new);
  n.kernels = 1;
  n.saves_input = true;
  if (a.fused) {
    n.bwd_input_macs = checked_product({5, a.head_dim, hp});
    n.bwd_input_other_flops = checked_mul(5, hp);
    n.saves_output = true;
    n.saved_aux_bytes = checked_product({a.heads, s, 4});
  } else {
    const int64_t scores = checked_mul(a.heads, full);
    n.input_elems = checked_add(n.input_elems, checked_mul(2, scores));
    n.output_elems = checked_add(n.output_elems, checked_mul(2, scores));
    n.kernels = 3;
    n.bwd_input_macs = checked_product({4, a.head_dim, hp});
    n.bwd_input_other_flops = checked_mul(3, hp);
    n.saved_aux_bytes = checked_mul(scores, 4);
  }
  n.attention = a;
  n.kv_elems_per_token = checked_product({2, a.kv_heads, a.head_dim});
  return n;
}

OpResult attention(TomlFields& a, const std::vector<Shape>& in) {
  for (const Shape& x : in)
    if (x.size() != 2)
      throw ShapeMismatch("attention takes q, k, v as [tokens, features] each, got " + shape_to_string(x));
  const Shape& q = in[0];
  const Shape& k = in[1];
  const Shape& v = in[2];
  if (k != v) throw ShapeMismatch("attention needs k and v of one shape, got " + shape_to_string(k) + " and " + shape_to_string(v));
  if (q[0] != k[0])
    throw ShapeMismatch("attention needs as many key tokens as query tokens (the cache comes from the run), got " +
                        std::to_string(q[0]) + " and " + std::to_string(k[0]));
  AttentionShape s;
  s.heads = a.positive("heads");
  s.kv_heads = a.positive("kv_heads", s.heads);
  if (s.heads % s.kv_heads != 0)
    a.fail("kv_heads", "must divide heads = " + std::to_string(s.heads) + " (got " + std::to_string(s.kv_heads) + ")",
           "grouped-query attention shares each K/V head among heads / kv_heads query heads");
  if (q[1] % s.heads != 0 && !a.has("head_dim"))
    throw ShapeMismatch("q has " + std::to_string(q[1]) + " features, not a multiple of heads = " + std::to_string(s.heads));
  s.head_dim = a.positive("head_dim", q[1] / s.heads);
  if (checked_mul(s.heads, s.head_dim) != q[1])
    throw ShapeMismatch("q needs heads x head_dim = " + std::to_string(s.heads * s.head_dim) + " features, got " +
                        std::to_string(q[1]));
  if (checked_mul(s.kv_heads, s.head_dim) != k[1])
    throw ShapeMismatch("k and v need kv_heads x head_dim = " + std::to_string(s.kv_heads * s.head_dim) +
                        " features, got " + std::to_string(k[1]));
  s.queries = q[0];
  s.causal = a.boolean("causal", true);
  std::string kind = a.optional_string("attention").value_or("unfused");
  if (kind != "fused" && kind != "unfused") a.fail("attention", "must be \"fused\" or \"unfused\" (got \"" + kind + "\")");
  s.fused = kind == "fused";
  s.skip_masked = a.boolean("skip_masked", false);
  if (a.has("window")) {
    s.window = a.positive("window");
    if (!s.causal) a.fail("window", "needs causal = true", "a sliding window limits how far back a causal query looks");
  }
  if (s.skip_masked && !(s.fused && s.causal))
    a.fail("skip_masked", "needs attention = \"fused\" and causal = true",
           "an unfused chain materialises the whole score matrix, so it cannot skip the masked part");
  OpResult r;
  r.output = q;
  r.counts = attention_counts(s, 0);
  return r;
}

}  // namespace ridge::ops
