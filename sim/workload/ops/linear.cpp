// Fully connected layer y = x W^T + b over the last dimension of any-rank input
// (PyTorch's nn.Linear): input [..., in_features], output [..., out_features].
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult linear(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("linear needs an input with at least one dimension");
  int64_t f = x.back();
  int64_t out = a.positive("out_features");
  bool bias = a.boolean("bias", true);
  if (auto declared = a.optional_integer("in_features"); declared && *declared != f)
    throw ShapeMismatch("in_features = " + std::to_string(*declared) + " but the input " + shape_to_string(x) +
                        " has " + std::to_string(f) + " features");
  // A weight shared with another layer (GPT-2's output projection reuses the token
  // embedding): read every pass, but owned and counted as parameters only once.
  bool tied = a.optional_string("tied_to").has_value();

  OpResult r;
  r.output = x;
  r.output.back() = out;
  LayerCounts& n = r.counts;
  int64_t rows = element_count(x) / f;
  int64_t weight = checked_mul(f, out);
  n.weight_elems = checked_add(weight, bias ? out : 0);
  n.weight_rows = out;
  n.weight_cols = f;
  n.params = checked_add(tied ? 0 : weight, bias ? out : 0);
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  n.macs = checked_mul(rows, weight);
  n.flops = checked_add(checked_mul(2, n.macs), bias ? n.output_elems : 0);
  n.epilogue_flops = bias ? n.output_elems : 0;
  n.bwd_input_macs = n.macs;
  n.bwd_weight_macs = n.macs;
  n.bwd_weight_other_flops = bias ? n.output_elems : 0;
  n.saves_input = true;
  n.gemm_positions = rows;
  n.gemm_reduction = f;
  n.quantizable = true;
  return r;
}

}  // namespace ridge::ops
