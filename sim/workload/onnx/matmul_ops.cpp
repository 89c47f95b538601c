// Matrix products: Gemm and MatMul by a 2-D initializer -> linear, MatMul of two
// activations, by a batched (3-D and up) constant or by a constant on the left -> matmul,
// and a two-operand Einsum as the product it is (linear, matmul or einsum).
#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

// A weight [K, N] (or [N, K]) multiplies the input's last axis, which must hold K features.
void Translator::check_features(const onnx::NodeProto& n, const Tensor& x, int64_t k, const Shape& weight) {
  Shape full = full_shape(x);
  if (full.empty() || full.back() != k)
    fail(n, "the weight " + shape_list(weight) + " multiplies " + std::to_string(k) + " features, but the input " +
                shape_list(full) + " has " + std::to_string(full.empty() ? 0 : full.back()),
         "the graph's shapes disagree: export it again");
}

void Translator::gemm(const onnx::NodeProto& n, int index) {
  const Tensor& x = activation(n, 0);
  const Tensor& w = constant(n, 1);
  if (attr_int(n, "transA", 0)) fail(n, "transA = 1 is not modelled");
  if (w.shape.size() != 2) fail(n, "the weight must be 2-D");
  const bool trans_b = attr_int(n, "transB", 0) != 0;
  check_features(n, x, trans_b ? w.shape[1] : w.shape[0], w.shape);
  toml::table a;
  const int64_t out = trans_b ? w.shape[0] : w.shape[1];
  a.insert("out_features", out);
  a.insert("bias", has_input(n, 2));
  weight_layer(n, index, "linear", x, std::move(a), 1, out, trans_b ? w.shape[1] : w.shape[0], !trans_b);
}

void Translator::matmul(const onnx::NodeProto& n, int index) {
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  if (a.activation != b.activation && (!b.activation ? b.shape.size() > 2 : a.shape.size() >= 2)) {
    // A batched weight ([heads, K, N], broadcast over the input's leading axes), or a
    // weight on the left (W @ x): a `parameter` (counted once) and a matmul of the two.
    const int act = a.activation ? 0 : 1;
    Tensor x = activation(n, act);
    Tensor w = as_parameter(n, n.input(1 - act), tensor(n, 1 - act), x);
    return act == 0 ? layer(n, index, "matmul", {&x, &w}) : layer(n, index, "matmul", {&w, &x});
  }
  if (a.activation && !b.activation) {
    if (b.shape.size() != 2) fail(n, "a MatMul by a constant of rank " + std::to_string(b.shape.size()) + " is not modelled");
    check_features(n, a, b.shape[0], b.shape);
    toml::table t;
    t.insert("out_features", b.shape[1]);
    t.insert("bias", false);
    return weight_layer(n, index, "linear", a, std::move(t), 1, b.shape[1], b.shape[0], true);
  }
  Tensor ain = activation(n, 0), bin = activation(n, 1);
  scores_.insert(n.output(0));
  return layer(n, index, "matmul", {&ain, &bin});
}

// Einsum of two operands as the product it is (sim/workload/einsum_equation.hpp).
// An activation by a 2-D constant ("...k,kn->...n" or "...k,nk->...n") is a linear
// layer; two activations with the same batch letters leading, then one row letter, one
// contracted letter and one column letter (the operands' last two axes in either order)
// a matmul; any other product an einsum, its equation per sample (the batch's letter,
// which must be in the output, taken out) and a constant operand a `parameter`.
void Translator::einsum(const onnx::NodeProto& n, int index) {
  const onnx::AttributeProto* attribute = attr(n, "equation");
  const std::string text = attribute ? attribute->s() : "";
  if (n.input_size() != 2) fail(n, "has " + std::to_string(n.input_size()) + " operands", "ridge models two-operand Einsums");
  EinsumEquation e;
  try {
    e = parse_einsum(text);
  } catch (const EinsumError& err) {
    fail(n, "equation '" + text + "' " + err.what());
  }
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  if (einsum_linear(n, index, e) || einsum_matmul(n, index, e)) return;
  if (!a.activation && !b.activation) fail(n, "both operands are constants");
  auto check_rank = [&](const std::string& term, const Shape& full) {
    if (full.size() != term.size())
      fail(n, "operand '" + term + "' names " + std::to_string(term.size()) + " axes, but its shape is " +
                  shape_list(full));
  };
  // The batch's letter: the same in each activation operand, and in the output.
  char batch = 0;
  for (const auto& [t, term] : {std::pair{&a, &e.a}, std::pair{&b, &e.b}}) {
    if (!t->activation) continue;
    check_rank(*term, full_shape(*t));
    if (t->at.merged) fail(n, "an operand's batch is merged into its axis " + std::to_string(t->at.batch) +
                                  ", which ridge's Einsum does not follow");
    const char c = (*term)[static_cast<size_t>(t->at.batch)];
    if (batch && c != batch)
      fail(n, "the operands' batch axes are different letters ('" + std::string(1, batch) + "' and '" +
                  std::string(1, c) + "')");
    batch = c;
  }
  const size_t out_at = e.out.find(batch);
  if (out_at == std::string::npos)
    fail(n, "equation '" + e.text() + "' sums over the batch axis ('" + std::string(1, batch) + "')");
  // A constant operand's axis of the batch's letter (extent 1) is dropped.
  auto operand = [&](int i, const std::string& term) {
    const Tensor& t = tensor(n, i);
    if (t.activation) return t;
    check_rank(term, t.shape);
    const size_t at = term.find(batch);
    return as_parameter_at(n, n.input(i), t, at == std::string::npos ? -1 : static_cast<int64_t>(at));
  };
  const Tensor x = operand(0, e.a), y = operand(1, e.b);
  toml::table attrs;
  attrs.insert("equation", e.without(batch).text());
  Placement at;
  at.batch = static_cast<int64_t>(out_at);
  layer(n, index, "einsum", {&x, &y}, std::move(attrs), at);
}

// An activation by a 2-D constant over its last axis as a linear layer; false where the
// equation is not one.
bool Translator::einsum_linear(const onnx::NodeProto& n, int index, const EinsumEquation& e) {
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  if (!a.activation || b.activation || e.b.size() != 2 || b.shape.size() != 2 || e.a.empty()) return false;
  // ...k,kn->...n or ...k,nk->...n
  const char k = e.a.back();
  const size_t kat = e.b.find(k);
  if (kat == std::string::npos || e.out != e.a.substr(0, e.a.size() - 1) + e.b[1 - kat]) return false;
  toml::table t;
  t.insert("out_features", b.shape[1 - kat]);
  t.insert("bias", false);
  Tensor ain = a;
  layer(n, index, "linear", {&ain}, std::move(t));
  return true;
}

// Two activations as a batched matmul (batch letters leading, then row / contracted /
// column, either order of the operands' last two axes); false where the equation is not one.
bool Translator::einsum_matmul(const onnx::NodeProto& n, int index, const EinsumEquation& e) {
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  const std::string &x = e.a, &y = e.b, &z = e.out;
  if (!a.activation || !b.activation || x.size() != y.size() || x.size() != z.size() || x.size() < 3) return false;
  const size_t lead = x.size() - 2;
  if (x.substr(0, lead) != y.substr(0, lead) || x.substr(0, lead) != z.substr(0, lead)) return false;
  const std::string xl = x.substr(lead), yl = y.substr(lead), zl = z.substr(lead);
  const char m = zl[0], c = zl[1];
  const char k = xl[0] == m ? xl[1] : xl[0];
  if (k == m || k == c) return false;
  if (xl != std::string{m, k} && xl != std::string{k, m}) return false;
  if (yl != std::string{k, c} && yl != std::string{c, k}) return false;
  toml::table t;
  if (xl[0] == k) t.insert("transpose_a", true);  // A read as [..., K, M]
  if (yl[0] == c) t.insert("transpose_b", true);  // B read as [..., N, K]
  Tensor ain = a, bin = b;
  scores_.insert(n.output(0));
  layer(n, index, "matmul", {&ain, &bin}, std::move(t));
  return true;
}

}  // namespace ridge::onnx_import
