// Where each activation's batch lies in its ONNX shape (Placement, tensor.hpp), found
// again after a reshape moves or merges it, and an ONNX axis as an axis per sample.
#include "sim/workload/onnx/translator.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// An activation's ONNX shape at batch 1.
Shape Translator::full_shape(const Tensor& t) {
  Shape f = t.shape;
  if (t.activation && !t.at.merged) f.insert(f.begin() + t.at.batch, 1);
  return f;
}
int64_t Translator::inner(const Shape& s, size_t from) {
  int64_t p = 1;
  for (size_t i = from; i < s.size(); ++i) p = checked_mul(p, s[i]);
  return p;
}
// Elements inside one batch index of the activation's ONNX tensor at batch 1.
int64_t Translator::batch_stride(const Tensor& t) {
  return checked_mul(t.at.factor, inner(full_shape(t), static_cast<size_t>(t.at.batch) + 1));
}

// The placement of the batch in an ONNX shape `full` (at batch 1) whose batch index has
// `stride` elements inside: a size-1 axis with exactly that many inside is the batch's
// own (`prefer` first among several); otherwise the axis it is merged into. Where the
// batch sits between two axes, it is taken as the outer factor of the inner one
// ([S, N x heads, d] rather than [S x N, heads, d]: the same layout, and the costs per
// sample are the same either way).
Placement Translator::place(const onnx::NodeProto& n, const Shape& full, int64_t stride, int64_t prefer) {
  Placement p;
  int64_t pick = -1;
  for (size_t a = 0; a < full.size(); ++a)
    if (full[a] == 1 && inner(full, a + 1) == stride && (pick < 0 || static_cast<int64_t>(a) == prefer))
      pick = static_cast<int64_t>(a);
  if (pick >= 0) {
    p.batch = pick;
    return p;
  }
  p.merged = true;
  for (size_t a = 0; a < full.size(); ++a) {
    int64_t below = inner(full, a + 1), whole = checked_mul(below, full[a]);
    if (stride == whole && full[a] > 1) {  // outermost factor of axis a
      p.batch = static_cast<int64_t>(a);
      p.factor = full[a];
      return p;
    }
    if (below < stride && stride < whole && stride % below == 0 && full[a] % (stride / below) == 0) {
      p.batch = static_cast<int64_t>(a);
      p.factor = stride / below;
      return p;
    }
  }
  if (stride == 1 && !full.empty()) {  // the innermost factor of the last axis
    p.batch = static_cast<int64_t>(full.size()) - 1;
    return p;
  }
  fail(n, "loses track of the batch axis (shape " + shape_list(full) + " at batch 1)",
       "ridge follows the batch through reshapes that keep it whole");
}

// An activation with ONNX shape `full` (at batch 1) and placement `p`.
Tensor Translator::placed(const Tensor& like, const Shape& full, const Placement& p) {
  Tensor t = like;
  t.at = p;
  t.shape = full;
  if (!p.merged) t.shape.erase(t.shape.begin() + p.batch);
  return t;
}

// An ONNX axis of activation x as an axis per sample. The batch's own axis is refused;
// a merged batch's axis holds the sample's part and is taken as it is.
int64_t Translator::sample_axis(const onnx::NodeProto& n, int64_t axis, const Tensor& x) {
  int64_t full_rank = static_cast<int64_t>(x.shape.size()) + (x.at.merged ? 0 : 1);
  if (axis < 0) axis += full_rank;
  if (axis < 0 || axis >= full_rank || (!x.at.merged && axis == x.at.batch))
    fail(n, "works along the batch axis (axis " + std::to_string(axis) + "), which ridge does not model",
         "ridge models a graph whose activations keep the batch apart");
  return x.at.merged || axis < x.at.batch ? axis : axis - 1;
}
// The layers that read [N, C, H, W] need the batch first and alone.
void Translator::batch_first(const onnx::NodeProto& n, const Tensor& x) {
  if (x.at.batch != 0 || x.at.merged)
    fail(n, "needs its input's batch first (it is on axis " + std::to_string(x.at.batch) + ")");
}
// A layer reading [N, C, *S] also takes a sample of R items stacked on its first axis
// (the RoIs of a detector's mask and keypoint heads, [R, 256, 14, 14] for one image):
// `images = R` goes on the layer (sim/workload/stacked_layer.hpp) and the item [C, *S]
// is returned, for the handler's checks; otherwise x, its batch first.
Tensor Translator::stacked_item(const onnx::NodeProto& n, const Tensor& x, toml::table& attrs) {
  if (!x.at.merged || x.at.batch != 0 || x.shape.size() < 2 || x.at.factor != x.shape[0]) {
    batch_first(n, x);
    return x;
  }
  attrs.insert("images", x.shape[0]);
  Tensor item = x;
  item.shape.erase(item.shape.begin());
  item.at = Placement{};
  return item;
}

}  // namespace ridge::onnx_import
