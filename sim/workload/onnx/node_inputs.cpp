// A node's inputs, as activations or constants (an error naming the node where one is
// missing or of the wrong kind), and its attributes.
#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

const Tensor& Translator::tensor(const onnx::NodeProto& n, int i) {
  if (i >= n.input_size() || n.input(i).empty()) fail(n, "input " + std::to_string(i) + " is missing");
  auto it = tensors_.find(n.input(i));
  if (it == tensors_.end()) fail(n, "input '" + n.input(i) + "' is made by no earlier node");
  return it->second;
}

bool Translator::has_input(const onnx::NodeProto& n, int i) const { return i < n.input_size() && !n.input(i).empty(); }

const Tensor& Translator::activation(const onnx::NodeProto& n, int i) {
  const Tensor& t = tensor(n, i);
  if (!t.activation) fail(n, "input '" + n.input(i) + "' is a constant where ridge expects an activation");
  return t;
}

// Input i as an activation; a constant there (RAFT's first flow, coords1 - coords0, all
// zeros, which its motion encoder convolves) is a `parameter` (its learned elements its
// sources', if any), the same for every sample, its first axis the batch's.
Tensor Translator::data_input(const onnx::NodeProto& n, int i) {
  const Tensor& t = tensor(n, i);
  if (t.activation) return t;
  if (t.shape.empty() || t.shape[0] != 1)
    fail(n, "input '" + n.input(i) + "' is a constant of shape " + shape_list(t.shape) +
                " where ridge expects an activation with its batch first");
  Tensor like;
  like.activation = true;
  like.shape.assign(t.shape.begin() + 1, t.shape.end());
  return as_parameter(n, n.input(i), t, like);
}

const Tensor& Translator::constant(const onnx::NodeProto& n, int i) {
  const Tensor& t = tensor(n, i);
  if (t.activation) fail(n, "input '" + n.input(i) + "' must be a constant (an initializer or a folded value)");
  return t;
}

std::vector<int64_t> Translator::values(const onnx::NodeProto& n, int i) {
  const Tensor& t = constant(n, i);
  if (!t.values) fail(n, "input '" + n.input(i) + "' must be a constant integer tensor whose values ridge can fold");
  return *t.values;
}

const onnx::AttributeProto* Translator::attr(const onnx::NodeProto& n, const std::string& name) const {
  for (const onnx::AttributeProto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

int64_t Translator::attr_int(const onnx::NodeProto& n, const std::string& name, int64_t fallback) const {
  const onnx::AttributeProto* a = attr(n, name);
  return a ? a->i() : fallback;
}

std::optional<float> Translator::attr_float(const onnx::NodeProto& n, const std::string& name) const {
  const onnx::AttributeProto* a = attr(n, name);
  if (!a) return std::nullopt;
  return a->f();
}

std::optional<std::vector<int64_t>> Translator::attr_ints(const onnx::NodeProto& n, const std::string& name) const {
  const onnx::AttributeProto* a = attr(n, name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

}  // namespace ridge::onnx_import
