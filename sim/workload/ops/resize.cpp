// resize: spatial up- or down-sampling of [C, *S] over its 1, 2 or 3 spatial axes to
// `size` (one value per axis: [Lo], [Ho, Wo], [Do, Ho, Wo]; ONNX Resize, torch's
// F.interpolate / nn.Upsample). mode "nearest" copies one input element per output
// element (0 FLOPs); mode "linear" ((bi-, tri-)linear over the R axes) blends the 2^R
// neighbours with precomputed weights, 2^R multiplies and 2^R - 1 adds per output
// element: 3, 7 and 15 FLOPs for R = 1, 2, 3; mode "cubic" ((bi-, tri-)cubic) blends
// the 4^R neighbours the same way, 2·4^R − 1 FLOPs: 7, 31 and 127. No parameters. Backward: the gradient is
// scattered back, as many operations again.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"
#include "sim/workload/ops/spatial.hpp"

namespace ridge::ops {

OpResult resize(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2 || x.size() > 4)
    throw ShapeMismatch("resize needs a [C, L], [C, H, W] or [C, D, H, W] input, got " + shape_to_string(x));
  const size_t rank = x.size() - 1;
  std::vector<int64_t> size = spatial_attr(a, "size", rank, 0);
  if (size[0] == 0) a.fail("size", "is required");
  std::string mode = a.optional_string("mode").value_or("nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    a.fail("mode", "must be \"nearest\", \"linear\" or \"cubic\"");
  OpResult r;
  r.output = {x[0]};
  r.output.insert(r.output.end(), size.begin(), size.end());
  LayerCounts& n = r.counts;
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  const int64_t neighbours = int64_t{1} << (mode == "cubic" ? 2 * rank : rank);  // 2^R or 4^R
  n.flops = mode == "nearest" ? 0 : checked_mul(2 * neighbours - 1, n.output_elems);
  n.bwd_input_other_flops = n.flops;
  return r;
}

}  // namespace ridge::ops
