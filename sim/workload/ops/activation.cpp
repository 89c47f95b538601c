// Element-wise activations. FLOPs per element count each elementary operation once,
// a transcendental (exp, tanh, erf) included:
//   relu max(x,0): 1          relu6 min(max(x,0),6): 2     tanh: 1
//   sigmoid 1/(1+exp(-x)): 4  silu x*sigmoid(x): 5         gelu 0.5x(1+erf(x/sqrt2)): 5
//   hardswish x*min(max(x+3,0),6)/6: 5      hardsigmoid min(max(x/6+0.5,0),1): 4
//   erf: 1   sqrt: 1   exp: 1   pow x^c (c a constant): 1
//   leaky_relu max(x,0)+a*min(x,0) (a select and a multiply): 2   prelu: the same, a
//     learned slope per channel (num_parameters = 1 or C) or one for all
//   elu x>0 ? x : a(exp(x)-1) (exp, subtract, multiply, select): 4   selu: elu x scale: 5
//   softplus log(1+exp(x)): 3   mish x*tanh(softplus(x)): 5
//   clip min(max(x,lo),hi): 1 per bound given (min, max; none: a copy, 0)
//   reciprocal 1/x: 1   sin: 1   cos: 1
// Backward per element: the derivative from the saved tensor plus one multiply by the
// incoming gradient: relu 1 (a select), relu6 3, tanh 1-y^2 3, sigmoid y(1-y) 3,
// silu / gelu / hardswish 6 (forward again + 1), hardsigmoid 2 (a select, a scaled
// multiply), erf 4 (2/sqrt(pi)*exp(-x^2): square, negate, exp, multiply) + 1, sqrt
// 0.5/y 2, exp y 1, pow c*x^(c-1) 3, leaky_relu / prelu 2 (a select, a multiply; prelu's
// slope gradient sum g*min(x,0) 2 more), elu a*exp(x) 4 (exp, 2 multiplies, a select),
// selu 5, softplus sigmoid(x)*g 5 (negate, exp, add, divide, multiply), mish 14 (softplus
// 3, tanh 1, sech^2 = 1 - t^2 2, sigmoid 4, x*sech^2*sigmoid 2, + tanh 1, x g 1), clip
// one compare per bound + a multiply, reciprocal -g*y^2 3, sin / cos g*cos(x) 2.
// `inplace = true` overwrites the input.
// Saved for backward, as PyTorch's autograd saves it: relu, tanh, sigmoid, sqrt and exp
// (and reciprocal) their output; the others their input. relu6 is PyTorch's hardtanh(0, 6), whose
// backward reads the input (a select on 0 < x < 6), so an in-place relu6 keeps a copy
// of its input beside the overwritten storage (measured: scripts/measure-saved-activations).
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

enum class Keeps { input, output };

OpResult elementwise(TomlFields& a, const std::vector<Shape>& in, int64_t flops_per_elem, int64_t bwd_per_elem,
                     Keeps keeps) {
  OpResult r;
  r.output = in[0];
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(in[0]);
  n.flops = checked_mul(n.input_elems, flops_per_elem);
  n.bwd_input_other_flops = checked_mul(n.input_elems, bwd_per_elem);
  n.inplace = a.boolean("inplace", false);
  (keeps == Keeps::input ? n.saves_input : n.saves_output) = true;
  return r;
}

}  // namespace

OpResult relu(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 1, Keeps::output); }
OpResult relu6(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 2, 3, Keeps::input); }
OpResult tanh(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 3, Keeps::output); }
OpResult sigmoid(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 4, 3, Keeps::output); }
OpResult silu(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 5, 6, Keeps::input); }
OpResult gelu(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 5, 6, Keeps::input); }
OpResult hardswish(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 5, 6, Keeps::input); }
OpResult hardsigmoid(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 4, 2, Keeps::input); }
OpResult erf(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 5, Keeps::input); }
OpResult sqrt(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 2, Keeps::output); }
OpResult exp(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 1, Keeps::output); }
OpResult leaky_relu(TomlFields& a, const std::vector<Shape>& in) {
  a.optional_number("negative_slope");  // changes the values, not the cost
  return elementwise(a, in, 2, 2, Keeps::input);
}
OpResult prelu(TomlFields& a, const std::vector<Shape>& in) {
  const int64_t p = a.positive("num_parameters", 1);
  if (p != 1 && (in[0].empty() || p != in[0][0]))
    throw ShapeMismatch("prelu's num_parameters = " + std::to_string(p) + " must be 1 or the input's channels (" +
                        (in[0].empty() ? std::string("none") : std::to_string(in[0][0])) + ")");
  OpResult r = elementwise(a, in, 2, 2, Keeps::input);
  r.counts.params = r.counts.weight_elems = p;
  r.counts.bwd_weight_other_flops = checked_mul(2, r.counts.input_elems);
  return r;
}
OpResult elu(TomlFields& a, const std::vector<Shape>& in) {
  a.optional_number("alpha");
  return elementwise(a, in, 4, 4, Keeps::input);
}
OpResult selu(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 5, 5, Keeps::input); }
OpResult softplus(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 3, 5, Keeps::input); }
OpResult mish(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 5, 14, Keeps::input); }
OpResult clip(TomlFields& a, const std::vector<Shape>& in) {
  const int64_t bounds = (a.optional_number("min") ? 1 : 0) + (a.optional_number("max") ? 1 : 0);
  return elementwise(a, in, bounds, bounds + 1, Keeps::input);
}
OpResult reciprocal(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 3, Keeps::output); }
OpResult sin(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 2, Keeps::input); }
OpResult cos(TomlFields& a, const std::vector<Shape>& in) { return elementwise(a, in, 1, 2, Keeps::input); }
OpResult pow(TomlFields& a, const std::vector<Shape>& in) {
  if (!a.optional_number("exponent")) a.fail("exponent", "is required (the constant power)");
  return elementwise(a, in, 1, 3, Keeps::input);
}

}  // namespace ridge::ops
