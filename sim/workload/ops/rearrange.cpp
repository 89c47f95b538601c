// Layers that copy their input into a new arrangement or repeat it, without arithmetic
// (0 MACs, 0 FLOPs; backward sums a tile's copies back, which reads every output
// element once: output - input adds). Per sample, as layout.cpp's.
// tile (repeats, one per axis): [d0, d1, ...] -> [d0 r0, d1 r1, ...], reading the input
//   and writing every copy (ONNX Tile, torch .repeat).
// depth_to_space (block_size b): [C, H, W] -> [C / b^2, H b, W b], a copy (ONNX
//   DepthToSpace, torch PixelShuffle); space_to_depth the inverse, [C b^2, H / b, W / b]
//   (PixelUnshuffle).
// pad (pads, one per trailing axis): zeros added at both ends of each of the last
//   len(pads) axes, [.., Si] -> [.., Si + 2 pi], a copy (an ONNX zero Pad that no Conv or
//   pool folds into its own padding, e.g. Mask R-CNN's masks padded by 1 before pasting).
// trilu (upper, diagonal): the upper or lower triangle of the last two axes kept and
//   the rest zeroed, a copy (ONNX Trilu, torch triu / tril): which element is kept
//   follows from its index, not from its value, so no arithmetic is counted.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

OpResult copy(const Shape& x, Shape out) {
  OpResult r;
  r.output = std::move(out);
  r.counts.input_elems = element_count(x);
  r.counts.output_elems = element_count(r.output);
  return r;
}

OpResult pixel_shuffle(TomlFields& a, const std::vector<Shape>& in, bool to_space) {
  const Shape& x = in[0];
  if (x.size() != 3) throw ShapeMismatch("needs a [C, H, W] input, got " + shape_to_string(x));
  const int64_t b = a.positive("block_size");
  const int64_t area = checked_mul(b, b);
  if (to_space) {
    if (x[0] % area)
      throw ShapeMismatch("block_size " + std::to_string(b) + " needs channels divisible by " + std::to_string(area) +
                          ", got " + shape_to_string(x));
    return copy(x, {x[0] / area, checked_mul(x[1], b), checked_mul(x[2], b)});
  }
  if (x[1] % b || x[2] % b)
    throw ShapeMismatch("block_size " + std::to_string(b) + " must divide H and W, got " + shape_to_string(x));
  return copy(x, {checked_mul(x[0], area), x[1] / b, x[2] / b});
}

}  // namespace

OpResult tile(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  std::vector<int64_t> repeats = a.integer_list("repeats");
  if (repeats.size() != x.size())
    throw ShapeMismatch("repeats has " + std::to_string(repeats.size()) + " entries but the input " +
                        shape_to_string(x) + " has " + std::to_string(x.size()) + " dimensions");
  Shape out = x;
  for (size_t i = 0; i < x.size(); ++i) out[i] = checked_mul(x[i], repeats[i]);
  OpResult r = copy(x, std::move(out));
  r.counts.bwd_input_other_flops = r.counts.output_elems - r.counts.input_elems;
  return r;
}

OpResult pad(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const std::vector<int64_t> pads = a.integer_list("pads");
  if (pads.empty() || pads.size() > x.size())
    throw ShapeMismatch("pads has " + std::to_string(pads.size()) + " entries for the input " + shape_to_string(x));
  Shape out = x;
  for (size_t i = 0; i < pads.size(); ++i) {
    int64_t& d = out[x.size() - pads.size() + i];
    d = checked_add(d, checked_mul(2, pads[i]));
    if (d < 1) throw ShapeMismatch("pads " + std::to_string(pads[i]) + " leave no element of " + shape_to_string(x));
  }
  return copy(x, std::move(out));
}

OpResult depth_to_space(TomlFields& a, const std::vector<Shape>& in) { return pixel_shuffle(a, in, true); }
OpResult space_to_depth(TomlFields& a, const std::vector<Shape>& in) { return pixel_shuffle(a, in, false); }

OpResult trilu(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.size() < 2) throw ShapeMismatch("needs at least two axes (a matrix), got " + shape_to_string(x));
  a.boolean("upper", true);
  a.optional_integer("diagonal");  // which diagonal starts the kept triangle: no effect on the cost
  return copy(x, x);
}

}  // namespace ridge::ops
