// Element-wise arithmetic of activations with numpy broadcasting (shapes right-aligned,
// each dimension equal or 1; the output has the larger of each). Counted per output
// element:
// add: n inputs, n-1 adds; the gradient passes through to equal-shaped inputs.
// sub: two inputs, 1 subtract; backward like add (dB = -dY is folded into the update).
// mul: two inputs, 1 multiply; backward dA = dY*B and dB = dY*A, 2 per element, and
//   both inputs are kept.
// div: two inputs, 1 divide; backward dA = dY/B (1) and dB = -dY*Y/B (2), 3 per
//   element, inputs kept.
// compare: two inputs, 1 compare, logic op, min or max (ONNX Greater, Less, Equal,
//   And, Or, Min, Max of activations), counted as sub.
// where: condition, x, y -> x where the condition holds, else y (ONNX Where of three
//   activations): 1 select per output element, counted as sub.
// A broadcast input's gradient is summed over its broadcast positions: one add per
// output element beyond its own count (output elements - its elements).
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

// Output shape, inputs read, and the gradient reductions of broadcast inputs.
OpResult broadcast(const std::vector<Shape>& in, const char* op) {
  OpResult r;
  r.output = in[0];
  for (size_t i = 1; i < in.size(); ++i) {
    std::optional<Shape> s = broadcast_shape(r.output, in[i]);
    if (!s)
      throw ShapeMismatch(std::string(op) + " needs shapes that broadcast (each dimension equal or 1, aligned from "
                          "the right), got " + shape_to_string(r.output) + " and " + shape_to_string(in[i]));
    r.output = *s;
  }
  LayerCounts& n = r.counts;
  n.output_elems = element_count(r.output);
  for (const Shape& s : in) {
    int64_t elems = element_count(s);
    n.input_elems = checked_add(n.input_elems, elems);
    n.bwd_input_other_flops = checked_add(n.bwd_input_other_flops, n.output_elems - elems);
  }
  return r;
}

}  // namespace

OpResult add(TomlFields&, const std::vector<Shape>& in) {
  OpResult r = broadcast(in, "add");
  r.counts.flops = checked_mul(r.counts.output_elems, static_cast<int64_t>(in.size()) - 1);
  return r;
}

OpResult sub(TomlFields&, const std::vector<Shape>& in) {
  OpResult r = broadcast(in, "sub");
  r.counts.flops = r.counts.output_elems;
  return r;
}

OpResult compare(TomlFields& a, const std::vector<Shape>& in) { return sub(a, in); }

OpResult where(TomlFields& a, const std::vector<Shape>& in) { return sub(a, in); }

namespace {

// mul and div: one op per output element, `backward` per output element, inputs kept.
OpResult product(const std::vector<Shape>& in, const char* op, int64_t backward) {
  OpResult r = broadcast(in, op);
  LayerCounts& n = r.counts;
  n.flops = n.output_elems;
  n.bwd_input_other_flops = checked_add(n.bwd_input_other_flops, checked_mul(backward, n.output_elems));
  n.saves_input = true;
  return r;
}

}  // namespace

OpResult mul(TomlFields&, const std::vector<Shape>& in) { return product(in, "mul", 2); }

OpResult div(TomlFields&, const std::vector<Shape>& in) {
  OpResult r = product(in, "div", 3);
  r.counts.saves_output = true;  // dB = -dY * Y / B
  return r;
}

}  // namespace ridge::ops
