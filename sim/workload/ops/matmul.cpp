// Product of two activations (torch.matmul without broadcasting): A [..., M, K] times
// B [..., K, N] gives [..., M, N], batched over leading dimensions that must be equal
// (attention: Q [h, S, d] . K^T and weights [h, S, S] . V). transpose_a reads A as
// [..., K, M], transpose_b reads B as [..., N, K] (Q . K^T is transpose_b = true);
// the transposition is folded into the product, moving no data.
//   macs = batch x M x N x K, flops = 2 x macs (no bias).
// Backward: both operands are activations, so both gradients are input gradients:
// dA = dY . B^T and dB = A^T . dY, batch x M x N x K MACs each; both inputs are kept.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult matmul(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& y = in[1];
  if (x.size() < 2 || y.size() < 2)
    throw ShapeMismatch("matmul needs two inputs of at least two dimensions, got " + shape_to_string(x) + " and " +
                        shape_to_string(y));
  if (x.size() != y.size() || !std::equal(x.begin(), x.end() - 2, y.begin()))
    throw ShapeMismatch("matmul needs equal leading (batch) dimensions, got " + shape_to_string(x) + " and " +
                        shape_to_string(y));
  bool ta = a.boolean("transpose_a", false);
  bool tb = a.boolean("transpose_b", false);
  size_t r2 = x.size() - 2;
  int64_t m = ta ? x[r2 + 1] : x[r2];
  int64_t k = ta ? x[r2] : x[r2 + 1];
  int64_t k2 = tb ? y[r2 + 1] : y[r2];
  int64_t n_cols = tb ? y[r2] : y[r2 + 1];
  if (k != k2)
    throw ShapeMismatch("matmul inner dimensions differ: A gives K = " + std::to_string(k) + ", B gives K = " +
                        std::to_string(k2) + (tb ? " (B transposed)" : "") + (ta ? " (A transposed)" : ""));
  OpResult r;
  r.output.assign(x.begin(), x.end() - 2);
  r.output.push_back(m);
  r.output.push_back(n_cols);
  LayerCounts& n = r.counts;
  n.input_elems = checked_add(element_count(x), element_count(y));
  n.output_elems = element_count(r.output);
  n.macs = checked_mul(n.output_elems, k);  // batch x M x N x K
  n.flops = checked_mul(2, n.macs);
  n.bwd_input_macs = checked_mul(2, n.macs);
  n.saves_input = true;
  return r;
}

}  // namespace ridge::ops
