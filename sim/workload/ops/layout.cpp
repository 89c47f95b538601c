// Layers that rearrange data without arithmetic (0 MACs, 0 FLOPs, forward and
// backward: the gradient is rearranged back the same way). Dimensions and axes are
// per sample (the batch is not one of them); a negative axis counts from the end.
// transpose (perm): a copy into the new order, as .permute(...).contiguous(): reads and
//   writes every element.
// reshape (shape, one -1 inferred): a view like flatten, no data moved.
// concat (axis): copies every input into one output; the other dimensions must match.
//   One input is a copy of it (DenseNet's first dense block).
// select (axis, index): picks one index along an axis and drops that dimension
//   (x[:, 0] of BERT's pooler, torch.select): a view, no data moved.
// slice (axes, starts, ends, steps as ONNX's Slice; ends clamp to the dimension):
//   a strided range, copied (reads and writes the elements it keeps), as ONNX's
//   Slice and Split produce a new tensor.
#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

// The axis named by `key` (default `fallback`) as an index into a rank-`rank` shape.
size_t axis_of(TomlFields& a, std::string_view key, int64_t fallback, size_t rank, const Shape& x) {
  int64_t axis = a.optional_integer(key).value_or(fallback);
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    a.fail(key, "must be in [" + std::to_string(-r) + ", " + std::to_string(r) + ") for the input " +
                    shape_to_string(x) + " (got " + std::to_string(axis) + ")");
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

}  // namespace

OpResult transpose(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  std::vector<int64_t> perm = a.integer_list("perm", true);
  if (perm.size() != x.size())
    throw ShapeMismatch("perm has " + std::to_string(perm.size()) + " entries but the input has " +
                        std::to_string(x.size()) + " dimensions");
  std::vector<bool> seen(x.size(), false);
  for (int64_t p : perm) {
    if (p >= static_cast<int64_t>(x.size()) || seen[p])
      a.fail("perm", "must list each dimension 0.." + std::to_string(x.size() - 1) + " exactly once");
    seen[p] = true;
  }
  OpResult r;
  for (int64_t p : perm) r.output.push_back(x[p]);
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(x);
  return r;
}

OpResult reshape(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  std::vector<int64_t> target = a.integer_list("shape", false, true);
  if (target.empty()) a.fail("shape", "must have at least one dimension");
  int64_t known = 1;
  int inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (inferred >= 0) a.fail("shape", "may hold only one -1");
      inferred = static_cast<int>(i);
    } else if (target[i] <= 0) {
      a.fail("shape", "dimensions must be positive, or -1 once (got " + std::to_string(target[i]) + ")");
    } else {
      known = checked_mul(known, target[i]);
    }
  }
  int64_t total = element_count(x);
  if (inferred >= 0) {
    if (total % known)
      throw ShapeMismatch("cannot reshape " + std::to_string(total) + " elements into " + shape_to_string(target) +
                          ": " + std::to_string(known) + " does not divide them");
    target[inferred] = total / known;
  } else if (known != total) {
    throw ShapeMismatch("cannot reshape " + std::to_string(total) + " elements into " + shape_to_string(target) +
                        " (" + std::to_string(known) + " elements)");
  }
  OpResult r;
  r.output = std::move(target);
  r.counts.is_view = true;
  return r;
}

OpResult concat(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("concat needs inputs with at least one dimension");
  size_t axis = axis_of(a, "axis", 0, x.size(), x);
  OpResult r;
  r.output = x;
  r.output[axis] = 0;
  for (const Shape& s : in) {
    bool fits = s.size() == x.size();
    for (size_t i = 0; fits && i < s.size(); ++i) fits = i == axis || s[i] == x[i];
    if (!fits)
      throw ShapeMismatch("concat along axis " + std::to_string(axis) + " needs the other dimensions equal, got " +
                          shape_to_string(x) + " and " + shape_to_string(s));
    r.output[axis] = checked_add(r.output[axis], s[axis]);
  }
  LayerCounts& n = r.counts;
  n.output_elems = element_count(r.output);
  n.input_elems = n.output_elems;  // every input element is read once
  return r;
}

OpResult select(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  if (x.empty()) throw ShapeMismatch("select needs an input with at least one dimension");
  size_t axis = axis_of(a, "axis", 0, x.size(), x);
  int64_t index = a.integer("index");
  if (index < -x[axis] || index >= x[axis])
    a.fail("index", "must be in [" + std::to_string(-x[axis]) + ", " + std::to_string(x[axis]) +
                        ") for axis " + std::to_string(axis) + " of the input " + shape_to_string(x) + " (got " +
                        std::to_string(index) + ")");
  OpResult r;
  r.output = x;
  r.output.erase(r.output.begin() + static_cast<std::ptrdiff_t>(axis));
  r.counts.is_view = true;
  return r;
}

OpResult slice(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& x = in[0];
  std::vector<int64_t> axes = a.integer_list("axes", true, true);
  std::vector<int64_t> starts = a.integer_list("starts", true, true);
  std::vector<int64_t> ends = a.integer_list("ends", true, true);
  std::vector<int64_t> steps = a.optional_integer_list("steps").value_or(std::vector<int64_t>(axes.size(), 1));
  if (starts.size() != axes.size() || ends.size() != axes.size() || steps.size() != axes.size())
    a.fail("axes", "starts, ends and steps must have one entry per axis");
  OpResult r;
  r.output = x;
  const int64_t rank = static_cast<int64_t>(x.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < -rank || axes[i] >= rank)
      a.fail("axes", "must be in [" + std::to_string(-rank) + ", " + std::to_string(rank) + ") for the input " +
                         shape_to_string(x) + " (got " + std::to_string(axes[i]) + ")");
    size_t axis = static_cast<size_t>(axes[i] < 0 ? axes[i] + rank : axes[i]);
    int64_t dim = x[axis];
    auto clamp = [dim](int64_t v) { return std::clamp(v < 0 ? v + dim : v, int64_t{0}, dim); };
    int64_t begin = clamp(starts[i]), end = clamp(ends[i]);
    int64_t count = end > begin ? (end - begin + steps[i] - 1) / steps[i] : 0;
    if (count == 0) throw ShapeMismatch("slice keeps nothing of axis " + std::to_string(axis));
    r.output[axis] = count;
  }
  LayerCounts& n = r.counts;
  n.input_elems = n.output_elems = element_count(r.output);
  return r;
}

}  // namespace ridge::ops
