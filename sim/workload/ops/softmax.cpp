// Softmax over the last dimension, y = exp(x - max(x)) / sum(exp(x - max(x))), as
// PyTorch's softmax(x, dim=-1) computes it (the max subtraction keeps exp finite).
// Each elementary operation is 1 FLOP, exp included. Per row of D elements:
//   max D-1 comparisons + subtract D + exp D + sum D-1 adds + divide D = 5D - 2.
// Backward, dx = y * (dy - sum(dy * y)) per row: D multiplies, D-1 adds, D subtracts,
// D multiplies = 4D - 1; it needs the output y, not the input.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult softmax(TomlFields&, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("softmax needs an input with at least one dimension");
  int64_t d = x.back();
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(x);
  int64_t rows = n.input_elems / d;
  n.flops = checked_mul(rows, checked_mul(5, d) - 2);
  n.bwd_input_other_flops = checked_mul(rows, checked_mul(4, d) - 1);
  n.saves_output = true;
  return r;
}

}  // namespace ridge::ops
