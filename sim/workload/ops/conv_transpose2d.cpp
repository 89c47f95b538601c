// conv_transpose2d: the transposed 2-D convolution of PyTorch's ConvTranspose2d (ONNX
// ConvTranspose): input [C, H, W], output [out_channels, Ho, Wo] with
// Ho = (H - 1) s - 2p + d (k - 1) + output_padding + 1. Every input element is
// multiplied into a k x k window of out_channels / groups outputs, so
//   macs = C x H x W x (out_channels / groups) x kh x kw,
//   params = C x (out_channels / groups) x kh x kw (+ out_channels bias),
// flops = 2 macs (+ one bias add per output element, in the epilogue). Backward: the
// input gradient is a convolution of the same size, the weight gradient too.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {
int64_t transposed_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t extra, const char* axis) {
  int64_t out = checked_add(checked_add(checked_mul(in - 1, s), checked_mul(d, k - 1)), extra + 1) - 2 * p;
  if (out <= 0)
    throw ShapeMismatch(std::string("the padding leaves no output ") + axis + " (input " + std::to_string(in) + ")");
  return out;
}
}  // namespace

OpResult conv_transpose2d(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() != 3) throw ShapeMismatch("conv_transpose2d needs a [C, H, W] input, got " + shape_to_string(x));
  int64_t c = x[0];
  int64_t out = a.positive("out_channels");
  auto [kh, kw] = a.pair("kernel", 0);
  if (kh == 0) a.fail("kernel", "is required");
  auto [sh, sw] = a.pair("stride", 1);
  auto [ph, pw] = a.pair("padding", 0, true);
  auto [oh, ow] = a.pair("output_padding", 0, true);
  auto [dh, dw] = a.pair("dilation", 1);
  int64_t groups = a.positive("groups", 1);
  bool bias = a.boolean("bias", true);
  if (c % groups || out % groups)
    throw ShapeMismatch("groups = " + std::to_string(groups) + " must divide both the input channels (" +
                        std::to_string(c) + ") and out_channels (" + std::to_string(out) + ")");
  if (oh >= std::max(sh, dh) || ow >= std::max(sw, dw))
    a.fail("output_padding", "must be smaller than the stride or the dilation");
  OpResult r;
  r.output = {out, transposed_out(x[1], kh, sh, ph, dh, oh, "height"), transposed_out(x[2], kw, sw, pw, dw, ow, "width")};
  LayerCounts& n = r.counts;
  int64_t per_input = checked_product({out / groups, kh, kw});  // MACs per input element
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
  // Its GEMM: [C_out/groups x k_h x k_w, C_in/groups] x [C_in/groups, H_in x W_in], then col2im.
  n.gemm_positions = checked_mul(x[1], x[2]);
  n.gemm_reduction = c / groups;
  n.saves_input = true;
  return r;
}

}  // namespace ridge::ops
