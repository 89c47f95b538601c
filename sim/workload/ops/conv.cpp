// Convolution over R = 1, 2 or 3 spatial axes (conv1d, conv2d, conv3d: PyTorch's
// Conv1d / Conv2d / Conv3d, ONNX Conv) with stride, padding, dilation, groups and an
// optional bias; depthwise is groups = in_channels. Input [C, *S], output
// [out_channels, *So] with, per spatial axis, So = floor((S + 2p - d(k-1) - 1) / s) + 1.
// Every output element reads (C / groups) x prod(k) inputs:
//   macs = out_channels x prod(So) x (C / groups) x prod(k),
//   params = out_channels x (C / groups) x prod(k) (+ out_channels bias),
// flops = 2 macs (+ one bias add per output element, in the epilogue). Backward: the
// input and the weight gradient are convolutions of the same size. tied_to = "LAYER":
// the weight and bias are LAYER's (one head run on every level of a feature pyramid),
// read every pass but counted as parameters once, by LAYER; the weight viewed as
// [out, (C / groups) x prod(k)] must be the same shape. Input bytes count the input
// positions some window reads: a window narrower than the stride (a strided 1 x 1)
// skips the positions between windows (3 of 4 at stride 2), and a window that does not
// reach the input's last positions leaves them unread; the weight gradient reads the
// same positions, the input gradient is written whole.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"
#include "sim/workload/ops/spatial.hpp"

namespace ridge::ops {

namespace {
int64_t conv_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, const char* axis) {
  int64_t effective = checked_add(checked_mul(d, k - 1), 1);
  int64_t padded = checked_add(in, checked_mul(2, p));
  if (effective > padded)
    throw ShapeMismatch(std::string("kernel ") + std::to_string(effective) + " (dilated) is larger than the padded input " +
                        axis + " " + std::to_string(padded));
  return (padded - effective) / s + 1;
}

// Positions along one axis of length `in` that some of the `out` windows read. Shifted by
// the padding p, window o reads y = o s + j d (j < k) and the input is y in [p, in + p).
// Undilated windows narrower than the stride leave gaps: y is read when y mod s < k and
// y < out s. Otherwise the windows' span [0, (out - 1) s + (k - 1) d] counts as read
// (dilated taps that skip positions are rare enough not to be told apart).
int64_t positions_read(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, int64_t d) {
  if (d == 1 && k < s) {
    const int64_t end = checked_mul(out, s);
    const auto read_below = [&](int64_t y) {
      y = std::min(y, end);
      return y / s * k + std::min(y % s, k);
    };
    return read_below(in + p) - read_below(p);
  }
  const int64_t span = checked_add(checked_add(checked_mul(out - 1, s), checked_mul(k - 1, d)), 1);
  return std::max<int64_t>(0, std::min(in + p, span) - p);
}
}  // namespace

template <int R>
OpResult conv(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = spatial_input(in, R, op_name("conv", R));
  int64_t c = x[0];
  if (auto declared = a.optional_integer("in_channels"); declared && *declared != c)
    throw ShapeMismatch("in_channels = " + std::to_string(*declared) + " but the input " + shape_to_string(x) +
                        " has " + std::to_string(c) + " channels");
  const auto [out, k, s, p, d, groups, bias] = conv_attributes(a, R, c);

  OpResult r;
  r.output = {out};
  for (size_t i = 0; i < R; ++i) r.output.push_back(conv_out(x[i + 1], k[i], s[i], p[i], d[i], axis_name(R, i)));
  const bool pointwise = std::all_of(k.begin(), k.end(), [](int64_t e) { return e == 1; });
  r.op_class = groups > 1 && groups == c ? OpClass::depthwise : pointwise ? OpClass::conv_1x1 : OpClass::conv_kxk;
  LayerCounts& n = r.counts;
  int64_t per_output = checked_mul(c / groups, element_count(k));  // MACs per output element
  n.weight_elems = checked_add(checked_mul(out, per_output), bias ? out : 0);
  n.params = a.optional_string("tied_to") ? 0 : n.weight_elems;
  n.weight_rows = out;
  n.weight_cols = per_output;
  n.output_elems = element_count(r.output);
  n.input_elems = element_count(x);
  int64_t read = c;
  for (size_t i = 0; i < R; ++i) read = checked_mul(read, positions_read(x[i + 1], r.output[i + 1], k[i], s[i], p[i], d[i]));
  n.unread_input_elems = n.input_elems - read;
  n.macs = checked_mul(n.output_elems, per_output);
  n.flops = checked_add(checked_mul(2, n.macs), bias ? n.output_elems : 0);
  n.epilogue_flops = bias ? n.output_elems : 0;
  n.bwd_input_macs = n.macs;
  n.bwd_weight_macs = n.macs;
  n.bwd_weight_other_flops = bias ? n.output_elems : 0;  // bias gradient: sum over positions
  n.gemm_positions = n.output_elems / out;
  n.gemm_reduction = per_output;
  n.saves_input = true;
  n.conv.stride = std::max(*std::max_element(s.begin(), s.end()), *std::max_element(d.begin(), d.end()));
  n.conv.kernel_side = *std::min_element(k.begin(), k.end());
  n.conv.groups = groups;
  n.conv.kernel_side_max = *std::max_element(k.begin(), k.end());
  n.conv.in_channels = c;
  n.conv.out_channels = out;
  n.conv.spatial_dims = R;
  return r;
}

template OpResult conv<1>(TomlFields&, const std::vector<Shape>&);
template OpResult conv<2>(TomlFields&, const std::vector<Shape>&);
template OpResult conv<3>(TomlFields&, const std::vector<Shape>&);

}  // namespace ridge::ops
