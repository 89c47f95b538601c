// resize: spatial up- or down-sampling of [C, *S] over its 1, 2 or 3 spatial axes to
// `size` (one value per axis: [Lo], [Ho, Wo], [Do, Ho, Wo]; ONNX Resize, torch's
// F.interpolate / nn.Upsample). mode "nearest" copies one input element per output
// element (0 FLOPs); mode "linear" ((bi-, tri-)linear over the R axes) blends the 2^R
// neighbours with precomputed weights, 2^R multiplies and 2^R - 1 adds per output
// element: 3, 7 and 15 FLOPs for R = 1, 2, 3; mode "cubic" ((bi-, tri-)cubic) blends
// the 4^R neighbours the same way, 2·4^R − 1 FLOPs: 7, 31 and 127. No parameters. Backward: the gradient is
// scattered back, as many operations again.
//
// grid_sample: x [C, H, W] sampled at the points of grid [Ho, Wo, 2] (ONNX GridSample,
// torch's F.grid_sample; both with a leading axis of B items, [B, C, H, W] and
// [B, Ho, Wo, 2], for the items of one sample): output [C, Ho, Wo] ([B, C, Ho, Wo]).
// Each grid point's 2 coordinates are unnormalised to pixels (a multiply-add each) and
// split into a cell and its fraction (a subtraction each), 4 FLOPs per point; each output
// element blends its neighbours as resize does: 0 (nearest), 7 (bilinear), 31 (bicubic).
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

OpResult grid_sample(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& grid = in[1];
  const bool items = x.size() == 4;
  if ((x.size() != 3 && !items) || grid.size() != x.size() || grid.back() != 2 || (items && grid[0] != x[0]))
    throw ShapeMismatch("grid_sample needs x [C, H, W] and grid [Ho, Wo, 2] (or both with B items first), got " +
                        shape_to_string(x) + " and " + shape_to_string(grid));
  std::string mode = a.optional_string("mode").value_or("linear");
  if (mode != "nearest" && mode != "linear" && mode != "cubic") a.fail("mode", "must be \"nearest\", \"linear\" or \"cubic\"");
  OpResult r;
  r.output = items ? Shape{x[0], x[1]} : Shape{x[0]};
  r.output.insert(r.output.end(), grid.end() - 3, grid.end() - 1);
  LayerCounts& n = r.counts;
  n.input_elems = checked_add(element_count(x), element_count(grid));
  n.output_elems = element_count(r.output);
  const int64_t points = element_count(grid) / 2;
  const int64_t per_element = mode == "nearest" ? 0 : mode == "linear" ? 7 : 31;
  n.flops = checked_add(checked_mul(4, points), checked_mul(per_element, n.output_elems));
  n.bwd_input_other_flops = n.flops;
  return r;
}

}  // namespace ridge::ops
