// Convolutions, pools, Pad and Resize over [N, C, H, W]: Conv -> conv2d, ConvTranspose ->
// conv_transpose2d, MaxPool / AveragePool -> max_pool2d / avg_pool2d, GlobalAveragePool ->
// global_avg_pool2d, GlobalMaxPool -> adaptive_max_pool2d, Resize / Upsample -> resize; a
// zero Pad is folded into the Conv or pool that reads it.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// A Pad of zeros on the two spatial axes of [N, C, H, W], the same before and after
// (torch exports avg_pool2d(padding=1) as Pad + AveragePool): the Conv or pool reading
// it takes it as its own padding, which costs the same.
void Translator::pad(const onnx::NodeProto& n) {
  const Tensor& x = activation(n, 0);
  batch_first(n, x);
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{});
  if (pads.empty() && has_input(n, 1)) pads = values(n, 1);
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return pass_on(n, x);
  const onnx::AttributeProto* mode = attr(n, "mode");
  std::optional<double> value;  // the pad value: input 2 (opset 11+) or attribute `value`
  if (has_input(n, 2)) value = constant(n, 2).scalar;
  else if (auto f = attr_float(n, "value")) value = *f;
  if ((mode && mode->s() != "constant") || value.value_or(0.0) != 0.0)
    fail(n, "only a Pad of zeros is modelled (this one is " + (mode ? mode->s() : std::string("constant")) + ")");
  if (pads.size() != 8 || x.shape.size() != 3 || pads[0] || pads[1] || pads[4] || pads[5] || pads[2] != pads[6] ||
      pads[3] != pads[7])
    fail(n, "pads " + value_list(pads) + " are not the same on both sides of H and W of [N, C, H, W]",
         "ridge folds a zero Pad into the Conv or pool that follows it");
  Tensor t = x;
  t.pad = {checked_add(t.pad.first, pads[2]), checked_add(t.pad.second, pads[3])};
  tensors_[n.output(0)] = std::move(t);
}

// ConvTranspose: weight [C, out / groups, kh, kw]; symmetric pads and no output_shape.
void Translator::conv_transpose(const onnx::NodeProto& n, int index) {
  const Tensor& x = activation(n, 0);
  const Tensor& w = constant(n, 1);
  batch_first(n, x);
  if (w.shape.size() != 4 || x.shape.size() != 3) fail(n, "ridge models 2-D transposed convolutions only");
  if (attr(n, "output_shape")) fail(n, "output_shape is not modelled", "give pads and output_padding instead");
  const onnx::AttributeProto* ap = attr(n, "auto_pad");
  if (ap && ap->s() != "NOTSET" && ap->s() != "VALID") fail(n, "auto_pad " + ap->s() + " is not modelled");
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  if (pads.size() != 4 || pads[0] != pads[2] || pads[1] != pads[3])
    fail(n, "pads " + value_list(pads) + " are not the same on both sides");
  int64_t groups = attr_int(n, "group", 1);
  toml::table a;
  a.insert("out_channels", checked_mul(w.shape[1], groups));
  const auto [k, s, d] = window(n, std::vector<int64_t>{w.shape[2], w.shape[3]});
  a.insert("kernel", to_array(k));
  a.insert("stride", to_array(s));
  a.insert("padding", to_array({pads[0], pads[1]}));
  a.insert("output_padding", to_array(attr_ints(n, "output_padding").value_or(std::vector<int64_t>{0, 0})));
  a.insert("dilation", to_array(d));
  a.insert("groups", groups);
  a.insert("bias", has_input(n, 2));
  Tensor xin = x;
  layer(n, index, "conv_transpose2d", {&xin}, std::move(a));
}

void Translator::conv(const onnx::NodeProto& n, int index) {
  const Tensor& x = activation(n, 0);
  const Tensor& w = constant(n, 1);
  batch_first(n, x);
  if (w.shape.size() != 4 || x.shape.size() != 3) fail(n, "ridge models 2-D convolutions only");
  const auto [k, s, d] = window(n, std::vector<int64_t>{w.shape[2], w.shape[3]});
  auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
  ph = checked_add(ph, x.pad.first);
  pw = checked_add(pw, x.pad.second);
  toml::table a;
  a.insert("out_channels", w.shape[0]);
  a.insert("kernel", to_array(k));
  a.insert("stride", to_array(s));
  a.insert("padding", to_array({ph, pw}));
  a.insert("dilation", to_array(d));
  a.insert("groups", attr_int(n, "group", 1));
  a.insert("bias", has_input(n, 2));
  Tensor xin = x;
  xin.pad = {0, 0};
  layer(n, index, "conv2d", {&xin}, std::move(a));
}

void Translator::pool(const onnx::NodeProto& n, int index, bool is_max) {
  const Tensor& x = activation(n, 0);
  batch_first(n, x);
  if (x.shape.size() != 3) fail(n, "ridge models 2-D pools only");
  const auto [k, s, d] = window(n, std::nullopt);
  auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
  ph = checked_add(ph, x.pad.first);
  pw = checked_add(pw, x.pad.second);
  toml::table a;
  a.insert("kernel", to_array(k));
  a.insert("stride", to_array(s));
  a.insert("padding", to_array({ph, pw}));
  if (is_max) a.insert("dilation", to_array(d));
  a.insert("ceil_mode", attr_int(n, "ceil_mode", 0) != 0);
  Tensor xin = x;
  xin.pad = {0, 0};
  layer(n, index, is_max ? "max_pool2d" : "avg_pool2d", {&xin}, std::move(a));
}

void Translator::global_average_pool(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  return layer(n, index, "global_avg_pool2d", {&x});
}

void Translator::global_max_pool(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  a.insert("output_size", 1);
  return layer(n, index, "adaptive_max_pool2d", {&x}, std::move(a));
}

// Resize (opset 11+: X, roi, scales, sizes; Upsample and opset 10: X, scales) of
// [N, C, H, W] by constant scales or sizes; nearest or (bi)linear.
void Translator::resize(const onnx::NodeProto& n, int index) {
  const Tensor& x = activation(n, 0);
  batch_first(n, x);
  if (x.shape.size() != 3) fail(n, "ridge models the resizing of [N, C, H, W] only");
  int scales_at = n.input_size() <= 2 ? 1 : 2;
  Shape full = full_shape(x);
  std::vector<int64_t> size;
  if (has_input(n, 3)) {
    size = values(n, 3);
  } else if (has_input(n, scales_at) && constant(n, scales_at).reals && constant(n, scales_at).reals->size() == 4) {
    const std::vector<double>& f = *constant(n, scales_at).reals;
    for (size_t i = 0; i < 4; ++i) {
      double s = std::floor(static_cast<double>(full[i]) * f[i]);
      if (!(s >= 1 && s <= static_cast<double>(kMaxResized))) {  // (also nan and inf)
        std::ostringstream scale;  // as the float it was (6 digits)
        scale << f[i];
        fail(n, "scale " + scale.str() + " of axis " + std::to_string(i) + " gives no size from 1 to 2^40",
             "a Resize scales each axis by a positive factor");
      }
      size.push_back(static_cast<int64_t>(s));
    }
  } else {
    fail(n, "needs constant scales or sizes");
  }
  if (size.size() != 4 || size[0] != 1 || size[1] != full[1])
    fail(n, "resizes more than H and W (to " + shape_list(size) + ")");
  const onnx::AttributeProto* m = attr(n, "mode");
  std::string mode = m ? m->s() : "nearest";
  if (mode != "nearest" && mode != "linear") fail(n, "mode " + mode + " is not modelled (nearest and linear are)");
  toml::table a;
  a.insert("size", to_array({size[2], size[3]}));
  a.insert("mode", mode);
  Tensor xin = x;
  layer(n, index, "resize", {&xin}, std::move(a));
}

}  // namespace ridge::onnx_import
