// Nodes that change an activation's layout: Reshape, Flatten, Squeeze / Unsqueeze (a
// reshape layer, a view, or nothing when the shape per sample is unchanged), and
// Transpose (a copy); on constants, the same as shape arithmetic.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// An Unsqueeze's axes as positions in its output (of rank `in_rank` + their number), ascending.
std::vector<int64_t> Translator::unsqueezed_axes(const onnx::NodeProto& n, const std::vector<int64_t>& axes, size_t in_rank) {
  const int64_t rank = static_cast<int64_t>(in_rank + axes.size());
  std::vector<int64_t> sorted;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      fail(n, "axis " + std::to_string(a) + " is out of range for its output of rank " + std::to_string(rank));
    sorted.push_back(a < 0 ? a + rank : a);
  }
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// A Transpose's `perm` over `rank` axes: a permutation of 0 .. rank-1 (ONNX's default,
// when it is not given, reverses the axes).
std::vector<int64_t> Translator::permutation(const onnx::NodeProto& n, size_t rank) {
  std::vector<int64_t> perm;
  if (std::optional<std::vector<int64_t>> given = attr_ints(n, "perm")) perm = *given;
  else for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == rank;
  for (size_t i = 0; ok && i < rank; ++i) ok = sorted[i] == static_cast<int64_t>(i);
  if (!ok) fail(n, "'perm' " + shape_list(perm) + " is not a permutation of the " + std::to_string(rank) + " axes");
  return perm;
}

// x seen as `out` (the same data, shape and batch placement from place()): passed on
// when nothing changes per sample, otherwise a reshape layer (a view).
void Translator::view(const onnx::NodeProto& n, int index, const Tensor& x, const Tensor& out) {
  if (out.shape == x.shape && out.at == x.at) return pass_on(n, x);
  toml::table a;
  a.insert("shape", to_array(out.shape));
  Tensor xin = x;
  layer(n, index, "reshape", {&xin}, std::move(a), out.at);
  tensors_[n.output(0)].prob_row = x.prob_row;  // (a view: rows of probabilities stay contiguous)
}
// x as the ONNX shape `full` at batch 1 (the same element count), its batch found again.
void Translator::view_as(const onnx::NodeProto& n, int index, const Tensor& x, const Shape& full, int64_t prefer) {
  Tensor out = placed(x, full, place(n, full, batch_stride(x), prefer));
  // A scalar of one image unsqueezed ([] to [1]): its axis merged, not the batch's own,
  // so that it keeps a shape per sample (a Loop trip's box coordinate).
  if (out.shape.empty() && !full.empty() && unbatched_)
    out = placed(x, full, Placement{out.at.batch, true, full[static_cast<size_t>(out.at.batch)]});
  view(n, index, x, out);
}

void Translator::reshape(const onnx::NodeProto& n, int index) {
  const Tensor& x = tensor(n, 0);
  const std::vector<int64_t> given = values(n, 1);
  std::vector<int64_t> target = given;
  if (!x.activation) {  // a constant reshaped: its shape only (0 copies, -1 takes the rest)
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < target.size(); ++i) {
      if (target[i] == 0 && i < x.shape.size()) target[i] = x.shape[i];
      if (target[i] == -1) infer = static_cast<int64_t>(i);
      else known = checked_mul(known, target[i]);
    }
    if (infer >= 0 && known > 0) target[infer] = element_count(x.shape) / known;
    return folded(n, target, x.values);
  }
  Shape full = full_shape(x);
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && attr_int(n, "allowzero", 0) == 0) {
      if (i >= full.size()) fail(n, "target " + shape_list(given) + " copies a dimension the input lacks");
      target[i] = full[i];
    }
    if (target[i] == -1) infer = static_cast<int64_t>(i);
    else known = checked_mul(known, target[i]);
  }
  int64_t total = element_count(full);
  if (infer >= 0) {
    if (known == 0 || total % known) fail(n, "cannot reshape " + shape_list(full) + " into " + shape_list(given));
    target[infer] = total / known;
  }
  if (element_count(target) != total)
    fail(n, "cannot reshape " + shape_list(full) + " into " + shape_list(given) + " (at batch 1)");
  Tensor xin = x;
  view_as(n, index, xin, target, x.at.merged ? -1 : x.at.batch);
}

void Translator::flatten(const onnx::NodeProto& n, int index) {
  const Tensor& x = tensor(n, 0);
  Shape full = x.activation ? full_shape(x) : x.shape;
  int64_t axis = attr_int(n, "axis", 1);
  if (axis < 0) axis += static_cast<int64_t>(full.size());
  if (axis < 0 || axis > static_cast<int64_t>(full.size())) fail(n, "axis " + std::to_string(axis) + " is out of range");
  // A constant (the level of each anchor in torchvision's RPN) keeps its values in order.
  if (!x.activation) return folded(n, {element_count(full) / inner(full, axis), inner(full, axis)}, x.values);
  Tensor xin = x;
  return view_as(n, index, xin, {element_count(full) / inner(full, axis), inner(full, axis)});
}

void Translator::squeeze(const onnx::NodeProto& n, int index) {
  const std::string& op = n.op_type();
  const Tensor& x = tensor(n, 0);
  std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
  if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
  if (!x.activation) {  // folded: shape arithmetic
    Shape s = x.shape;
    if (op == "Unsqueeze") {
      for (int64_t a : unsqueezed_axes(n, axes, s.size())) s.insert(s.begin() + std::min<int64_t>(a, s.size()), 1);
    } else {
      Shape kept;
      for (size_t i = 0; i < s.size(); ++i)
        if (s[i] != 1) kept.push_back(s[i]);
      s = kept;
    }
    return folded(n, s, x.values);
  }
  // The ONNX shape at batch 1, each axis tagged with whether it is the batch's own.
  Shape full = full_shape(x);
  std::vector<bool> own(full.size(), false);
  if (!x.at.merged) own[x.at.batch] = true;
  if (op == "Unsqueeze") {
    for (int64_t a : unsqueezed_axes(n, axes, full.size())) {
      size_t at = static_cast<size_t>(std::min<int64_t>(a, full.size()));
      full.insert(full.begin() + at, 1);
      own.insert(own.begin() + at, false);
    }
  } else {
    int64_t rank = static_cast<int64_t>(full.size());
    std::set<int64_t> drop;
    for (int64_t a : axes) drop.insert(a < 0 ? a + rank : a);
    Shape kept;
    std::vector<bool> kept_own;
    for (size_t i = 0; i < full.size(); ++i)
      if (!(axes.empty() ? (full[i] == 1 && !own[i]) : drop.count(static_cast<int64_t>(i)) > 0)) {
        kept.push_back(full[i]);
        kept_own.push_back(own[i]);
      }
    full = kept;
    own = kept_own;
  }
  int64_t prefer = std::find(own.begin(), own.end(), true) - own.begin();
  Tensor xin = x;
  return view_as(n, index, xin, full, prefer);
}

void Translator::transpose(const onnx::NodeProto& n, int index) {
  const Tensor& c = tensor(n, 0);
  if (!c.activation) {  // a weight transposed for a MatMul (torch's Linear in training export)
    std::vector<int64_t> perm = permutation(n, c.shape.size());
    Tensor t = c;
    if (c.learned && c.source.empty()) t.source = n.input(0);  // the initializer, for a tied weight
    for (size_t i = 0; i < perm.size(); ++i) t.shape[i] = c.shape[perm[i]];
    t.values = rearranged(c, t.shape, [&](std::vector<int64_t>& idx) {
      std::vector<int64_t> src(idx.size());
      for (size_t i = 0; i < perm.size(); ++i) src[perm[i]] = idx[i];
      idx = src;
    });
    tensors_[n.output(0)] = std::move(t);
    return;
  }
  const Tensor& x = activation(n, 0);
  Shape full = full_shape(x);
  std::vector<int64_t> perm = permutation(n, full.size());
  // The batch moves with its axis; per sample the permutation of the other axes (a copy
  // even when only the batch moved, as the ONNX Transpose is).
  Placement at = x.at;
  at.batch = std::find(perm.begin(), perm.end(), x.at.batch) - perm.begin();
  toml::array p;
  for (int64_t v : perm)
    if (x.at.merged) p.push_back(v);
    else if (v != x.at.batch) p.push_back(v > x.at.batch ? v - 1 : v);
  toml::table a;
  a.insert("perm", std::move(p));
  Tensor xin = x;
  return layer(n, index, "transpose", {&xin}, std::move(a), at);
}

}  // namespace ridge::onnx_import
