// The layers of detection graphs: indexing by computed indices, selection and box
// operations. Shapes are per sample; forward only (no gradient is counted: these are
// the inference-time post-processing of a detector). Where ONNX's output size depends
// on the data (how many boxes survive), the layer is given its upper bound and counted
// at it; the ONNX reader says which bound it used (docs/reference/onnx-detection.md).
// gather (axis; inputs data, indices): data[..., indices, ...]: output = data[:axis] +
//   indices + data[axis+1:]; reads the indices and the elements it copies, writes them.
// gather_elements (axis; data, indices): output of the indices' shape, one element each.
// gather_nd (batch_dims; data, indices [..., k]): output = indices[:-1] + data[k:].
// scatter (data, indices, updates): data with the updates written at the indices (ONNX
//   ScatterElements / ScatterND): copies data, reads indices and updates.
// topk (axis, k): the k largest along an axis, values and indices (both counted as
//   output elements); a heap selection: n x ceil(log2(k + 1)) comparisons for n
//   elements along the axis, per slice.
// nonzero (rank, at_most): the indices [rank, n] of the nonzero elements of its input
//   (rank: the input's axes as ONNX counts them, its batch's included; by default the
//   input's rank), at their upper bound n = every element, or at_most where fewer can be
//   nonzero (scores above a threshold); one comparison per input element.
// nms (max_output; boxes [B, 4], scores [C, B], or both with a leading 1): greedy non-maximum suppression per
//   class that stops once it has kept K = min(max_output, B) boxes: a sort of the B
//   scores (B ceil(log2 B) comparisons); each box in score order is tested against the
//   boxes kept before it, at most min(i, K - 1) for the i-th, in all at most
//   K (K - 1) / 2 + (B - K)(K - 1) IoU tests (B (B - 1) / 2 when K = B), of 12 FLOPs each
//   (4 min/max for the overlap's corners, 2 subtractions and 2 clamps for its sides, 1
//   multiply for its area, 1 add and 1 subtract for the union from areas computed once
//   per box (3 FLOPs), 1 compare against threshold x union); output [C x K, 3] (class,
//   box index triples, ONNX's layout less the batch).
// roi_align (output_height, output_width, sampling_ratio; features [C, H, W], rois
//   [R, 4]): output [R, C, oh, ow]; each output element averages sampling_ratio^2
//   bilinear samples of 4 taps, each tap a multiply-add: 8 s^2 + 1 FLOPs; the feature
//   map and the boxes are read once (caches assumed to hold the taps' reuse).
#include <algorithm>
#include <cmath>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

size_t axis_in(TomlFields& a, int64_t axis, const Shape& x) {
  const auto rank = static_cast<int64_t>(x.size());
  if (axis < -rank || axis >= rank)
    a.fail("axis", "must be in [" + std::to_string(-rank) + ", " + std::to_string(rank) + ") for the input " +
                       shape_to_string(x) + " (got " + std::to_string(axis) + ")");
  return static_cast<size_t>(axis < 0 ? axis + rank : axis);
}

// A copy of `out` elements chosen by `indices` elements.
OpResult gathered(Shape out, const Shape& indices) {
  OpResult r;
  r.output = std::move(out);
  r.counts.output_elems = element_count(r.output);
  r.counts.input_elems = checked_add(r.counts.output_elems, element_count(indices));
  return r;
}

int64_t ceil_log2(int64_t n) {
  int64_t bits = 0;
  while (bits < 63 && (int64_t{1} << bits) < n) ++bits;
  return bits;
}

}  // namespace

OpResult gather(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("gather needs data with at least one dimension");
  size_t axis = axis_in(a, a.optional_integer("axis").value_or(0), x);
  Shape out(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), in[1].begin(), in[1].end());
  out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.end());
  return gathered(std::move(out), in[1]);
}

OpResult gather_elements(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  axis_in(a, a.optional_integer("axis").value_or(0), x);
  if (in[1].size() != x.size())
    throw ShapeMismatch("gather_elements needs indices of the data's rank, got " + shape_to_string(x) + " and " +
                        shape_to_string(in[1]));
  return gathered(in[1], in[1]);
}

OpResult gather_nd(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& idx = in[1];
  int64_t batch_dims = a.optional_integer("batch_dims").value_or(0);
  if (idx.empty() || batch_dims < 0 || batch_dims >= static_cast<int64_t>(idx.size()) ||
      idx.back() + batch_dims > static_cast<int64_t>(x.size()))
    throw ShapeMismatch("gather_nd's indices " + shape_to_string(idx) + " do not index the data " + shape_to_string(x) +
                        " (batch_dims " + std::to_string(batch_dims) + ")");
  Shape out(idx.begin(), idx.end() - 1);
  out.insert(out.end(), x.begin() + batch_dims + idx.back(), x.end());
  return gathered(std::move(out), idx);
}

OpResult scatter(TomlFields&, const std::vector<Shape>& in) {
  OpResult r;
  r.output = in[0];
  LayerCounts& n = r.counts;
  n.output_elems = element_count(in[0]);
  n.input_elems = checked_add(checked_add(n.output_elems, element_count(in[1])), element_count(in[2]));
  return r;
}

OpResult topk(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("topk needs an input with at least one dimension");
  size_t axis = axis_in(a, a.optional_integer("axis").value_or(-1), x);
  int64_t k = a.positive("k");
  if (k > x[axis])
    a.fail("k", "must be at most the axis' size " + std::to_string(x[axis]) + " (got " + std::to_string(k) + ")");
  OpResult r;
  r.output = x;
  r.output[axis] = k;
  LayerCounts& n = r.counts;
  n.input_elems = element_count(x);
  n.output_elems = checked_mul(2, element_count(r.output));  // values and indices
  n.flops = checked_mul(n.input_elems, ceil_log2(k + 1));
  return r;
}

OpResult nonzero(TomlFields& a, const std::vector<Shape>& in) {
  OpResult r;
  const int64_t elems = element_count(in[0]);
  const int64_t kept = std::min(elems, a.positive("at_most", elems));
  r.output = {a.optional_integer("rank").value_or(static_cast<int64_t>(in[0].size())), kept};
  r.counts.input_elems = r.counts.flops = elems;
  r.counts.output_elems = element_count(r.output);
  return r;
}

OpResult nms(TomlFields& a, const std::vector<Shape>& in) {
  auto unbatched = [](Shape s) {  // (ONNX's leading batch of one, kept by an unbatched graph)
    if (s.size() == 3 && s[0] == 1) s.erase(s.begin());
    return s;
  };
  const Shape boxes = unbatched(in[0]);
  const Shape scores = unbatched(in[1]);
  if (boxes.size() != 2 || boxes[1] != 4 || scores.size() != 2 || scores[1] != boxes[0])
    throw ShapeMismatch("nms needs boxes [B, 4] and scores [C, B], got " + shape_to_string(boxes) + " and " +
                        shape_to_string(scores));
  const int64_t b = boxes[0], classes = scores[0];
  const int64_t kept = std::min(a.positive("max_output"), b);
  OpResult r;
  r.output = {checked_mul(classes, kept), 3};
  LayerCounts& n = r.counts;
  n.input_elems = checked_add(element_count(boxes), element_count(scores));
  n.output_elems = element_count(r.output);
  const int64_t tests = checked_add(checked_mul(kept, kept - 1) / 2, checked_mul(b - kept, std::max<int64_t>(kept - 1, 0)));
  const int64_t per_class =
      checked_add(checked_add(checked_mul(b, ceil_log2(b)), checked_mul(3, b)), checked_mul(12, tests));
  n.flops = checked_mul(classes, per_class);
  return r;
}

OpResult roi_align(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const Shape& rois = in[1];
  if (x.size() != 3 || rois.size() != 2 || rois[1] != 4)
    throw ShapeMismatch("roi_align needs features [C, H, W] and rois [R, 4], got " + shape_to_string(x) + " and " +
                        shape_to_string(rois));
  const int64_t oh = a.positive("output_height"), ow = a.positive("output_width");
  const int64_t s = a.positive("sampling_ratio");
  OpResult r;
  r.output = {rois[0], x[0], oh, ow};
  LayerCounts& n = r.counts;
  n.output_elems = element_count(r.output);
  n.input_elems = checked_add(element_count(x), element_count(rois));
  n.flops = checked_mul(n.output_elems, checked_add(checked_mul(8, checked_mul(s, s)), 1));
  return r;
}

}  // namespace ridge::ops
