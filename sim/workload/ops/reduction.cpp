// Reductions over some axes (per sample; negative axes count from the end), ONNX's
// ReduceMean / ReduceSum: the output keeps the reduced axes as 1 (keepdims, default
// true) or drops them. Per output element of a reduction over R elements: R-1 adds,
// and one divide for the mean. Backward: the gradient broadcast back, one multiply
// per input element for the mean (by 1/R), nothing for the sum.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

OpResult reduce(TomlFields& a, const std::vector<Shape>& in, bool mean) {
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
  n.flops = n.input_elems - n.output_elems + (mean ? n.output_elems : 0);
  if (mean) n.bwd_input_other_flops = n.input_elems;
  return r;
}

}  // namespace

OpResult reduce_mean(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, true); }
OpResult reduce_sum(TomlFields& a, const std::vector<Shape>& in) { return reduce(a, in, false); }

}  // namespace ridge::ops
