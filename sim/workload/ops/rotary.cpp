// Rotary position embedding (RoFormer, Su et al. 2021; LLaMA's apply_rotary_pos_emb):
// each head's pairs of features (x1, x2) are rotated by their position's angle,
// (x1 cos - x2 sin, x2 cos + x1 sin). Input and output [S, heads x head_dim] (the q or
// the k projection); head_dim must be even. Per element: 2 multiplies and 1 add = 3
// FLOPs, as a fused rotary kernel computes it. Besides its input it reads the cos and
// sin of the S positions from a precomputed table, head_dim / 2 of each per position
// (S x head_dim elements); the table is a buffer, not a parameter. Backward: the
// rotation by the opposite angle, 3 FLOPs per element; nothing is saved.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult rotary(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() != 2) throw ShapeMismatch("rotary takes [tokens, heads x head_dim], got " + shape_to_string(x));
  int64_t d = a.positive("head_dim");
  if (d % 2 != 0) a.fail("head_dim", "must be even: rotary rotates pairs of features (got " + std::to_string(d) + ")");
  if (x[1] % d != 0)
    throw ShapeMismatch("the input's " + std::to_string(x[1]) + " features are not whole heads of head_dim = " +
                        std::to_string(d));
  if (auto base = a.optional_number("base"); base && *base <= 0) a.fail("base", "must be positive");
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.output_elems = element_count(x);
  n.input_elems = checked_add(n.output_elems, checked_mul(x[0], d));  // + cos and sin rows
  n.flops = checked_mul(3, n.output_elems);
  n.bwd_input_other_flops = n.flops;
  return r;
}

}  // namespace ridge::ops
