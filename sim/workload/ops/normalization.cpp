// Normalisation layers.
// batchnorm (over channel dim 0 of [C, ...]): 2 parameters per channel (affine);
//   forward 2 FLOPs per element (scale and shift, mean and variance folded in, as in
//   inference and in ptflops' convention); backward: input gradient 6 per element
//   (x-hat, two reductions, the combination), weight gradient 3 (dgamma, dbeta sums).
// local_response_norm (AlexNet, across `size` channels): per element, size squares
//   and size-1 adds, then k + alpha/n * sum (2), a power and a divide: 2*size + 3.
//   Saved as PyTorch computes it (F.local_response_norm: square, zero-pad the channels,
//   average over `size`, scale and shift, power, divide; each op keeps what its own
//   backward reads): the input, the padded squares ((C + size - 1) x H x W, kept by the
//   average pool), the base k + alpha/n * sum (kept by the power) and the power (kept by
//   the divide), in the activation dtype; not the output.
// layernorm (over the last dim D, PyTorch's LayerNorm(D)): parameters gamma and beta,
//   2D (D without bias, 0 without elementwise_affine). Statistics are per sample, so
//   unlike batchnorm nothing folds away at inference. Per row of D:
//   mean D (D-1 adds + 1 divide), centre D, variance 2D (D squares, D-1 adds, 1 divide),
//   add eps + rsqrt 2, normalise D multiplies = 5D + 2; gamma D multiplies and beta D
//   adds make 7D + 2. Backward per element: input gradient 10 (recompute x-hat 2,
//   g = dy*gamma 1, the row sums of g and g*x-hat 3, rstd*(g - mean g - x-hat*mean gx) 4;
//   9 without gamma), weight gradient 3 (dgamma = sum dy*x-hat 2, dbeta = sum dy 1).
//   Saved: the input and per-row mean and rstd in fp32.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

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
  n.saved_step_bytes = checked_mul(c, 2 * 4);  // the batch's mean and 1/std per channel, fp32, once per step
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
  n.saves_input = true;
  int64_t plane = n.input_elems / x[0];
  n.saved_aux_elems = checked_add(checked_mul(checked_add(x[0], size - 1), plane), checked_mul(2, n.input_elems));
  return r;
}

}  // namespace ridge::ops

namespace ridge::ops {

namespace {
// The features a row-wise norm normalises over: the input's last dimension, checked
// against `normalized_shape` when the file states it; `eps`, when given, must be positive.
int64_t normalized_features(TomlFields& a, const Shape& x, const std::string& op) {
  if (x.empty()) throw ShapeMismatch(op + " needs an input with at least one dimension");
  int64_t d = x.back();
  if (auto declared = a.optional_integer("normalized_shape"); declared && *declared != d)
    throw ShapeMismatch("normalized_shape = " + std::to_string(*declared) + " but the input " + shape_to_string(x) +
                        " has " + std::to_string(d) + " features in its last dimension");
  if (auto eps = a.optional_number("eps"); eps && *eps <= 0) a.fail("eps", "must be positive");
  return d;
}
}  // namespace

OpResult layernorm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  int64_t d = normalized_features(a, x, "layernorm");
  bool affine = a.boolean("elementwise_affine", true);
  bool bias = a.boolean("bias", true);
  if (!affine && a.has("bias")) a.fail("bias", "has no meaning without elementwise_affine");
  int64_t gamma = affine ? d : 0;
  int64_t beta = affine && bias ? d : 0;
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.params = n.weight_elems = gamma + beta;
  n.input_elems = n.output_elems = element_count(x);
  int64_t rows = n.input_elems / d;
  n.flops = checked_add(checked_mul(rows, checked_mul(5, d) + 2), checked_mul(n.input_elems, affine + (beta > 0)));
  n.bwd_input_other_flops = checked_mul(affine ? 10 : 9, n.input_elems);
  n.bwd_weight_other_flops = checked_mul((affine ? 2 : 0) + (beta > 0), n.input_elems);
  n.saves_input = true;
  n.saved_aux_bytes = checked_mul(rows, 2 * 4);  // mean and rstd per row, fp32
  return r;
}

}  // namespace ridge::ops

// rmsnorm (over the last dim D, as LLaMA's RMSNorm): y = x / sqrt(mean(x^2) + eps) x
//   gamma; D parameters (gamma), no bias. Per row of D: squares D, sum D-1, divide 1,
//   add eps 1, rsqrt 1, normalise D multiplies, gamma D multiplies = 4D + 2 (3D + 2
//   without elementwise_affine). Backward per element: input gradient 7 (g = dy*gamma 1,
//   x-hat again 1, the row sum of g*x-hat 2, rstd*(g - x-hat*mean) 3; 6 without gamma),
//   weight gradient 2 (dgamma = sum dy*x-hat). Saved: the input and rstd per row (fp32).
namespace ridge::ops {

OpResult rmsnorm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  int64_t d = normalized_features(a, x, "rmsnorm");
  bool affine = a.boolean("elementwise_affine", true);
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.params = n.weight_elems = affine ? d : 0;
  n.input_elems = n.output_elems = element_count(x);
  int64_t rows = n.input_elems / d;
  n.flops = checked_mul(rows, checked_add(checked_mul(affine ? 4 : 3, d), 2));
  n.bwd_input_other_flops = checked_mul(affine ? 7 : 6, n.input_elems);
  n.bwd_weight_other_flops = affine ? checked_mul(2, n.input_elems) : 0;
  n.saves_input = true;
  n.saved_aux_bytes = checked_mul(rows, 4);  // rstd per row, fp32
  return r;
}

}  // namespace ridge::ops

// instancenorm (PyTorch's InstanceNorm2d with affine, ONNX InstanceNormalization):
//   input [C, ...]; each channel of one sample is normalised over its D = H x W
//   positions, as layernorm normalises a row: 5D + 2 per channel, then the per-channel
//   scale and shift D + D: 7D + 2 per channel; 2C parameters. Backward as layernorm's
//   per element (input gradient 10, weight gradient 3). Saved: the input and per-channel
//   mean and rstd (fp32).
// groupnorm (PyTorch's GroupNorm, ONNX GroupNormalization): input [C, ...] in
//   num_groups groups of C / G channels; each group of one sample, D = C / G x
//   positions elements, normalised as layernorm's row (5D + 2), then the scale and
//   shift per element (2 each, when affine): G (5D + 2) + 2 x elements. Parameters 2C
//   (a scale and a shift per channel; per_group_affine: per group, 2G, as opset 18's
//   GroupNormalization has them). Backward and saved as instancenorm's, per group.
namespace ridge::ops {

namespace {

// x [C, ...] normalised in `groups` groups of channels (each over its channels and
// positions), with `affine_params` parameters scaling and shifting every element when affine.
OpResult grouped_norm(const Shape& x, int64_t groups, bool affine, int64_t affine_params) {
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.params = n.weight_elems = affine ? affine_params : 0;
  n.input_elems = n.output_elems = element_count(x);
  const int64_t d = n.input_elems / groups;
  n.flops = checked_add(checked_mul(groups, checked_mul(5, d) + 2), affine ? checked_mul(2, n.input_elems) : 0);
  n.bwd_input_other_flops = checked_mul(affine ? 10 : 9, n.input_elems);
  n.bwd_weight_other_flops = affine ? checked_mul(3, n.input_elems) : 0;
  n.saves_input = true;
  n.saved_aux_bytes = checked_mul(groups, 2 * 4);
  return r;
}

}  // namespace

OpResult groupnorm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2) throw ShapeMismatch("groupnorm needs a [C, ...] input, got " + shape_to_string(x));
  if (auto eps = a.optional_number("eps"); eps && *eps <= 0) a.fail("eps", "must be positive");
  const int64_t groups = a.positive("num_groups");
  const int64_t c = x[0];
  if (c % groups)
    throw ShapeMismatch("num_groups = " + std::to_string(groups) + " does not divide the input's " +
                        std::to_string(c) + " channels");
  const bool affine = a.boolean("affine", true);
  const bool per_group = a.boolean("per_group_affine", false);
  return grouped_norm(x, groups, affine, 2 * (per_group ? groups : c));
}

OpResult instancenorm(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2) throw ShapeMismatch("instancenorm needs a [C, ...] input, got " + shape_to_string(x));
  if (auto eps = a.optional_number("eps"); eps && *eps <= 0) a.fail("eps", "must be positive");
  const bool affine = a.boolean("affine", true);
  return grouped_norm(x, x[0], affine, 2 * x[0]);  // each channel its own group
}

}  // namespace ridge::ops
