// Normalisations and reductions: BatchNormalization -> batchnorm, InstanceNormalization ->
// instancenorm, LayerNormalization -> layernorm (over the last axis), ReduceMean /
// ReduceSum -> reduce_mean / reduce_sum over axes per sample.
#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

void Translator::instance_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  toml::table a;
  a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
  return layer(n, index, "instancenorm", {&x}, std::move(a));
}

void Translator::batch_norm(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  batch_first(n, x);
  return layer(n, index, "batchnorm", {&x});
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

void Translator::reduce(const onnx::NodeProto& n, int index) {
  const std::string& op = n.op_type();
  Tensor x = activation(n, 0);
  std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
  if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
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
  return layer(n, index, op == "ReduceMean" ? "reduce_mean" : "reduce_sum", {&x}, std::move(a), at);
}

}  // namespace ridge::onnx_import
