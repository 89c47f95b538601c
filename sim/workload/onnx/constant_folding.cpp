// Shape arithmetic on constants, folded away rather than emitted as layers: Shape,
// ConstantOfShape, Range, Equal, elementwise ops whose inputs are all constants, and the
// rearranging of a constant's values (a transposed or sliced shape vector).
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

// The values of a constant rearranged into `shape`: output element (row-major index
// idx) is the input's element at the index `source` turns idx into. Nothing when the
// input's values are unknown, or when the output would hold more than kMaxFoldedValues
// (a Tile or Expand of a constant into a large tensor: its shape is kept, not its values).
std::optional<std::vector<int64_t>> Translator::rearranged(const Tensor& c, const Shape& shape,
                                                           const std::function<void(std::vector<int64_t>&)>& source) {
  if (!c.values || element_count(c.shape) != static_cast<int64_t>(c.values->size())) return std::nullopt;
  const int64_t total = element_count(shape);
  if (total < 0 || total > kMaxFoldedValues) return std::nullopt;
  std::vector<int64_t> out, idx(shape.size(), 0), src;
  for (int64_t k = 0; k < total; ++k) {
    src = idx;
    source(src);
    int64_t flat = 0;
    for (size_t i = 0; i < src.size(); ++i) flat = flat * c.shape[i] + src[i];
    out.push_back((*c.values)[flat]);
    for (size_t i = shape.size(); i-- > 0;)  // next index, row-major
      if (++idx[i] < shape[i]) break;
      else idx[i] = 0;
  }
  return out;
}

// The constant output 0 of `n`: its shape and values, the initializers it was computed
// from (the first its `source`, the others `also_from`), and, where only reshaped, its
// floating-point values.
void Translator::folded(const onnx::NodeProto& n, Shape shape, std::optional<std::vector<int64_t>> values) {
  Tensor c;
  auto add_origin = [&c](const std::string& origin) {
    if (origin.empty() || origin == c.source) return;
    if (c.source.empty()) c.source = origin;
    else if (std::find(c.also_from.begin(), c.also_from.end(), origin) == c.also_from.end()) c.also_from.push_back(origin);
  };
  // Every input's values reach the output of an elementwise op or a Concat; only input
  // 0's of a reshape, slice, gather or expand (the others are shapes and indices).
  static const std::set<std::string> joins = {"Concat", "Add", "Sub", "Mul", "Div", "Mod", "Min", "Max", "Pow",
                                              "Where", "Sum", "Mean"};
  for (int i = 0; i < n.input_size(); ++i) {
    auto it = tensors_.find(n.input(i));
    if (it == tensors_.end() || it->second.activation) continue;
    if (c.source.empty() || i == 0 || joins.count(n.op_type())) {
      add_origin(it->second.learned ? n.input(i) : it->second.source);
      for (const std::string& o : it->second.also_from) add_origin(o);
    }
  }
  c.shape = std::move(shape);
  c.values = std::move(values);
  if (c.values && c.values->size() == 1) c.scalar = static_cast<double>((*c.values)[0]);
  // A floating-point constant only reshaped keeps its values (a scale unsqueezed into a size).
  static const std::set<std::string> views = {"Unsqueeze", "Squeeze", "Reshape", "Flatten", "Identity"};
  if (!c.values && views.count(n.op_type()) && n.input_size() > 0) {
    auto it = tensors_.find(n.input(0));
    if (it != tensors_.end() && !it->second.activation && it->second.reals &&
        static_cast<int64_t>(it->second.reals->size()) == element_count(c.shape)) {
      c.reals = it->second.reals;
      if (c.reals->size() == 1) c.scalar = (*c.reals)[0];
    }
  }
  tensors_[n.output(0)] = std::move(c);
}

void Translator::shape_of(const onnx::NodeProto& n, int) {
  Shape full = full_shape(tensor(n, 0));
  return folded(n, {static_cast<int64_t>(full.size())}, full);
}

void Translator::constant_of_shape(const onnx::NodeProto& n, int) {
  if (trip_size_from_data(n, 0)) {  // a Loop trip's margins around its box: empty (loop_ops.cpp)
    const Shape& rank = tensor(n, 0).shape;
    return folded(n, Shape(rank.size() == 1 ? static_cast<size_t>(std::clamp<int64_t>(rank[0], 1, 8)) : 1, 0), std::vector<int64_t>{});
  }
  std::vector<int64_t> s = values(n, 0);
  std::optional<std::vector<int64_t>> v;
  const onnx::AttributeProto* fill = attr(n, "value");
  int64_t count = element_count(s);
  if (count >= 0 && count <= 64) {
    int64_t x = 0;  // the default fill is a float 0
    if (fill && fill->has_t() && fill->t().data_type() == onnx::TensorProto::INT64) {
      if (fill->t().int64_data_size()) x = fill->t().int64_data(0);
      else if (fill->t().raw_data().size() == 8) std::memcpy(&x, fill->t().raw_data().data(), 8);
    }
    v = std::vector<int64_t>(static_cast<size_t>(count), x);
  }
  return folded(n, s, v);
}

void Translator::range(const onnx::NodeProto& n, int) {
  std::vector<int64_t> a = values(n, 0), b = values(n, 1), c = values(n, 2);
  if (a.size() != 1 || b.size() != 1 || c.size() != 1 || c[0] == 0)
    fail(n, "start, limit and delta must be one integer each, delta not 0");
  // max(ceil((limit - start) / delta), 0) values, counted in long double (no overflow)
  long double count = std::ceil((static_cast<long double>(b[0]) - a[0]) / c[0]);
  if (count > kMaxFoldedValues) fail(n, "folds to more than " + std::to_string(kMaxFoldedValues) + " values");
  std::vector<int64_t> v;
  for (int64_t k = 0, x = a[0]; k < count; ++k) {
    v.push_back(x);
    if (k + 1 < count) x += c[0];  // stays between start and limit: no overflow
  }
  return folded(n, {static_cast<int64_t>(v.size())}, v);
}

void Translator::equal(const onnx::NodeProto& n, int index) {
  if (tensor(n, 0).activation || tensor(n, 1).activation) return binary(n, index, "compare");  // (class ids matched)
  const Tensor& a = constant(n, 0);
  const Tensor& b = constant(n, 1);
  std::optional<Shape> s = broadcast_shape(a.shape, b.shape);
  if (!s) fail(n, "constant shapes " + shape_list(a.shape) + " and " + shape_list(b.shape) + " do not broadcast");
  std::optional<std::vector<int64_t>> v;
  if (a.values && b.values && (a.values->size() == b.values->size() || b.values->size() == 1)) {
    v.emplace();
    for (size_t i = 0; i < a.values->size(); ++i)
      v->push_back((*a.values)[i] == (*b.values)[b.values->size() == 1 ? 0 : i]);
  }
  return folded(n, *s, v);
}

// An elementwise op whose inputs are all constants (Swin's attention mask and bias
// index arithmetic) is folded: its broadcast shape, and its values where
// value_folding.cpp computes them; so is a
// ScatterND into a constant (the mask filled region by region).
bool Translator::elementwise_on_constants(const onnx::NodeProto& n) {
  static const std::set<std::string> ops = {"Pow", "Sqrt", "Exp", "Log", "Neg", "Abs", "Floor", "Ceil", "Sign",
                                            "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Not", "And",
                                            "Or", "Xor", "Min", "Max", "Relu", "Sigmoid", "Tanh", "Erf",
                                            "Sin", "Cos", "Reciprocal"};
  if ((n.op_type() == "ScatterND" || n.op_type() == "ScatterElements") && !tensor(n, 0).activation &&
      !tensor(n, 2).activation) {  // written into a constant: its shape
    folded(n, tensor(n, 0).shape, std::nullopt);
    return true;
  }
  if (!ops.count(n.op_type()) || n.input_size() == 0) return false;
  Shape s;
  for (int i = 0; i < n.input_size(); ++i) {
    if (!has_input(n, i)) continue;
    const Tensor& t = tensor(n, i);
    if (t.activation) return false;
    std::optional<Shape> b = broadcast_shape(s, t.shape);
    if (!b) fail(n, "constant shapes " + shape_list(s) + " and " + shape_list(t.shape) + " do not broadcast");
    s = *b;
  }
  folded(n, s, std::nullopt);
  fold_elementwise_values(n, s);
  return true;
}

// Arithmetic on two constants (shape vectors): the broadcast shape, and the values where
// both are known and no result overflows 64 bits.
void Translator::fold_binary(const onnx::NodeProto& n, const std::string& op) {
  const Tensor& a = tensor(n, 0);
  const Tensor& b = tensor(n, 1);
  std::optional<Shape> s = broadcast_shape(a.shape, b.shape);
  if (!s) fail(n, "constant shapes " + shape_list(a.shape) + " and " + shape_list(b.shape) + " do not broadcast");
  std::optional<std::vector<int64_t>> v;
  const int64_t count = element_count(*s);  // each operand holds 1 value or one per element
  if (values_broadcast(a, count) && values_broadcast(b, count)) {
    v.emplace();
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
      int64_t x = (*a.values)[a.values->size() == 1 ? 0 : i], y = (*b.values)[b.values->size() == 1 ? 0 : i];
      int64_t r = 0;
      bool known = true;  // a result past 64 bits (or a division by 0) leaves the values unknown
      if (op == "add") known = !__builtin_add_overflow(x, y, &r);
      else if (op == "sub") known = !__builtin_sub_overflow(x, y, &r);
      else if (op == "mul") known = !__builtin_mul_overflow(x, y, &r);
      else if (op == "mod" && y != 0) {  // the sign of the divisor, as ONNX's Mod
        r = y == -1 ? 0 : x % y;
        if (r != 0 && (r < 0) != (y < 0)) r += y;
      } else if (op == "div" && y != 0 && !(y == -1 && x == std::numeric_limits<int64_t>::min())) r = x / y;
      else known = false;
      if (!known) {
        v.reset();
        break;
      }
      v->push_back(r);
    }
  }
  folded(n, *s, v);
  if (!v && (!a.values || !b.values)) fold_real_binary(n, op, *s);  // floating-point operands
}

}  // namespace ridge::onnx_import
