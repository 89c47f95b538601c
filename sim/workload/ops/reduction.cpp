// Reductions over some axes (per sample; negative axes count from the end), ONNX's
// ReduceMean / ReduceSum / ReduceMax / ReduceMin / ReduceL2 / ArgMax: the output keeps the
// reduced axes as 1 (keepdims, default true) or drops them. Per output element of a
// reduction over R elements: sum R-1 adds; mean R-1 adds and one divide; max, min and
// argmax R-1 compares; L2 R squares, R-1 adds and one square root (2R in all).
// Backward: the gradient broadcast back, one multiply per input element for the mean
// (by 1/R), nothing for the sum, one select per input element for max and min (the
// gradient goes to the extreme), x / y * g (2) per input element for L2; argmax's
// output is an index, with no gradient.
// cumsum (axis, exclusive, reverse; ONNX CumSum, torch.cumsum): a running sum along one
// axis of length L, the other axes kept: L-1 adds per line (exclusive or not, forward or
// reverse), and backward the same running sum of the gradient taken the other way.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

enum class Reduce { sum, mean, extreme, l2, index };

OpResult reduce(TomlFields& a, const std::vector<Shape>& in, Reduce kind) {
  const Shape& x = in[0];
  const int64_t rank = static_cast<int64_t>(x.size());
  std::vector<int64_t> axes = a.integer_list("axes", true, true);
  if (axes.empty()) a.fail("axes", "must name at least one axis");
  std::vector<bool> reduced(x.size(), false);
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank)
      a.fail("axes", "must be in [" + std::to_string(-rank) + ", " + std::to_string(rank) + ") for the input " +
                         shape_to_string(x) + " (got " + std::to_string(axis) + ")");
    reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  bool keepdims = a.boolean("keepdims", true);
  OpResult r;
  for (size_t i = 0; i < x.size(); ++i)
    if (!reduced[i]) r.output.push_back(x[i]);
    else if (keepdims) r.output.push_back(1);
  LayerCounts& n = r.counts;
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  n.flops = n.input_elems - n.output_elems;  // R-1 per output: adds or compares
  if (kind == Reduce::mean) n.flops += n.output_elems;
  if (kind == Reduce::l2) n.flops = checked_mul(2, n.input_elems);
  if (kind == Reduce::mean || kind == Reduce::extreme) n.bwd_input_other_flops = n.input_elems;
  if (kind == Reduce::l2) n.bwd_input_other_flops = checked_mul(2, n.input_elems);
  return r;
}

}  // namespace

OpResult cumsum(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  const int64_t rank = static_cast<int64_t>(x.size());
  int64_t axis = a.integer("axis");
  if (axis < -rank || axis >= rank)
    a.fail("axis", "must be in [" + std::to_string(-rank) + ", " + std::to_string(rank) + ") for the input " +
                       shape_to_string(x) + " (got " + std::to_string(axis) + ")");
  a.boolean("exclusive", false);
  a.boolean("reverse", false);
  OpResult r;
  r.output = x;
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(x);
  const int64_t length = x[static_cast<size_t>(axis < 0 ? axis + rank : axis)];
  n.flops = n.input_elems - n.input_elems / length;  // L-1 adds per line
  n.bwd_input_other_flops = n.flops;
  return r;
}

OpResult reduce_mean(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::mean); }
OpResult reduce_sum(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::sum); }
OpResult reduce_max(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::extreme); }
OpResult reduce_min(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::extreme); }
OpResult reduce_l2(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::l2); }
OpResult argmax(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, Reduce::index); }

}  // namespace ridge::ops
