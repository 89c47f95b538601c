// Matrix products: Gemm and MatMul by a 2-D initializer -> linear, MatMul of two
// activations, by a batched (3-D and up) constant or by a constant on the left -> matmul, and a two-operand Einsum as the product it is.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>

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

// Einsum of two operands as the product it is: batch letters (in both operands and the
// output, leading and in the same order), then one row letter, one contracted letter
// and one column letter; the operand's last two axes in either order. An activation by
// a 2-D constant ("...k,kn->...n" or "...k,nk->...n") is a linear layer.
void Translator::einsum(const onnx::NodeProto& n, int index) {
  const onnx::AttributeProto* eq = attr(n, "equation");
  std::string e = eq ? eq->s() : "";
  e.erase(std::remove(e.begin(), e.end(), ' '), e.end());
  size_t comma = e.find(','), arrow = e.find("->");
  if (n.input_size() != 2 || comma == std::string::npos || arrow == std::string::npos || arrow < comma ||
      e.find("...") != std::string::npos)
    fail(n, "equation '" + e + "' is not modelled", "ridge models two-operand Einsums written without '...'");
  std::string x = e.substr(0, comma), y = e.substr(comma + 1, arrow - comma - 1), z = e.substr(arrow + 2);
  auto unsupported = [&]() { fail(n, "equation '" + e + "' is not a (batched) matrix product ridge models"); };
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  if (a.activation && !b.activation && y.size() == 2 && b.shape.size() == 2) {
    // ...k,kn->...n or ...k,nk->...n
    if (x.empty()) unsupported();
    char k = x.back();
    size_t kat = y.find(k);
    char out = y[1 - kat];
    if (kat == std::string::npos || z != x.substr(0, x.size() - 1) + out) unsupported();
    toml::table t;
    t.insert("out_features", b.shape[1 - kat]);
    t.insert("bias", false);
    Tensor ain = a;
    return layer(n, index, "linear", {&ain}, std::move(t));
  }
  if (!a.activation || !b.activation || x.size() != y.size() || x.size() != z.size() || x.size() < 3) unsupported();
  size_t lead = x.size() - 2;
  if (x.substr(0, lead) != y.substr(0, lead) || x.substr(0, lead) != z.substr(0, lead)) unsupported();
  std::string xl = x.substr(lead), yl = y.substr(lead), zl = z.substr(lead);
  char m = zl[0], c = zl[1];
  char k = xl[0] == m ? xl[1] : xl[0];
  if (k == m || k == c || m == c) unsupported();
  if (xl != std::string{m, k} && xl != std::string{k, m}) unsupported();
  if (yl != std::string{k, c} && yl != std::string{c, k}) unsupported();
  bool ta = xl[0] == k;  // A read as [..., K, M]
  bool tb = yl[0] == c;  // B read as [..., N, K]
  toml::table t;
  if (ta) t.insert("transpose_a", true);
  if (tb) t.insert("transpose_b", true);
  Tensor ain = a, bin = b;
  scores_.insert(n.output(0));
  layer(n, index, "matmul", {&ain, &bin}, std::move(t));
}

}  // namespace ridge::onnx_import
