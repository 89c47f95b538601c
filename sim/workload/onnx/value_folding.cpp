// The values of small constants carried through the arithmetic that computes sizes at
// run time: Cast between integer and floating-point types, elementwise ops (Floor,
// Ceil, Min, Max, comparisons, ...) and reductions (ReduceMin / ReduceMax / ReduceProd /
// ReduceSum) of constants. torchvision's detection transform computes its resize factor
// this way from the image's shape (min(800 / min(H, W), 1333 / max(H, W))), and the
// Resize that follows takes the size it gives. A value that cannot be computed (an input
// of unknown values, a broadcast of two vectors) leaves the result's values unknown;
// its shape is always known.
#include "sim/workload/onnx/translator.hpp"

#include <cmath>
#include <limits>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {

bool is_float_type(int64_t t) {
  return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE || t == onnx::TensorProto::FLOAT16 ||
         t == onnx::TensorProto::BFLOAT16;
}

// A real result as an integer value, where it is one that fits 64 bits.
std::optional<int64_t> integral(double r) {
  if (!std::isfinite(r) || r != std::trunc(r) || std::fabs(r) >= 9.2e18) return std::nullopt;
  return static_cast<int64_t>(r);
}

}  // namespace

std::optional<std::vector<double>> Translator::real_values(const Tensor& t) {
  if (t.reals) return t.reals;
  if (!t.values) return std::nullopt;
  return std::vector<double>(t.values->begin(), t.values->end());
}

// Cast of a constant converts its values (to an integer type they truncate, to bool
// they become 0 or 1); Cast of an activation passes it on.
void Translator::cast(const onnx::NodeProto& n, int) {
  const Tensor& x = tensor(n, 0);
  if (x.activation) return pass_on(n, x);
  Tensor c = x;
  c.learned = false;
  c.source = x.learned ? n.input(0) : x.source;
  std::optional<std::vector<double>> r = real_values(x);
  const int64_t to = attr_int(n, "to", onnx::TensorProto::FLOAT);
  c.values.reset();
  c.reals.reset();
  c.scalar.reset();
  if (r) {
    if (is_float_type(to)) {
      c.reals = r;
    } else {
      c.values.emplace();
      for (double v : *r) {
        std::optional<int64_t> i = to == onnx::TensorProto::BOOL ? std::optional<int64_t>(v != 0) : integral(std::trunc(v));
        if (!i) {
          c.values.reset();
          break;
        }
        c.values->push_back(*i);
      }
      if (c.values) c.reals = std::vector<double>(c.values->begin(), c.values->end());
    }
    if (r->size() == 1) c.scalar = c.reals ? (*c.reals)[0] : std::optional<double>();
  }
  tensors_[n.output(0)] = std::move(c);
}

// Sets the values of the folded output of `n` from real results `r` (one per output
// element): as integers where every input was an integer tensor (or the op yields a
// truth value), else as reals.
void Translator::set_folded_values(const onnx::NodeProto& n, const std::vector<double>& r, bool integer) {
  Tensor& out = tensors_.at(n.output(0));
  out.reals = r;
  out.values.reset();
  if (integer) {
    out.values.emplace();
    for (double v : r) {
      std::optional<int64_t> i = integral(v);
      if (!i) {
        out.values.reset();
        out.reals.reset();
        break;
      }
      out.values->push_back(*i);
    }
  }
  out.scalar = out.reals && out.reals->size() == 1 ? std::optional<double>((*out.reals)[0]) : std::nullopt;
}

// The values of an elementwise op of constants, each operand either one value or as
// many as the output (no other broadcast is computed).
void Translator::fold_elementwise_values(const onnx::NodeProto& n, const Shape& out) {
  const std::string& op = n.op_type();
  const auto count = static_cast<size_t>(element_count(out));
  std::vector<std::vector<double>> ins;
  bool all_int = true;
  for (int i = 0; i < n.input_size(); ++i) {
    if (!has_input(n, i)) continue;
    const Tensor& t = tensor(n, i);
    std::optional<std::vector<double>> r = real_values(t);
    if (!r || (r->size() != 1 && r->size() != count)) return;
    all_int &= t.values.has_value();
    ins.push_back(std::move(*r));
  }
  if (ins.empty() || count > static_cast<size_t>(kMaxFoldedValues)) return;
  static const std::set<std::string> truth = {"Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Not", "And", "Or", "Xor", "Equal"};
  std::vector<double> r;
  for (size_t k = 0; k < count; ++k) {
    auto in = [&](size_t i) { return ins[i][ins[i].size() == 1 ? 0 : k]; };
    double x = in(0), y = ins.size() > 1 ? in(1) : 0, v = 0;
    if (op == "Floor") v = std::floor(x);
    else if (op == "Ceil") v = std::ceil(x);
    else if (op == "Sqrt") v = std::sqrt(x);
    else if (op == "Exp") v = std::exp(x);
    else if (op == "Log") v = std::log(x);
    else if (op == "Neg") v = -x;
    else if (op == "Abs") v = std::fabs(x);
    else if (op == "Sign") v = (x > 0) - (x < 0);
    else if (op == "Reciprocal") v = 1 / x;
    else if (op == "Relu") v = std::max(x, 0.0);
    else if (op == "Not") v = x == 0;
    else if (op == "Less") v = x < y;
    else if (op == "Greater") v = x > y;
    else if (op == "LessOrEqual") v = x <= y;
    else if (op == "GreaterOrEqual") v = x >= y;
    else if (op == "And") v = x != 0 && y != 0;
    else if (op == "Or") v = x != 0 || y != 0;
    else if (op == "Xor") v = (x != 0) != (y != 0);
    else if (op == "Pow") v = std::pow(x, y);
    else if (op == "Min" || op == "Max") {
      v = x;
      for (size_t i = 1; i < ins.size(); ++i) v = op == "Min" ? std::min(v, in(i)) : std::max(v, in(i));
    } else return;  // (Sigmoid, Tanh, ... of constants: shape only)
    r.push_back(v);
  }
  bool integer = truth.count(op) || (all_int && op != "Sqrt" && op != "Exp" && op != "Log" && op != "Reciprocal" &&
                                     op != "Pow");
  set_folded_values(n, r, integer);
}

// The real-valued arithmetic of two constants where either is floating-point.
void Translator::fold_real_binary(const onnx::NodeProto& n, const std::string& op, const Shape& out) {
  std::optional<std::vector<double>> a = real_values(tensor(n, 0)), b = real_values(tensor(n, 1));
  const auto count = static_cast<size_t>(element_count(out));
  if (!a || !b || (a->size() != 1 && a->size() != count) || (b->size() != 1 && b->size() != count)) return;
  std::vector<double> r;
  for (size_t k = 0; k < count; ++k) {
    double x = (*a)[a->size() == 1 ? 0 : k], y = (*b)[b->size() == 1 ? 0 : k];
    r.push_back(op == "add" ? x + y : op == "sub" ? x - y : op == "mul" ? x * y : op == "div" ? x / y : std::fmod(x, y));
  }
  set_folded_values(n, r, false);
}

// ReduceMin / ReduceMax / ReduceProd / ReduceSum / ReduceMean of a constant: its shape
// (axes from the attribute or input 1, all by default; keepdims) and, over all of a
// tensor's values or a vector's, the value.
void Translator::reduce_constant(const onnx::NodeProto& n) {
  const Tensor& x = constant(n, 0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
  if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) fail(n, "reduces along axis " + std::to_string(a) + ", which a constant of shape " +
                                            shape_list(x.shape) + " does not have");
    reduced[a < 0 ? a + rank : a] = true;
  }
  const bool keep = attr_int(n, "keepdims", 1) != 0;
  Shape out;
  bool all = true;
  for (int64_t i = 0; i < rank; ++i) {
    all &= reduced[i] || x.shape[i] == 1;
    if (!reduced[i]) out.push_back(x.shape[i]);
    else if (keep) out.push_back(1);
  }
  folded(n, out, std::nullopt);
  std::optional<std::vector<double>> r = real_values(x);
  if (!all || !r || r->empty()) return;
  const std::string& op = n.op_type();
  double v = op == "ReduceProd" ? 1 : op == "ReduceMin" || op == "ReduceMax" ? (*r)[0] : 0;
  for (double e : *r) {
    if (op == "ReduceMin") v = std::min(v, e);
    else if (op == "ReduceMax") v = std::max(v, e);
    else if (op == "ReduceProd") v *= e;
    else v += e;
  }
  if (op == "ReduceMean") v /= static_cast<double>(r->size());
  set_folded_values(n, std::vector<double>(static_cast<size_t>(element_count(out)), v),
                    x.values.has_value() && op != "ReduceMean");
}

}  // namespace ridge::onnx_import
