// Nodes that repeat, rearrange or scan an activation: Tile -> tile, DepthToSpace /
// SpaceToDepth -> depth_to_space / space_to_depth, Trilu -> trilu, CumSum -> cumsum
// (sim/workload/ops/rearrange.cpp and reduction.cpp count them).
#include "sim/workload/onnx/translator.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// Tile by constant repeats, one per ONNX axis: the batch's must be 1 (a graph that
// repeats its batch makes samples ridge's --batch does not count).
void Translator::tile(const onnx::NodeProto& n, int index) {
  const std::vector<int64_t> repeats = values(n, 1);
  if (!tensor(n, 0).activation) return tile_constant(n, repeats);
  Tensor x = activation(n, 0);
  const Shape full = full_shape(x);
  if (repeats.size() != full.size())
    fail(n, "repeats " + value_list(repeats) + " do not give one count per axis of the input " + shape_list(full));
  if (x.at.merged) fail(n, "tiles an input whose batch is merged into another axis, which ridge does not model");
  std::vector<int64_t> per_sample;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 1) fail(n, "repeats " + value_list(repeats) + " must be positive");
    if (static_cast<int64_t>(i) == x.at.batch) {
      if (repeats[i] != 1) fail(n, "repeats the batch axis, which ridge does not model", "--batch sets the samples");
      continue;
    }
    per_sample.push_back(repeats[i]);
  }
  toml::table a;
  a.insert("repeats", to_array(per_sample));
  layer(n, index, "tile", {&x}, std::move(a));
}

// A constant tiled (SSDlite's anchors repeated per image): its shape, and its values
// where they are known; output element i of an axis comes from i mod the input's size.
void Translator::tile_constant(const onnx::NodeProto& n, const std::vector<int64_t>& repeats) {
  const Tensor& x = tensor(n, 0);
  if (repeats.size() != x.shape.size())
    fail(n, "repeats " + value_list(repeats) + " do not give one count per axis of the input " + shape_list(x.shape));
  Shape out = x.shape;
  for (size_t i = 0; i < out.size(); ++i) {
    if (repeats[i] < 0) fail(n, "repeats " + value_list(repeats) + " must not be negative");
    out[i] = checked_mul(out[i], repeats[i]);
  }
  folded(n, out, rearranged(x, out, [&](std::vector<int64_t>& idx) {
           for (size_t i = 0; i < idx.size(); ++i) idx[i] %= x.shape[i];
         }));
}

// DepthToSpace (either mode: DCR and CRD move the same elements) and SpaceToDepth.
void Translator::depth_to_space(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  toml::table a;
  a.insert("block_size", attr_int(n, "blocksize", 0));
  layer(n, index, n.op_type() == "DepthToSpace" ? "depth_to_space" : "space_to_depth", {&x}, std::move(a));
}

// Trilu: input 1, when given, is the diagonal (a constant).
int64_t Translator::diagonal(const onnx::NodeProto& n) {
  const std::vector<int64_t> k = values(n, 1);
  if (k.size() != 1) fail(n, "the diagonal k must be one value (got " + value_list(k) + ")");
  return k[0];
}

void Translator::trilu(const onnx::NodeProto& n, int index) {
  if (!tensor(n, 0).activation) return trilu_constant(n);
  Tensor x = activation(n, 0);
  if (x.shape.size() < 2) fail(n, "needs a matrix per sample (the input is " + shape_list(full_shape(x)) + ")");
  if (!x.at.merged && x.at.batch >= static_cast<int64_t>(x.shape.size()) - 1)
    fail(n, "works on a matrix holding the batch axis, which ridge does not model");
  toml::table a;
  a.insert("upper", attr_int(n, "upper", 1) != 0);
  if (has_input(n, 1)) a.insert("diagonal", diagonal(n));
  layer(n, index, "trilu", {&x}, std::move(a));
}

// Trilu of a constant (a causal mask, torch.tril(torch.ones(T, T)) in the forward): a
// constant of the same shape, its values where they are known: element [.., i, j] kept
// where j - i >= k (upper) or j - i <= k (lower), else 0.
void Translator::trilu_constant(const onnx::NodeProto& n) {
  const Tensor& x = tensor(n, 0);
  if (x.shape.size() < 2) fail(n, "needs a matrix (the input is " + shape_list(x.shape) + ")");
  const int64_t k = has_input(n, 1) ? diagonal(n) : 0;
  const bool upper = attr_int(n, "upper", 1) != 0;
  const int64_t rows = x.shape[x.shape.size() - 2], cols = x.shape.back();
  std::optional<std::vector<int64_t>> v = x.values;
  if (v && rows > 0 && cols > 0 && static_cast<int64_t>(v->size()) == element_count(x.shape))
    for (size_t e = 0; e < v->size(); ++e) {
      const int64_t i = static_cast<int64_t>(e) / cols % rows, j = static_cast<int64_t>(e) % cols;
      const int64_t d = j - i;  // |k| may be any int64: compare, never subtract it
      if (upper ? d < k : d > k) (*v)[e] = 0;
    }
  else v.reset();
  folded(n, x.shape, v);
}

// CumSum along the axis input 1 holds (a constant scalar).
void Translator::cumsum(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  const std::vector<int64_t> axis = values(n, 1);
  if (axis.size() != 1) fail(n, "the axis must be one value (got " + value_list(axis) + ")");
  toml::table a;
  a.insert("axis", sample_axis(n, axis[0], x));
  a.insert("exclusive", attr_int(n, "exclusive", 0) != 0);
  a.insert("reverse", attr_int(n, "reverse", 0) != 0);
  layer(n, index, "cumsum", {&x}, std::move(a));
}

}  // namespace ridge::onnx_import
