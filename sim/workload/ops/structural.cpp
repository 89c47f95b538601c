// Layers that move data without weights: dropout (a mask multiply in training,
// nothing at inference), flatten (a view: no data moved), and
// unmodelled: a stand-in for an imported node ridge does not model (--allow-unknown):
//   its first input's shape, zero cost; `onnx_op` names what it stands for.
// scale: multiply by a constant (attention's 1/sqrt(d)), 1 per element forward and
//   1 per element backward (dY*c); nothing kept.

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult dropout(TomlFields& a, const std::vector<Shape>& in) {
  if (auto p = a.optional_number("p"); p && (*p < 0 || *p >= 1)) a.fail("p", "must be in [0, 1)");
  OpResult r;
  r.output = in[0];
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(in[0]);
  n.flops = n.input_elems;                 // x * scaled mask
  n.bwd_input_other_flops = n.input_elems;  // grad * scaled mask
  n.saved_aux_bytes = n.input_elems;       // one byte of mask per element
  n.identity_at_inference = true;
  n.inplace = a.boolean("inplace", false);
  return r;
}

OpResult flatten(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  // start_dim counts per-sample dimensions (PyTorch's flatten(x, 1) is start_dim = 0).
  int64_t start = a.positive("start_dim", 0, true);
  if (start >= static_cast<int64_t>(x.size()) && !x.empty())
    a.fail("start_dim", "is past the input's last dimension (input " + shape_to_string(x) + ")");
  OpResult r;
  r.output.assign(x.begin(), x.begin() + std::min<int64_t>(start, x.size()));
  int64_t tail = 1;
  for (size_t i = start; i < x.size(); ++i) tail = checked_mul(tail, x[i]);
  r.output.push_back(tail);
  r.counts.is_view = true;
  return r;
}

OpResult scale(TomlFields& a, const std::vector<Shape>& in) {
  a.number("factor");  // checked (number() refuses nan, inf and subnormals); the value costs nothing
  OpResult r;
  r.output = in[0];
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = n.flops = element_count(in[0]);
  n.bwd_input_other_flops = n.output_elems;
  n.inplace = a.boolean("inplace", false);
  return r;
}

OpResult unmodelled(TomlFields& a, const std::vector<Shape>& in) {
  a.string("onnx_op");
  OpResult r;
  r.output = in[0];
  r.counts.is_view = true;
  return r;
}

}  // namespace ridge::ops
