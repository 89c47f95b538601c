// The attributes convolutions and pools share: the window (kernel_shape, strides,
// dilations: one positive value per spatial axis each) and the padding (pads or
// auto_pad), which ridge models symmetric.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// A window attribute (kernel_shape, strides, dilations) of a conv or pool over `rank`
// spatial axes: one positive value per axis; `fallback` when the node does not give it
// (none: it is required).
std::vector<int64_t> Translator::window_attr(const onnx::NodeProto& n, const std::string& name, size_t rank,
                                             std::optional<std::vector<int64_t>> fallback) {
  std::optional<std::vector<int64_t>> v = attr_ints(n, name);
  if (!v && !fallback) fail(n, "has no '" + name + "' attribute", "ONNX requires it on this node");
  if (!v) v = fallback;
  if (v->size() != rank || std::any_of(v->begin(), v->end(), [](int64_t e) { return e < 1 || e > kMaxWindow; }))
    fail(n, "'" + name + "' must be " + std::to_string(rank) + " values from 1 to " + std::to_string(kMaxWindow) +
                " (got " + shape_list(*v) + "), one per spatial axis of the input");
  return *v;
}

// The window of a conv or pool: kernel_shape (`kernel` when the node does not give it: a
// conv's weight has it; a pool must give it), strides and dilations (1 by default).
Window Translator::window(const onnx::NodeProto& n, size_t rank, std::optional<std::vector<int64_t>> kernel) {
  const std::vector<int64_t> ones(rank, 1);
  return {window_attr(n, "kernel_shape", rank, std::move(kernel)), window_attr(n, "strides", rank, ones),
          window_attr(n, "dilations", rank, ones)};
}

// Per-sample pads of a conv or pool, one per spatial axis: [begins..., ends...] must be
// symmetric. A zero Pad before it (x.pad) adds to them.
std::vector<int64_t> Translator::pads(const onnx::NodeProto& n, const Tensor& x, const Window& w) {
  const size_t rank = w.kernel.size();
  const onnx::AttributeProto* ap = attr(n, "auto_pad");
  std::string mode = ap ? ap->s() : "NOTSET";
  std::vector<int64_t> out(rank, 0);
  if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    for (size_t i = 0; i < rank; ++i) {  // kernel, stride and dilation in [1, kMaxWindow]
      const int64_t in = x.shape[i + 1], s = w.stride[i];
      int64_t cells = in / s + (in % s != 0);
      int64_t total =
          std::max<int64_t>(checked_add(checked_mul(cells - 1, s), (w.kernel[i] - 1) * w.dilation[i] + 1) - in, 0);
      if (total % 2) fail(n, "auto_pad " + mode + " pads unevenly, which ridge does not model");
      out[i] = total / 2;
    }
  } else if (mode != "VALID") {
    std::vector<int64_t> given = attr_ints(n, "pads").value_or(std::vector<int64_t>(2 * rank, 0));
    if (given.size() != 2 * rank)
      fail(n, "'pads' must be " + std::to_string(2 * rank) + " values, the begins and ends of the " +
                  std::to_string(rank) + " spatial axes (got " + value_list(given) + ")");
    if (!std::equal(given.begin(), given.begin() + static_cast<std::ptrdiff_t>(rank),
                    given.begin() + static_cast<std::ptrdiff_t>(rank)))
      fail(n, "asymmetric pads " + value_list(given) + " are not modelled");
    out.assign(given.begin(), given.begin() + static_cast<std::ptrdiff_t>(rank));
  }
  for (size_t i = 0; i < x.pad.size() && i < rank; ++i) out[i] = checked_add(out[i], x.pad[i]);
  return out;
}

}  // namespace ridge::onnx_import
