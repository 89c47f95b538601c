// Gated MLP activations (Shazeer, "GLU Variants Improve Transformer", 2020): the two
// projections gate and up (equal shapes) give act(gate) x up, the input of the down
// projection. swiglu: act = silu (LLaMA, Mistral); geglu: act = gelu (Gemma).
// Per element: the activation 5 (as sim/workload/ops/activation.cpp counts silu and
// gelu) + the gating multiply 1 = 6 FLOPs; one kernel reads both inputs and writes the
// output. Backward per element: the activation again 5, d_up = dy x act 1, the
// activation's derivative 5, d_gate = dy x up x act' 2 = 13; both inputs are kept.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {
OpResult gated(const std::vector<Shape>& in, const char* name) {
  if (in[0] != in[1])
    throw ShapeMismatch(std::string(name) + " needs gate and up of one shape, got " + shape_to_string(in[0]) + " and " +
                        shape_to_string(in[1]));
  OpResult r;
  r.output = in[0];
  LayerCounts& n = r.counts;
  n.output_elems = element_count(in[0]);
  n.input_elems = checked_mul(2, n.output_elems);
  n.flops = checked_mul(6, n.output_elems);
  n.bwd_input_other_flops = checked_mul(13, n.output_elems);
  n.saves_input = true;
  return r;
}
}  // namespace

OpResult swiglu(TomlFields&, const std::vector<Shape>& in) { return gated(in, "swiglu"); }
OpResult geglu(TomlFields&, const std::vector<Shape>& in) { return gated(in, "geglu"); }

}  // namespace ridge::ops
