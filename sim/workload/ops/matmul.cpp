// Product of two activations (torch.matmul): A [..., M, K] times B [..., K, N] gives
// [..., M, N], batched over the leading dimensions, which broadcast as numpy's do
// (aligned from the right, each pair equal or one of them 1; attention: Q [h, S, d] . K^T
// and weights [h, S, S] . V; a per-head weight [h, K, N] times x [1, S, K]). transpose_a reads A as
// [..., K, M], transpose_b reads B as [..., N, K] (Q . K^T is transpose_b = true);
// the transposition is folded into the product, moving no data.
//   macs = batch x M x N x K (batch: the broadcast leading dimensions' product),
//   flops = 2 x macs (no bias).
// Backward: both operands are activations, so both gradients are input gradients:
// dA = dY . B^T and dB = A^T . dY, batch x M x N x K MACs each; both inputs are kept.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult matmul(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& y = in[1];
  if (x.size() < 2 || y.size() < 2)
    throw ShapeMismatch("matmul needs two inputs of at least two dimensions, got " + shape_to_string(x) + " and " +
                        shape_to_string(y));
  Shape lead(std::max(x.size(), y.size()) - 2, 1);  // the broadcast leading dimensions
  for (size_t i = 0; i < lead.size(); ++i) {
    const size_t from_right = lead.size() - i;  // 1 for the last leading axis
    const int64_t dx = from_right + 2 <= x.size() ? x[x.size() - 2 - from_right] : 1;
    const int64_t dy = from_right + 2 <= y.size() ? y[y.size() - 2 - from_right] : 1;
    if (dx != dy && dx != 1 && dy != 1)
      throw ShapeMismatch("matmul's leading (batch) dimensions do not broadcast, got " + shape_to_string(x) + " and " +
                          shape_to_string(y));
    lead[i] = dx == 1 ? dy : dx;
  }
  bool ta = a.boolean("transpose_a", false);
  bool tb = a.boolean("transpose_b", false);
  const size_t rx = x.size() - 2, ry = y.size() - 2;
  int64_t m = ta ? x[rx + 1] : x[rx];
  int64_t k = ta ? x[rx] : x[rx + 1];
  int64_t k2 = tb ? y[ry + 1] : y[ry];
  int64_t n_cols = tb ? y[ry] : y[ry + 1];
  if (k != k2)
    throw ShapeMismatch("matmul inner dimensions differ: A gives K = " + std::to_string(k) + ", B gives K = " +
                        std::to_string(k2) + (tb ? " (B transposed)" : "") + (ta ? " (A transposed)" : ""));
  OpResult r;
  r.output = lead;
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
