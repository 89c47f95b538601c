// The nodes of detection graphs (torchvision's Faster R-CNN, RetinaNet, FCOS, SSD):
// TopK, NonZero, NonMaxSuppression, RoiAlign, Gather by computed indices,
// GatherElements, GatherND, ScatterElements / ScatterND, and If. Their outputs' sizes
// depend on the data (boxes that pass a threshold, boxes NMS keeps); ridge gives each
// its upper bound (NonZero: every element; NMS: min(max_output_boxes_per_class, boxes)
// per class, the attribute the exporter wrote), and the graph's own slices
// (post_nms_top_n, detections_per_img) cut them to the model's limits. Counting
// conventions: sim/workload/ops/detection.cpp.
#include "sim/workload/onnx/translator.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {

// The first value of a constant integer input, or `fallback`.
int64_t first_value(const Tensor& t, int64_t fallback) {
  return t.values && !t.values->empty() ? (*t.values)[0] : fallback;
}

}  // namespace

// Input i of an indexing node as an activation: a constant (index lists, anchors) is a
// `parameter` aligned with the node's activation `act` (its batch axis dropped, no
// learned elements unless it is an initializer).
Tensor Translator::indexing_input(const onnx::NodeProto& n, int i, const Tensor& act) {
  const Tensor& t = tensor(n, i);
  return t.activation ? t : as_parameter(n, n.input(i), t, act);
}

// The first activation among a node's inputs.
const Tensor& Translator::first_activation(const onnx::NodeProto& n) {
  for (int i = 0; i < n.input_size(); ++i)
    if (has_input(n, i) && tensor(n, i).activation) return tensor(n, i);
  fail(n, "has no activation input");
}

void Translator::topk(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  int64_t k = has_input(n, 1) ? first_value(constant(n, 1), -1) : attr_int(n, "k", -1);
  if (k <= 0) fail(n, "k must be a positive constant ridge can fold");
  toml::table a;
  a.insert("axis", sample_axis(n, attr_int(n, "axis", -1), x));
  a.insert("k", k);
  layer(n, index, "topk", {&x}, std::move(a));
  for (int o = 1; o < n.output_size(); ++o) tensors_[n.output(o)] = tensors_[n.output(0)];
}

void Translator::nonzero(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  a.insert("rank", static_cast<int64_t>(full_shape(x).size()));  // the ONNX output [rank, n] counts every axis
  const int64_t kept = nonzero_bound(x);  // (value_bounds.cpp)
  if (kept < element_count(x.shape)) a.insert("at_most", kept);
  layer(n, index, "nonzero", {&x}, std::move(a), Placement{1, true, kept});
}

void Translator::non_max_suppression(const onnx::NodeProto& n, int index) {
  Tensor boxes = activation(n, 0), scores = activation(n, 1);
  // Input 2: max_output_boxes_per_class (0 or absent: none kept, ONNX's default).
  int64_t max_out = has_input(n, 2) ? first_value(constant(n, 2), 0) : 0;
  if (max_out <= 0) fail(n, "max_output_boxes_per_class is 0 or not a constant, so it keeps no box ridge can count");
  Shape b = full_shape(boxes), s = full_shape(scores);
  if (b.size() != 3 || s.size() != 3 || b[0] != 1 || s[0] != 1)
    fail(n, "needs boxes [1, B, 4] and scores [1, C, B] (got " + shape_list(b) + " and " + shape_list(s) + ")");
  // The boxes kept per class: for the RPN's NMS (of module `rpn`, or on its boxes), --set
  // onnx.proposals; else --set onnx.max_detections; else the graph's cut after it
  // (post_nms_top_n, detections_per_img); else every box (the upper bound).
  int64_t keep = std::min(max_out, b[1]);
  std::string why = "every box, the upper bound";
  const std::optional<int64_t> cut = kept_after_nms(n.output(0));
  const bool rpn = module_of(n) == "rpn";
  rpn_nms_ |= rpn;
  if (rpn && options_.proposals) {
    if (cut && *options_.proposals > *cut)
      fail("--set onnx.proposals=" + std::to_string(*options_.proposals) + ": the graph keeps at most " +
               std::to_string(*cut) + " proposals per image after node '" + n.name() + "' (its post-NMS top-N)",
           "give at most " + std::to_string(*cut));
    keep = std::min(keep, *options_.proposals);
    why = "onnx.proposals";
  } else if (options_.max_detections && *options_.max_detections < keep) {
    keep = *options_.max_detections;
    why = "onnx.max_detections";
  } else if (!options_.max_detections && cut && *cut < keep) {
    keep = *cut;
    why = "the graph keeps " + std::to_string(*cut) + " after it";
  }
  nms_kept_.push_back(module_name(n.name()) + " " + std::to_string(keep) + " of " + std::to_string(b[1]) +
                      " boxes per class (" + why + ")");
  toml::table a;
  a.insert("max_output", keep);
  layer(n, index, "nms", {&boxes, &scores}, std::move(a), Placement{0, true, checked_mul(s[1], keep)});
}

void Translator::roi_align(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  Tensor rois = indexing_input(n, 1, x);
  const Shape& r = rois.shape;  // (per sample: a constant's whole shape, a computed one's part)
  if (r.size() != 2 || r[1] != 4) fail(n, "needs rois [R, 4] (got " + shape_list(r) + ")");
  int64_t ratio = attr_int(n, "sampling_ratio", 0);
  // 0: adaptive, ceil(roi size / output size) samples per bin, which depends on each
  // box: counted as 2, torchvision's MultiScaleRoIAlign setting.
  toml::table a;
  a.insert("output_height", attr_int(n, "output_height", 1));
  a.insert("output_width", attr_int(n, "output_width", 1));
  a.insert("sampling_ratio", ratio > 0 ? ratio : 2);
  layer(n, index, "roi_align", {&x, &rois}, std::move(a), Placement{0, true, r[0]});
}

// A Gather whose indices or data are computed (top-k indices, kept boxes), and
// GatherElements / GatherND: the `gather` layers on the shapes of one sample, viewed
// as the ONNX output's shape (a Gather's indices may bring their own batch of one).
void Translator::gather_computed(const onnx::NodeProto& n, int index, const std::string& op) {
  // A Gather's data and indices share no axes: a constant one keeps its whole shape.
  Tensor whole;
  whole.activation = true;
  whole.at = {0, true, 1};
  const Tensor& act = op == "gather" ? whole : first_activation(n);
  const Tensor data = indexing_input(n, 0, act), idx = indexing_input(n, 1, act);
  Shape d = full_shape(tensor(n, 0));
  const Shape i = full_shape(tensor(n, 1));
  // A zero Pad still pending on the data (layer() writes it first: F.unfold's im2col in
  // RAFT's upsampling gathers rows and columns of its padded flow) widens its spatial axes.
  const std::vector<int64_t>& pending = tensor(n, 0).pad;
  for (size_t k = 0; k < pending.size() && pending.size() <= d.size(); ++k)
    d[d.size() - pending.size() + k] = checked_add(d[d.size() - pending.size() + k], checked_mul(2, pending[k]));
  toml::table a;
  Shape out;  // the ONNX output at batch 1
  int64_t axis = attr_int(n, "axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(d.size());
  if (axis < 0 || axis >= static_cast<int64_t>(d.size())) fail(n, "indexes along no axis the data has");
  if (op == "gather_nd") {
    const int64_t batch_dims = attr_int(n, "batch_dims", 0);
    if (i.empty() || batch_dims < 0 || i.back() + batch_dims > static_cast<int64_t>(d.size()))
      fail(n, "its indices " + shape_list(i) + " do not index the data " + shape_list(d));
    a.insert("batch_dims", batch_dims);
    out.assign(i.begin(), i.end() - 1);
    out.insert(out.end(), d.begin() + batch_dims + i.back(), d.end());
  } else {
    a.insert("axis", data.activation && tensor(n, 0).activation ? sample_axis(n, axis, data) : axis);
    if (op == "gather_elements") out = i;
    else {
      out.assign(d.begin(), d.begin() + axis);
      out.insert(out.end(), i.begin(), i.end());
      out.insert(out.end(), d.begin() + axis + 1, d.end());
    }
  }
  layer(n, index, op, {&data, &idx}, std::move(a), Placement{0, true, 1});
  Tensor made = tensors_.at(n.output(0));
  made.at.factor = made.shape.empty() ? 1 : made.shape[0];
  if (element_count(made.shape) != element_count(out))
    fail(n, "gives " + shape_list(made.shape) + " per sample where ONNX's output is " + shape_list(out));
  view_as(n, index, made, out, 0);
}

// Scatter into computed data, or into a constant (MultiScaleRoIAlign writes each level's
// pooled RoIs into zeros [R, C, oh, ow]): the result is an activation of the data's
// shape, its batch where the data's elements make one sample.
void Translator::scatter(const onnx::NodeProto& n, int index) {
  if (tensor(n, 0).activation && n.op_type() == "ScatterND") return scatter_nd(n, index);
  if (tensor(n, 0).activation) {
    const Tensor& data = activation(n, 0);
    const Tensor idx = indexing_input(n, 1, data), upd = indexing_input(n, 2, data);
    Tensor x = data;
    return layer(n, index, "scatter", {&x, &idx, &upd});
  }
  const Tensor& act = first_activation(n);
  const Shape full = tensor(n, 0).shape;
  const Tensor data = indexing_input(n, 0, act), idx = indexing_input(n, 1, act), upd = indexing_input(n, 2, act);
  const Placement at = place(n, full, element_count(full), 0);
  layer(n, index, "scatter", {&data, &idx, &upd}, {}, at);
}

// ScatterND into computed data [*D]: its indices [*U, k] (k of the data's axes each
// tuple names) and updates [*U, *D[k:]] do not broadcast with the data, so a constant
// one does not meet the batch where its last axes meet the data's. The indices' axes
// but the last are the updates' leading axes: an activation's update (torch's
// `attn[:, :, 1:, 1:] = ...`, indices computed from shapes) has the batch there, on the
// same axis of the indices; a constant update has the data's batch among its trailing
// axes when the tuples do not index it, and the indices then none.
void Translator::scatter_nd(const onnx::NodeProto& n, int index) {
  const Tensor& data = activation(n, 0);
  const Tensor& indices = tensor(n, 1);
  const Tensor& updates = tensor(n, 2);
  const int64_t lead = static_cast<int64_t>(indices.shape.size()) - 1;  // the updates' leading axes
  int64_t idx_at = -1, upd_at = -1;
  if (updates.activation && !updates.at.merged) {
    if (updates.at.batch < lead) idx_at = updates.at.batch;
  } else if (!updates.activation && !data.at.merged && lead >= 0 && !indices.shape.empty()) {
    const int64_t k = indices.shape.back();
    if (data.at.batch >= k) upd_at = lead + data.at.batch - k;
  }
  const Tensor idx = indices.activation ? indices : as_parameter_at(n, n.input(1), indices, idx_at);
  const Tensor upd = updates.activation ? updates : as_parameter_at(n, n.input(2), updates, upd_at);
  Tensor x = data;
  layer(n, index, "scatter", {&x, &idx, &upd});
}

// If: a condition ridge folds takes its branch, translated in place (its nodes see the
// enclosing graph's tensors); a condition that depends on the data is an error naming
// the node.
void Translator::if_node(const onnx::NodeProto& n, int) {
  const Tensor& cond = tensor(n, 0);
  if (cond.activation || !cond.values || cond.values->size() != 1)
    fail(n, "its condition depends on the data, and ridge counts one branch only where it can fold the condition");
  const onnx::AttributeProto* branch = attr(n, (*cond.values)[0] ? "then_branch" : "else_branch");
  if (!branch || !branch->has_g()) fail(n, "has no branch graph for its condition");
  const onnx::GraphProto& g = branch->g();
  for (const onnx::TensorProto& t : g.initializer()) constants_from(t, true);
  for (int i = 0; i < g.node_size(); ++i) {
    check_arity(g.node(i));
    translate_node(g.node(i), i);
  }
  if (g.output_size() != n.output_size()) fail(n, "its branch has a different number of outputs than the node");
  for (int o = 0; o < n.output_size(); ++o) {
    auto it = tensors_.find(g.output(o).name());
    if (it == tensors_.end()) fail(n, "its branch output '" + g.output(o).name() + "' is made by no node");
    tensors_[n.output(o)] = it->second;
  }
}

}  // namespace ridge::onnx_import
