// resize: spatial up- or down-sampling of [C, H, W] to `size = [Ho, Wo]` (ONNX Resize,
// torch's F.interpolate / nn.Upsample). mode "nearest" copies one input element per
// output element (0 FLOPs); mode "linear" (bilinear) blends four neighbours with
// precomputed weights, 4 multiplies and 3 adds: 7 FLOPs per output element. No
// parameters. Backward: the gradient is scattered back, as many operations again.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult resize(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() != 3) throw ShapeMismatch("resize needs a [C, H, W] input, got " + shape_to_string(x));
  auto [ho, wo] = a.pair("size", 0);
  if (ho == 0) a.fail("size", "is required");
  std::string mode = a.optional_string("mode").value_or("nearest");
  if (mode != "nearest" && mode != "linear") a.fail("mode", "must be \"nearest\" or \"linear\"");
  OpResult r;
  r.output = {x[0], ho, wo};
  LayerCounts& n = r.counts;
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  n.flops = mode == "linear" ? checked_mul(7, n.output_elems) : 0;
  n.bwd_input_other_flops = n.flops;
  return r;
}

}  // namespace ridge::ops
