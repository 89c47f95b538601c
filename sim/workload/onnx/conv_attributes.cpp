// The attributes convolutions and pools share: the window (kernel_shape, strides,
// dilations: two positive values each) and the padding (pads or auto_pad), which ridge
// models symmetric.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// A 2-D window attribute (kernel_shape, strides, dilations) of a conv or pool: two
// positive values; `fallback` when the node does not give it (none: it is required).
std::vector<int64_t> Translator::window_attr(const onnx::NodeProto& n, const std::string& name,
                                             std::optional<std::vector<int64_t>> fallback) {
  std::optional<std::vector<int64_t>> v = attr_ints(n, name);
  if (!v && !fallback) fail(n, "has no '" + name + "' attribute", "ONNX requires it on this node");
  if (!v) v = fallback;
  if (v->size() != 2 || (*v)[0] < 1 || (*v)[1] < 1 || (*v)[0] > kMaxWindow || (*v)[1] > kMaxWindow)
    fail(n, "'" + name + "' must be two values from 1 to " + std::to_string(kMaxWindow) + " (got " + shape_list(*v) +
                "): ridge models 2-D convolutions and pools only");
  return *v;
}

// The window of a conv or pool: kernel_shape (`kernel` when the node does not give it: a
// conv's weight has it; a pool must give it), strides and dilations (1 by default).
Window Translator::window(const onnx::NodeProto& n, std::optional<std::vector<int64_t>> kernel) {
  return {window_attr(n, "kernel_shape", std::move(kernel)), window_attr(n, "strides", std::vector<int64_t>{1, 1}),
          window_attr(n, "dilations", std::vector<int64_t>{1, 1})};
}

// Per-sample pads of a 2-D conv or pool: [top, left, bottom, right] must be symmetric.
std::pair<int64_t, int64_t> Translator::pads_2d(const onnx::NodeProto& n, const Shape& x, int64_t kh, int64_t kw, int64_t sh,
                                                int64_t sw, int64_t dh, int64_t dw) {
  const onnx::AttributeProto* ap = attr(n, "auto_pad");
  std::string mode = ap ? ap->s() : "NOTSET";
  if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    auto same = [&](int64_t in, int64_t k, int64_t s, int64_t d) {  // k, s, d in [1, kMaxWindow]
      int64_t out = in / s + (in % s != 0);
      int64_t total = std::max<int64_t>(checked_add(checked_mul(out - 1, s), (k - 1) * d + 1) - in, 0);
      if (total % 2) fail(n, "auto_pad " + mode + " pads unevenly, which ridge does not model");
      return total / 2;
    };
    return {same(x[1], kh, sh, dh), same(x[2], kw, sw, dw)};
  }
  if (mode == "VALID") return {0, 0};
  std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  if (pads.size() != 4)
    fail(n, "'pads' must be 4 values, [top, left, bottom, right] (got " + value_list(pads) +
                "): ridge models 2-D convolutions and pools only");
  if (pads[0] != pads[2] || pads[1] != pads[3]) fail(n, "asymmetric pads " + value_list(pads) + " are not modelled");
  return {pads[0], pads[1]};
}

}  // namespace ridge::onnx_import
