// Normalisation layers.
// batchnorm (over channel dim 0 of [C, ...]): 2 parameters per channel (affine);
//   forward 2 FLOPs per element (scale and shift, mean and variance folded in, as in
//   inference and in ptflops' convention); backward: input gradient 6 per element
//   (x-hat, two reductions, the combination), weight gradient 3 (dgamma, dbeta sums).
// local_response_norm (AlexNet, across `size` channels): per element, size squares
//   and size-1 adds, then k + alpha/n * sum (2), a power and a divide: 2*size + 3.
#include "sim/checked_math.hpp"
#include "sim/ops/ops.hpp"

namespace ridge::ops {

OpResult batchnorm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2) throw ShapeMismatch("batchnorm needs a [C, ...] input, got " + shape_to_string(x));
  int64_t c = x[0];
  if (auto declared = a.optional_integer("num_features"); declared && *declared != c)
    throw ShapeMismatch("num_features = " + std::to_string(*declared) + " but the input " + shape_to_string(x) +
                        " has " + std::to_string(c) + " channels");
  bool affine = a.boolean("affine", true);
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.params = n.weight_elems = affine ? 2 * c : 0;
  n.input_elems = n.output_elems = element_count(x);
  n.flops = checked_mul(2, n.input_elems);
  n.bwd_input_other_flops = checked_mul(6, n.input_elems);
  n.bwd_weight_other_flops = affine ? checked_mul(3, n.input_elems) : 0;
  n.saves_input = true;
  n.saved_aux_bytes = 2 * c * 4;  // per-channel mean and inverse std, fp32
  return r;
}

OpResult local_response_norm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2) throw ShapeMismatch("local_response_norm needs a [C, ...] input, got " + shape_to_string(x));
  int64_t size = a.positive("size");
  // alpha, beta and k change the values, not the cost; read them so files may state them.
  for (const char* key : {"alpha", "beta", "k"})
    if (auto v = a.optional_number(key); v && *v < 0) a.fail(key, "must not be negative");
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(x);
  n.flops = checked_mul(2 * size + 3, n.input_elems);
  n.bwd_input_other_flops = checked_mul(2, n.flops);
  n.saves_input = n.saves_output = true;
  return r;
}

}  // namespace ridge::ops
