// 2-D convolution (stride, padding, dilation, groups, optional bias; depthwise is
// groups = in_channels). Input [C, H, W], output [out_channels, Ho, Wo] with
// Ho = floor((H + 2p - d(k-1) - 1) / s) + 1, as PyTorch's Conv2d.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

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
}  // namespace

OpResult conv2d(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() != 3) throw ShapeMismatch("conv2d needs a [C, H, W] input, got " + shape_to_string(x));
  int64_t c = x[0];
  int64_t out = a.positive("out_channels");
  auto [kh, kw] = a.pair("kernel", 0);
  if (kh == 0) a.fail("kernel", "is required");
  auto [sh, sw] = a.pair("stride", 1);
  auto [ph, pw] = a.pair("padding", 0, true);
  auto [dh, dw] = a.pair("dilation", 1);
  int64_t groups = a.positive("groups", 1);
  bool bias = a.boolean("bias", true);
  if (auto declared = a.optional_integer("in_channels"); declared && *declared != c)
    throw ShapeMismatch("in_channels = " + std::to_string(*declared) + " but the input " + shape_to_string(x) +
                        " has " + std::to_string(c) + " channels");
  if (c % groups || out % groups)
    throw ShapeMismatch("groups = " + std::to_string(groups) + " must divide both the input channels (" +
                        std::to_string(c) + ") and out_channels (" + std::to_string(out) + ")");

  int64_t ho = conv_out(x[1], kh, sh, ph, dh, "height");
  int64_t wo = conv_out(x[2], kw, sw, pw, dw, "width");
  OpResult r;
  r.output = {out, ho, wo};
  r.op_class = groups > 1 && groups == c ? OpClass::depthwise
               : kh == 1 && kw == 1    ? OpClass::conv_1x1
                                       : OpClass::conv_kxk;
  LayerCounts& n = r.counts;
  int64_t per_output = checked_product({c / groups, kh, kw});  // MACs per output element
  n.params = checked_add(checked_mul(out, per_output), bias ? out : 0);
  n.weight_elems = n.params;
  n.output_elems = element_count(r.output);
  n.input_elems = element_count(x);
  n.macs = checked_mul(n.output_elems, per_output);
  n.flops = checked_add(checked_mul(2, n.macs), bias ? n.output_elems : 0);
  n.epilogue_flops = bias ? n.output_elems : 0;
  n.bwd_input_macs = n.macs;
  n.bwd_weight_macs = n.macs;
  n.bwd_weight_other_flops = bias ? n.output_elems : 0;  // bias gradient: sum over positions
  n.gemm_positions = checked_mul(ho, wo);
  n.gemm_reduction = per_output;
  n.saves_input = true;
  return r;
}

}  // namespace ridge::ops
