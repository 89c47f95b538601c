// Elementwise nodes: Add / Sub / Mul / Div of activations and learned constants (with a
// one-element constant: scale), the activations whose arguments are read (Clip as relu6
// or relu, Pow by a constant, Softmax over its axis), Where, and Dropout.
#include "sim/workload/onnx/translator.hpp"

#include <cmath>

namespace ridge::onnx_import {

// A unary activation (a row of the op table): the ridge op of that name.
void Translator::unary(const onnx::NodeProto& n, int index, const std::string& op) {
  Tensor x = activation(n, 0);
  layer(n, index, op, {&x});
}

// An elementwise op of one activation counted as 1 FLOP per element (Floor, Log, Not, ...).
void Translator::one_per_element(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  a.insert("factor", 1.0);
  layer(n, index, "scale", {&x}, std::move(a));
  if (n.op_type() == "Floor" || n.op_type() == "Ceil") tensors_[n.output(0)].integers = ValueRange{};
}

// Dropout of an activation is ridge's `dropout` layer: nothing at inference; in
// training its output and a one-byte mask per element are kept (a training-mode export
// has it; an eval-mode one has no Dropout). Passed on: of a constant, or with a
// training_mode input that is a constant false (ONNX's identity).
void Translator::dropout(const onnx::NodeProto& n, int index) {
  const Tensor& x = tensor(n, 0);
  const bool off = has_input(n, 2) && tensor(n, 2).scalar == 0.0;
  if (!x.activation || off) return pass_on(n, x);
  toml::table a;
  std::optional<double> ratio;
  if (has_input(n, 1)) ratio = tensor(n, 1).scalar;
  else if (std::optional<float> r = attr_float(n, "ratio")) ratio = *r;  // before opset 12: an attribute
  if (ratio) a.insert("p", *ratio);
  layer(n, index, "dropout", {&x}, std::move(a));
}

void Translator::binary(const onnx::NodeProto& n, int index, const std::string& op) {
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  if (!a.activation && !b.activation) return fold_binary(n, op);
  if (a.activation && b.activation)  // the output keeps the placement of the operand with more axes
    return layer(n, index, op, {&a, &b}, {}, full_shape(b).size() > full_shape(a).size() ? b.at : a.at);
  bool left = a.activation;
  const Tensor& act = left ? a : b;
  const Tensor& c = left ? b : a;
  const std::string& c_name = n.input(left ? 1 : 0);
  int64_t elems = element_count(c.shape);
  if (elems == 1 && !c.learned) {
    // x op constant: one operation per element.
    toml::table attrs;
    attrs.insert("factor", c.scalar.value_or(1.0));
    layer(n, index, "scale", {&act}, std::move(attrs));
    if (left && c.scalar) bound_by_constant(n, act, *c.scalar);
    if ((op == "mul" || op == "div") && scores_.count(n.input(left ? 0 : 1))) scores_.insert(n.output(0));
    return;
  }
  const int64_t learned = parameters_.count(c_name) ? 0 : learned_elements(c);
  // std::map keeps references valid as it grows.
  const Tensor& p = as_parameter(n, c_name, c, act);
  if (op == "add" && scores_.count(n.input(left ? 0 : 1))) note_position_bias(c.shape, learned);
  if (left) layer(n, index, op, {&act, &p});
  else layer(n, index, op, {&p, &act}, {}, act.at);
}

// Clip(0, 6) is relu6 and Clip(0) relu; any other is clip (hardtanh, clamp), one
// operation per bound. A bound is input 1 / 2 (opset 11+) or attribute min / max.
void Translator::clip(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  std::optional<double> lo, hi;
  for (int i : {1, 2})
    if (has_input(n, i)) {
      std::optional<double> v = constant(n, i).scalar;
      if (!v) fail(n, "bound " + n.input(i) + " must be a one-element constant");
      (i == 1 ? lo : hi) = v;
    }
  if (auto f = attr_float(n, "min")) lo = *f;
  if (auto f = attr_float(n, "max")) hi = *f;
  if (lo == 0.0 && hi == 6.0) return layer(n, index, "relu6", {&x});
  if (lo == 0.0 && !hi) return layer(n, index, "relu", {&x});
  toml::table a;
  if (lo) a.insert("min", *lo);
  if (hi) a.insert("max", *hi);
  layer(n, index, "clip", {&x}, std::move(a));
  if (x.integers) tensors_[n.output(0)].integers = ValueRange{lo ? std::ceil(*lo) : x.integers->lo, hi ? std::floor(*hi) : x.integers->hi};
}

// PRelu(x, slope): a leaky ReLU whose slope is learned, one per channel or one in all
// (the slope's elements are the layer's parameters).
void Translator::prelu(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  toml::table a;
  a.insert("num_parameters", element_count(constant(n, 1).shape));
  layer(n, index, "prelu", {&x}, std::move(a));
}

void Translator::pow(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  std::optional<double> e = constant(n, 1).scalar;
  if (!e) fail(n, "the exponent must be a one-element constant");
  toml::table a;
  a.insert("exponent", *e);
  return layer(n, index, "pow", {&x}, std::move(a));
}

void Translator::softmax(const onnx::NodeProto& n, int index) {
  Tensor x = activation(n, 0);
  const int64_t axis = sample_axis(n, attr_int(n, "axis", -1), x);
  layer(n, index, "softmax", {&x});
  if (!x.shape.empty() && axis == static_cast<int64_t>(x.shape.size()) - 1)
    tensors_[n.output(0)].prob_row = x.shape.back();  // (its rows of probabilities: value_bounds.cpp)
}

// Where(condition, X, Y): folded when all are constants; otherwise one operation per
// output element, as the elementwise op it is: `scale` over the one activation, or
// `add` of two (a constant mask selecting between a constant and an activation is the
// masked_fill of attention).
void Translator::where(const onnx::NodeProto& n, int index) {
  std::vector<int> acts;
  for (int i = 0; i < 3; ++i)
    if (tensor(n, i).activation) acts.push_back(i);
  if (acts.empty()) {
    const Tensor &c = tensor(n, 0), &x = tensor(n, 1), &y = tensor(n, 2);
    std::optional<Shape> s = broadcast_shape(c.shape, x.shape);
    if (s) s = broadcast_shape(*s, y.shape);
    if (!s)
      fail(n, "constant shapes " + shape_list(c.shape) + ", " + shape_list(x.shape) + " and " + shape_list(y.shape) +
                  " do not broadcast");
    std::optional<std::vector<int64_t>> v;
    int64_t count = element_count(*s);
    auto at = [&](const Tensor& t, int64_t i) { return (*t.values)[t.values->size() == 1 ? 0 : i]; };
    if (s->size() <= 1 && values_broadcast(c, count) && values_broadcast(x, count) && values_broadcast(y, count)) {
      v.emplace();
      for (int64_t i = 0; i < count; ++i) v->push_back(at(c, i) ? at(x, i) : at(y, i));
    }
    return folded(n, *s, v);
  }
  if (acts.size() == 3) {  // torch's floor division picks the quotient or the quotient - 1
    Tensor c = tensor(n, 0), x = tensor(n, 1), y = tensor(n, 2);
    return layer(n, index, "where", {&c, &x, &y});
  }
  for (int i = 0; i < 3; ++i) {
    if (tensor(n, i).activation) continue;
    const Tensor& act = tensor(n, acts[0]);
    Shape full = full_shape(act);
    std::optional<Shape> s = broadcast_shape(full, tensor(n, i).shape);
    if (!s || *s != full) fail(n, "a constant operand widens the activation's shape, which ridge does not model");
  }
  if (acts.size() == 1) {
    Tensor x = tensor(n, acts[0]);
    toml::table a;
    a.insert("factor", 1.0);
    return layer(n, index, "scale", {&x}, std::move(a));
  }
  Tensor x = tensor(n, acts[0]), y = tensor(n, acts[1]);
  layer(n, index, "add", {&x, &y});
}

}  // namespace ridge::onnx_import
