// Element-wise activations. FLOPs per element count each elementary operation once,
// a transcendental (exp, tanh, erf) included:
//   relu max(x,0): 1          relu6 min(max(x,0),6): 2     tanh: 1
//   sigmoid 1/(1+exp(-x)): 4  silu x*sigmoid(x): 5         gelu 0.5x(1+erf(x/sqrt2)): 5
//   hardswish x*min(max(x+3,0),6)/6: 5      hardsigmoid min(max(x/6+0.5,0),1): 4
//   erf: 1   sqrt: 1   exp: 1   pow x^c (c a constant): 1
// Backward per element: the derivative from the saved tensor plus one multiply by the
// incoming gradient: relu 1 (a select), relu6 3, tanh 1-y^2 3, sigmoid y(1-y) 3,
// silu / gelu / hardswish 6 (forward again + 1), hardsigmoid 2 (a select, a scaled
// multiply), erf 4 (2/sqrt(pi)*exp(-x^2): square, negate, exp, multiply) + 1, sqrt
// 0.5/y 2, exp y 1, pow c*x^(c-1) 3. `inplace = true` overwrites the input.
// Saved for backward, as PyTorch's autograd saves it: relu, tanh, sigmoid, sqrt and exp
// their output; the others their input. relu6 is PyTorch's hardtanh(0, 6), whose
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
OpResult pow(TomlFields& a, const std::vector<Shape>& in) {
  if (!a.optional_number("exponent")) a.fail("exponent", "is required (the constant power)");
  return elementwise(a, in, 1, 3, Keeps::input);
}

}  // namespace ridge::ops
