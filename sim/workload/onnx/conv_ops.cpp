// Convolutions, pools, Pad and Resize over [N, C, *S] with 1, 2 or 3 spatial axes S
// (the layer names end in 1d, 2d, 3d): Conv -> conv2d, ConvTranspose -> conv_transpose2d,
// MaxPool / AveragePool -> max_pool2d / avg_pool2d, GlobalAveragePool ->
// global_avg_pool2d, GlobalMaxPool -> adaptive_max_pool2d, Resize / Upsample -> resize,
// GridSample -> grid_sample; a zero Pad is folded into the Conv or pool that reads it.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// The input channels a conv's weight reads (its channels per group x groups) must be the
// input's: the weight's shape is what ridge counts its parameters from.
void Translator::check_channels(const onnx::NodeProto& n, const Tensor& x, int64_t channels, const Shape& weight) {
  if (x.shape[0] != channels)
    fail(n, "the weight " + shape_list(weight) + " reads " + std::to_string(channels) + " input channels, but the input " +
                shape_list(x.shape) + " has " + std::to_string(x.shape[0]),
         "the graph's shapes disagree: export it again");
}

namespace {
// The layer name of `family` at `rank` spatial axes: "conv" + 3 -> "conv3d".
std::string at_rank(const std::string& family, size_t rank) { return family + std::to_string(rank) + "d"; }
}  // namespace

// The spatial axes of a conv, pool or resize input [N, C, *S]: 1, 2 or 3.
size_t Translator::spatial_rank(const onnx::NodeProto& n, const Tensor& x, const char* what) {
  if (x.shape.size() < 2 || x.shape.size() > 4)
    fail(n, std::string("ridge models ") + what + " over 1, 2 or 3 spatial axes (the input is [N, " +
                shape_to_string(x.shape) + "])");
  return x.shape.size() - 1;
}

// A Pad of zeros on the spatial axes of [N, C, *S], the same before and after (torch
// exports avg_pool2d(padding=1) as Pad + AveragePool): the Conv or pool reading it takes
// it as its own padding, which costs the same.
void Translator::pad(const onnx::NodeProto& n) {
  const Tensor& x = activation(n, 0);
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{});
  if (pads.empty() && has_input(n, 1)) pads = values(n, 1);
  // (torchvision's batch_images pads one image to a multiple of 32: nothing, when it is one)
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return pass_on(n, x);
  toml::table stacked;  // (one image's RoIs [R, C, *S]: the op reading them takes images = R)
  stacked_item(n, x, stacked);
  const onnx::AttributeProto* mode = attr(n, "mode");
  std::optional<double> value;  // the pad value: input 2 (opset 11+) or attribute `value`
  if (has_input(n, 2)) value = constant(n, 2).scalar;
  else if (auto f = attr_float(n, "value")) value = *f;
  if ((mode && mode->s() != "constant") || value.value_or(0.0) != 0.0)
    fail(n, "only a Pad of zeros is modelled (this one is " + (mode ? mode->s() : std::string("constant")) + ")");
  const size_t rank = full_shape(x).size();  // with the batch axis
  auto symmetric = [&] {
    if (pads.size() != 2 * rank || rank < 3 || rank > 5 || pads[0] || pads[1] || pads[rank] || pads[rank + 1])
      return false;
    for (size_t i = 2; i < rank; ++i)
      if (pads[i] != pads[rank + i]) return false;
    return true;
  };
  if (!symmetric())
    fail(n, "pads " + value_list(pads) + " are not the same on both sides of the spatial axes of [N, C, *S]",
         "ridge folds a zero Pad into the Conv or pool that follows it");
  Tensor t = x;
  t.pad.resize(rank - 2, 0);
  for (size_t i = 0; i + 2 < rank; ++i) t.pad[i] = checked_add(t.pad[i], pads[i + 2]);
  tensors_[n.output(0)] = std::move(t);
}

// ConvTranspose: weight [C, out / groups, *k]; symmetric pads and no output_shape.
void Translator::conv_transpose(const onnx::NodeProto& n, int index) {
  const Tensor& input = activation(n, 0);
  const Tensor& w = constant(n, 1);
  toml::table a;
  const Tensor x = stacked_item(n, input, a);
  const size_t rank = spatial_rank(n, x, "transposed convolutions");
  if (w.shape.size() != rank + 2)
    fail(n, "the weight " + shape_list(w.shape) + " does not fit the input [N, " + shape_to_string(x.shape) +
                "]: it must be [C, out / groups, one kernel size per spatial axis]");
  if (attr(n, "output_shape")) fail(n, "output_shape is not modelled", "give pads and output_padding instead");
  const onnx::AttributeProto* ap = attr(n, "auto_pad");
  if (ap && ap->s() != "NOTSET" && ap->s() != "VALID") fail(n, "auto_pad " + ap->s() + " is not modelled");
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>(2 * rank, 0));
  if (pads.size() != 2 * rank || !std::equal(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank),
                                             pads.begin() + static_cast<std::ptrdiff_t>(rank)))
    fail(n, "pads " + value_list(pads) + " are not the same on both sides");
  int64_t groups = attr_int(n, "group", 1);
  check_channels(n, x, w.shape[0], w.shape);  // ConvTranspose's weight: [C, out / groups, *k]
  a.insert("out_channels", checked_mul(w.shape[1], groups));
  const auto [k, s, d] = window(n, rank, std::vector<int64_t>(w.shape.begin() + 2, w.shape.end()));
  a.insert("kernel", to_array(k));
  a.insert("stride", to_array(s));
  a.insert("padding", to_array(std::vector<int64_t>(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank))));
  a.insert("output_padding", to_array(attr_ints(n, "output_padding").value_or(std::vector<int64_t>(rank, 0))));
  a.insert("dilation", to_array(d));
  a.insert("groups", groups);
  a.insert("bias", has_input(n, 2));
  Tensor xin = input;
  layer(n, index, at_rank("conv_transpose", rank), {&xin}, std::move(a));
}

void Translator::conv(const onnx::NodeProto& n, int index) {
  const Tensor input = data_input(n, 0);
  const Tensor& w = constant(n, 1);
  toml::table a;
  const Tensor x = stacked_item(n, input, a);
  const size_t rank = spatial_rank(n, x, "convolutions");
  if (w.shape.size() != rank + 2)
    fail(n, "the weight " + shape_list(w.shape) + " does not fit the input [N, " + shape_to_string(x.shape) +
                "]: it must be [out, C / groups, one kernel size per spatial axis]");
  const Window win = window(n, rank, std::vector<int64_t>(w.shape.begin() + 2, w.shape.end()));
  const int64_t groups = attr_int(n, "group", 1);
  if (groups >= 1 && groups <= x.shape[0]) check_channels(n, x, checked_mul(w.shape[1], groups), w.shape);
  a.insert("out_channels", w.shape[0]);
  a.insert("kernel", to_array(win.kernel));
  a.insert("stride", to_array(win.stride));
  a.insert("padding", to_array(pads(n, x, win)));
  a.insert("dilation", to_array(win.dilation));
  a.insert("groups", groups);
  a.insert("bias", has_input(n, 2));
  // torch's eval-mode export folds a BatchNorm into the conv before it: the weight and
  // bias become initializers the exporter computed ("onnx::Conv_14"), not the module's
  // parameters ("conv1.weight"). The module had C gamma and C beta and no conv bias; the
  // graph has C biases: C parameters fewer.
  if (has_input(n, 2) && n.input(1).rfind("onnx::", 0) == 0 && n.input(2).rfind("onnx::", 0) == 0) {
    ++folded_.convs;
    folded_.channels = checked_add(folded_.channels, w.shape[0]);
  }
  // A weight and bias another Conv node already reads (torchvision's RPN, RetinaNet and
  // FCOS heads run one conv on every pyramid level) are that layer's: tied to it.
  const std::string shared = n.input(1) + (has_input(n, 2) ? "+" + n.input(2) : "");
  auto earlier = w.learned ? conv_users_.find(shared) : conv_users_.end();
  if (earlier != conv_users_.end()) a.insert("tied_to", earlier->second);
  Tensor xin = input;
  xin.pad.clear();
  layer(n, index, at_rank("conv", rank), {&xin}, std::move(a));
  if (w.learned && earlier == conv_users_.end()) conv_users_.emplace(shared, tensors_.at(n.output(0)).layer);
}

void Translator::pool(const onnx::NodeProto& n, int index, bool is_max) {
  const Tensor& input = activation(n, 0);
  toml::table a;
  const Tensor x = stacked_item(n, input, a);
  const size_t rank = spatial_rank(n, x, "pools");
  const Window win = window(n, rank, std::nullopt);
  if (!is_max && std::any_of(win.dilation.begin(), win.dilation.end(), [](int64_t d) { return d != 1; }))
    fail(n, "a dilated AveragePool (opset 19) is not modelled");
  a.insert("kernel", to_array(win.kernel));
  a.insert("stride", to_array(win.stride));
  a.insert("padding", to_array(pads(n, x, win)));
  if (is_max) a.insert("dilation", to_array(win.dilation));
  a.insert("ceil_mode", attr_int(n, "ceil_mode", 0) != 0);
  Tensor xin = input;
  xin.pad.clear();
  layer(n, index, at_rank(is_max ? "max_pool" : "avg_pool", rank), {&xin}, std::move(a));
}

void Translator::global_average_pool(const onnx::NodeProto& n, int index) {
  Tensor input = activation(n, 0);
  toml::table a;
  const Tensor x = stacked_item(n, input, a);
  return layer(n, index, at_rank("global_avg_pool", spatial_rank(n, x, "pools")), {&input}, std::move(a));
}

void Translator::global_max_pool(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  a.insert("output_size", 1);
  return layer(n, index, at_rank("adaptive_max_pool", spatial_rank(n, x, "pools")), {&x}, std::move(a));
}

// Resize (opset 11+: X, roi, scales, sizes; Upsample and opset 10: X, scales) of
// [N, C, *S] by constant scales or sizes; nearest or (bi-, tri-)linear.
void Translator::resize(const onnx::NodeProto& n, int index) {
  const Tensor& input = activation(n, 0);
  toml::table a;
  const Tensor x = stacked_item(n, input, a);
  const size_t rank = spatial_rank(n, x, "resizing");
  const size_t axes = rank + 2;
  int scales_at = n.input_size() <= 2 ? 1 : 2;
  Shape full = full_shape(input);  // (a stack of R items: [R, C, *S])
  std::vector<int64_t> size;
  if (trip_size_from_data(n, 3)) {  // a Loop trip's box: the image's size (loop_ops.cpp)
    size = full;  // (an input of fewer axes than the resize's keeps its own size)
    for (size_t i = 0; i < rank && i < input_shape_.size(); ++i)
      size[axes - 1 - i] = input_shape_[input_shape_.size() - 1 - i];
  } else if (has_input(n, 3)) {
    size = values(n, 3);
  } else if (has_input(n, scales_at) && constant(n, scales_at).reals && constant(n, scales_at).reals->size() == axes) {
    const std::vector<double>& f = *constant(n, scales_at).reals;
    for (size_t i = 0; i < axes; ++i) {
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
  if (size.size() != axes || size[0] != full[0] || size[1] != full[1])
    fail(n, "resizes more than the spatial axes (to " + shape_list(size) + ")");
  const onnx::AttributeProto* m = attr(n, "mode");
  std::string mode = m ? m->s() : "nearest";
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    fail(n, "mode " + mode + " is not modelled (nearest, linear and cubic are)");
  a.insert("size", to_array(std::vector<int64_t>(size.begin() + 2, size.end())));
  a.insert("mode", mode);
  Tensor xin = input;
  layer(n, index, "resize", {&xin}, std::move(a));
}

// GridSample of 2-D features x [N, C, H, W] at grid [N, Ho, Wo, 2] (RAFT's lookup of
// its correlation pyramid): `grid_sample`. Both with their batch first, or both merged
// into their first axis (R items a sample: RAFT's one correlation map per pixel).
// A constant grid (RAFT's first lookup, at the pixel coordinates themselves) is a
// `parameter` of no learned elements, the same points for every sample.
void Translator::grid_sample(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  const Tensor& points = tensor(n, 1);
  Tensor grid = points.activation ? points : as_parameter(n, n.input(1), points, x);
  if (!points.activation) grid.at = x.at;
  const bool items = x.at.merged && grid.at.merged && x.at.batch == 0 && grid.at.batch == 0 && !x.shape.empty() &&
                     !grid.shape.empty() && x.at.factor == x.shape[0] && grid.at.factor == grid.shape[0];
  if (!items) {
    batch_first(n, x);
    batch_first(n, grid);
  }
  if (full_shape(x).size() != 4)
    fail(n, "samples a " + shape_list(full_shape(x)) + " input; ridge models GridSample over 2 spatial axes, [N, C, H, W]");
  std::string mode = "linear";
  if (const onnx::AttributeProto* m = attr(n, "mode")) mode = m->s();
  if (mode == "bilinear") mode = "linear";  // (opset 16's names; opset 20 says linear, cubic)
  if (mode == "bicubic") mode = "cubic";
  if (mode != "linear" && mode != "nearest" && mode != "cubic")
    fail(n, "mode '" + mode + "' is not one of bilinear / linear, nearest, bicubic / cubic");
  toml::table a;
  a.insert("mode", mode);
  layer(n, index, "grid_sample", {&x, &grid}, std::move(a));
}

}  // namespace ridge::onnx_import
