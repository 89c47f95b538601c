// Normalisations and reductions: BatchNormalization -> batchnorm, InstanceNormalization ->
// instancenorm, GroupNormalization -> groupnorm, LayerNormalization -> layernorm (over the last axis), ReduceMean /
// ReduceSum / ReduceMax / ReduceMin / ReduceL2 -> reduce_mean / reduce_sum / reduce_max /
// reduce_min / reduce_l2 over axes per sample, ArgMax / ArgMin -> argmax over one axis.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <map>

namespace ridge::onnx_import {

namespace {

bool all_equal(const std::optional<std::vector<double>>& v, double x) {
  return v && std::all_of(v->begin(), v->end(), [x](double e) { return e == x; });
}

}  // namespace

// torch exports GroupNorm (before opset 18) as a Reshape to [N, groups, -1], an
// InstanceNormalization whose scale and bias are the exporter's ones and zeros, a
// Reshape back and the learned per-channel Mul and Add (parameters there). So the
// instance norm's scale and bias are parameters only when they are initializers, and
// not when they are exactly ones and zeros applied to a reshaped input.
void Translator::instance_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  stacked_item(n, x, a);  // (k items a sample, RAFT's two frames: each normalised on its own)
  const Tensor& scale = constant(n, 1);
  const Tensor& bias = constant(n, 2);
  bool reshaped = false;
  for (const onnx::NodeProto& p : model_.graph().node())
    if (p.op_type() == "Reshape" && p.output_size() > 0 && p.output(0) == n.input(0)) reshaped = true;
  const bool exporter_constants = reshaped && all_equal(scale.reals, 1.0) && all_equal(bias.reals, 0.0);
  if (!scale.learned || !bias.learned || exporter_constants) a.insert("affine", false);
  a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
  return layer(n, index, "instancenorm", {&x}, std::move(a));
}

// GroupNormalization: scale and bias per group in opset 18's form ([num_groups]), per
// channel in opset 21's ([C]); ridge counts what the graph holds.
void Translator::group_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  const int64_t groups = attr_int(n, "num_groups", 0);
  const Tensor& scale = constant(n, 1);
  const Tensor& bias = constant(n, 2);
  const int64_t per = element_count(scale.shape);
  if (per != element_count(bias.shape) || (per != groups && per != x.shape[0]))
    fail(n, "scale " + shape_list(scale.shape) + " and bias " + shape_list(bias.shape) + " must both hold one value per group (" +
                std::to_string(groups) + ") or per channel (" + std::to_string(x.shape[0]) + ")");
  toml::table a;
  a.insert("num_groups", groups);
  if (per != x.shape[0]) a.insert("per_group_affine", true);
  a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
  layer(n, index, "groupnorm", {&x}, std::move(a));
}

// LRN (AlexNet's local response normalisation across `size` channels).
void Translator::lrn(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  toml::table a;
  a.insert("size", attr_int(n, "size", 0));
  a.insert("alpha", static_cast<double>(attr_float(n, "alpha").value_or(1e-4f)));
  a.insert("beta", static_cast<double>(attr_float(n, "beta").value_or(0.75f)));
  a.insert("k", static_cast<double>(attr_float(n, "bias").value_or(1.0f)));
  layer(n, index, "local_response_norm", {&x}, std::move(a));
}

void Translator::batch_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  stacked_item(n, x, a);
  return layer(n, index, "batchnorm", {&x}, std::move(a));
}

void Translator::layer_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  int64_t axis = attr_int(n, "axis", -1);
  if (axis != -1 && axis != static_cast<int64_t>(full_shape(x).size()) - 1)
    fail(n, "normalises over more than the last axis");
  toml::table a;
  a.insert("elementwise_affine", true);
  a.insert("bias", has_input(n, 2));
  a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
  return layer(n, index, "layernorm", {&x}, std::move(a));
}

namespace {

const std::map<std::string, std::string>& reduce_ops() {
  static const std::map<std::string, std::string> ops = {
      {"ReduceMean", "reduce_mean"}, {"ReduceSum", "reduce_sum"}, {"ReduceMax", "reduce_max"}, {"ReduceMin", "reduce_min"},
      {"ReduceL2", "reduce_l2"},     {"ArgMax", "argmax"},        {"ArgMin", "argmax"}};
  return ops;
}

}  // namespace

// A reduction over every axis of a graph whose input is one image (batched_nms's
// boxes.max(), the offset that keeps each class's boxes apart): counted as the
// reduction of the one sample's elements; its result, one value of the data, is a
// constant of unknown value to what follows (its shape is known), so the arithmetic it
// scales counts as a scale.
void Translator::reduce_whole(const onnx::NodeProto& n, int index, const Tensor& x) {
  toml::table a;
  toml::array all;
  for (size_t i = 0; i < x.shape.size(); ++i) all.push_back(static_cast<int64_t>(i));
  a.insert("axes", std::move(all));
  a.insert("keepdims", true);
  Tensor in = x;
  layer(n, index, reduce_ops().at(n.op_type()), {&in}, std::move(a), x.at);
  const bool keep = attr_int(n, "keepdims", 1) != 0;
  Tensor c;
  c.shape = keep ? Shape(full_shape(x).size(), 1) : Shape{};
  tensors_[n.output(0)] = std::move(c);
}

void Translator::reduce(const onnx::NodeProto& n, int index) {
  const std::string& op = n.op_type();
  if (!tensor(n, 0).activation && op.rfind("Reduce", 0) == 0) return reduce_constant(n);
  if (op == "ReduceProd") return unknown(n, index);  // of an activation: not modelled
  Tensor x = activation(n, 0);
  std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
  if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
  if (op == "ArgMax" || op == "ArgMin") axes = {attr_int(n, "axis", 0)};  // one axis, 0 by default
  if (axes.empty() && unbatched_) return reduce_whole(n, index, x);
  if (axes.empty()) fail(n, "reduces over every axis, the batch included");
  toml::table a;
  toml::array per_sample;
  Placement at = x.at;
  bool keep = attr_int(n, "keepdims", 1) != 0;
  int64_t full_rank = static_cast<int64_t>(full_shape(x).size());
  for (int64_t ax : axes) {
    per_sample.push_back(sample_axis(n, ax, x));
    if (!keep && (ax < 0 ? ax + full_rank : ax) < x.at.batch) --at.batch;  // axes before the batch's go
  }
  a.insert("axes", std::move(per_sample));
  a.insert("keepdims", keep);
  return layer(n, index, reduce_ops().at(op), {&x}, std::move(a), at);
}

}  // namespace ridge::onnx_import
