// Einsum of two operands as the product it is (sim/workload/einsum_equation.hpp):
// `equation` ("bhqd,bhkd->bhqk") names each operand's axes and the output's, per sample
// (the batch's letter taken out). A letter in both operands and the output is a batch
// axis, one in both operands only is contracted, one in an operand and the output is free:
//   macs = the product of every distinct letter's extent (each output element sums
//          over the contracted letters), flops = 2 x macs.
// Backward: as matmul's, each operand's gradient is the product of the output's gradient
// with the other operand, macs again each; both inputs are kept.
#include "sim/base/checked_math.hpp"
#include "sim/workload/einsum_equation.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult einsum(TomlFields& a, const std::vector<Shape>& in) {
  const std::string text = a.string("equation");
  EinsumEquation e;
  try {
    e = parse_einsum(text);
  } catch (const EinsumError& err) {
    a.fail("equation", "'" + text + "' " + err.what());
  }
  EinsumProduct p;
  try {
    p = einsum_product(e, in[0], in[1]);
  } catch (const EinsumError& err) {
    throw ShapeMismatch("einsum '" + text + "': " + err.what());
  }
  OpResult r;
  r.output = p.output;
  LayerCounts& n = r.counts;
  n.input_elems = checked_add(element_count(in[0]), element_count(in[1]));
  n.output_elems = element_count(r.output);
  n.macs = p.macs;
  n.flops = checked_mul(2, n.macs);
  n.bwd_input_macs = checked_mul(2, n.macs);
  n.saves_input = true;
  return r;
}

}  // namespace ridge::ops
