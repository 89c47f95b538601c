// The transposed convolution over R = 1, 2 or 3 spatial axes (conv_transpose1d / 2d /
// 3d: PyTorch's ConvTranspose1d / 2d / 3d, ONNX ConvTranspose): input [C, *S], output
// [out_channels, *So] with, per spatial axis, So = (S - 1) s - 2p + d (k - 1) +
// output_padding + 1. Every input element is multiplied into a prod(k) window of
// out_channels / groups outputs, so
//   macs = C x prod(S) x (out_channels / groups) x prod(k),
//   params = C x (out_channels / groups) x prod(k) (+ out_channels bias),
// flops = 2 macs (+ one bias add per output element, in the epilogue). Backward: the
// input gradient is a convolution of the same size, the weight gradient too.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"
#include "sim/workload/ops/spatial.hpp"

namespace ridge::ops {

namespace {
int64_t transposed_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t extra, const char* axis) {
  int64_t out = checked_add(checked_add(checked_mul(in - 1, s), checked_mul(d, k - 1)), extra + 1) - 2 * p;
  if (out <= 0)
    throw ShapeMismatch(std::string("the padding leaves no output ") + axis + " (input " + std::to_string(in) + ")");
  return out;
}
}  // namespace

template <int R>
OpResult conv_transpose(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = spatial_input(in, R, op_name("conv_transpose", R));
  int64_t c = x[0];
  const auto [out, k, s, p, d, groups, bias] = conv_attributes(a, R, c);
  std::vector<int64_t> extra = spatial_attr(a, "output_padding", R, 0, true);
  for (size_t i = 0; i < R; ++i)
    if (extra[i] >= std::max(s[i], d[i])) a.fail("output_padding", "must be smaller than the stride or the dilation");
  OpResult r;
  r.output = {out};
  for (size_t i = 0; i < R; ++i)
    r.output.push_back(transposed_out(x[i + 1], k[i], s[i], p[i], d[i], extra[i], axis_name(R, i)));
  LayerCounts& n = r.counts;
  int64_t per_input = checked_mul(out / groups, element_count(k));  // MACs per input element
  n.params = checked_add(checked_mul(c, per_input), bias ? out : 0);
  n.weight_elems = n.params;
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  n.macs = checked_mul(n.input_elems, per_input);
  n.flops = checked_add(checked_mul(2, n.macs), bias ? n.output_elems : 0);
  n.epilogue_flops = bias ? n.output_elems : 0;
  n.bwd_input_macs = n.macs;
  n.bwd_weight_macs = n.macs;
  n.bwd_weight_other_flops = bias ? n.output_elems : 0;
  // Its GEMM: [C_out/groups x prod(k), C_in/groups] x [C_in/groups, prod(S)], then col2im.
  n.gemm_positions = n.input_elems / c;
  n.gemm_reduction = c / groups;
  n.saves_input = true;
  return r;
}

template OpResult conv_transpose<1>(TomlFields&, const std::vector<Shape>&);
template OpResult conv_transpose<2>(TomlFields&, const std::vector<Shape>&);
template OpResult conv_transpose<3>(TomlFields&, const std::vector<Shape>&);

}  // namespace ridge::ops
