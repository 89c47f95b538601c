// Recurrent nodes: LSTM, GRU and RNN -> lstm, gru, rnn (sim/workload/ops/recurrent.cpp
// counts them). X is [T, N, I] (layout 0, ONNX's default and torch's export) or
// [N, T, I] (layout 1); the sequence length T is the graph's. W [D, G H, I], R
// [D, G H, H] and B [D, 2 G H] are constants; every sequence is taken at full length
// (sequence_lens, initial_h and initial_c change no cost). The outputs: Y [T, D, N, H]
// (layout 1: [N, T, D, H]) is the layer's [T, D H] seen as [T, D, H] (a view); Y_h and
// Y_c, the last step's state [D, N, H], are copied out of it (a slice of D H elements
// per sample, as cuDNN writes hy and cy beside y).
#include "sim/workload/onnx/translator.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {

bool consumed(const onnx::GraphProto& g, const std::string& tensor) {
  if (tensor.empty()) return false;
  for (const onnx::NodeProto& n : g.node())
    for (const std::string& in : n.input())
      if (in == tensor) return true;
  for (const onnx::ValueInfoProto& out : g.output())
    if (out.name() == tensor) return true;
  return false;
}

}  // namespace

void Translator::recurrent(const onnx::NodeProto& n, int index) {
  const std::string& op = n.op_type();
  const int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  Tensor x = activation(n, 0);
  const Tensor& w = constant(n, 1);
  const Tensor& r = constant(n, 2);
  const int64_t layout = attr_int(n, "layout", 0);
  if (layout != 0 && layout != 1) fail(n, "layout must be 0 or 1 (got " + std::to_string(layout) + ")");
  if (x.at.merged || x.at.batch != (layout == 0 ? 1 : 0) || x.shape.size() != 2)
    fail(n, "X must be " + std::string(layout == 0 ? "[T, N, I]" : "[N, T, I]") + " (got " + shape_list(full_shape(x)) + ")");
  if (has_input(n, 7)) fail(n, "peephole weights (input P) are not modelled");
  const onnx::AttributeProto* dir = attr(n, "direction");
  const std::string direction = dir ? dir->s() : "forward";
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    fail(n, "direction '" + direction + "' is not forward, reverse or bidirectional");
  const int64_t d = direction == "bidirectional" ? 2 : 1;
  const int64_t i = x.shape[1];
  int64_t h = attr_int(n, "hidden_size", 0);
  if (h <= 0 && w.shape.size() == 3) h = w.shape[1] / gates;
  if (h <= 0 || w.shape != Shape{d, checked_mul(gates, h), i} || r.shape != Shape{d, checked_mul(gates, h), h})
    fail(n, "W " + shape_list(w.shape) + " and R " + shape_list(r.shape) + " must be [" + std::to_string(d) + ", " +
                std::to_string(gates) + " x hidden_size, " + std::to_string(i) + "] and [" + std::to_string(d) + ", " +
                std::to_string(gates) + " x hidden_size, hidden_size] for the input " + shape_list(full_shape(x)),
         "the graph's shapes disagree: export it again");
  if (has_input(n, 3) && constant(n, 3).shape != Shape{d, checked_mul(2 * gates, h)})
    fail(n, "B " + shape_list(constant(n, 3).shape) + " must be [" + std::to_string(d) + ", " + std::to_string(2 * gates) +
                " x hidden_size]");
  const onnx::AttributeProto* acts = attr(n, "activations");
  if (op == "RNN" && acts && acts->strings_size() > 0 && acts->strings(0) != "Tanh" && acts->strings(0) != "Relu")
    fail(n, "activation '" + acts->strings(0) + "' is not modelled (Tanh or Relu)");
  if (op != "RNN" && acts && acts->strings_size() > 0)
    for (int k = 0; k < acts->strings_size(); ++k)
      if (acts->strings(k) != (k % (op == "LSTM" ? 3 : 2) == 0 ? "Sigmoid" : "Tanh"))
        fail(n, "activations other than the default Sigmoid and Tanh are not modelled");
  toml::table a;
  a.insert("hidden_size", h);
  a.insert("bidirectional", d == 2);
  a.insert("bias", has_input(n, 3));
  if (op == "RNN" && acts && acts->strings_size() > 0 && acts->strings(0) == "Relu") a.insert("nonlinearity", "relu");
  const std::string name = unique_name(n, index);
  const Shape out = emit(n, name, op == "LSTM" ? "lstm" : op == "GRU" ? "gru" : "rnn", {x.layer}, {x.shape}, std::move(a));
  const int64_t t = x.shape[0];
  const onnx::GraphProto& g = model_.graph();
  // Y: [T, D, H] per sample, the batch on ONNX axis 2 (layout 0) or 0.
  if (consumed(g, n.output(0))) {
    toml::table v;
    v.insert("shape", to_array({t, d, h}));
    Tensor y;
    y.activation = true;
    y.layer = fresh_name(name + ".Y");
    y.shape = emit(n, y.layer, "reshape", {name}, {out}, std::move(v));
    y.at.batch = layout == 0 ? 2 : 0;
    tensors_[n.output(0)] = std::move(y);
  }
  // Y_h, Y_c: [D, H] per sample, the batch on ONNX axis 1 (layout 0) or 0.
  for (int o = 1; o < n.output_size() && o < 3; ++o) {
    if (!consumed(g, n.output(o))) continue;
    const std::string state = fresh_name(name + (o == 1 ? ".Y_h" : ".Y_c"));
    toml::table s;
    s.insert("axes", to_array({0}));
    s.insert("starts", to_array({t - 1}));
    s.insert("ends", to_array({t}));
    const Shape last = emit(n, state, "slice", {name}, {out}, std::move(s));
    toml::table v;
    v.insert("shape", to_array({d, h}));
    Tensor st;
    st.activation = true;
    st.layer = fresh_name(state + ".view");
    st.shape = emit(n, st.layer, "reshape", {state}, {last}, std::move(v));
    st.at.batch = layout == 0 ? 1 : 0;
    tensors_[n.output(o)] = std::move(st);
  }
}

}  // namespace ridge::onnx_import
