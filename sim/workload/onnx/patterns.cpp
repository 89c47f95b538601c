// Recognisers of primitive-op chains (see patterns.hpp).
#include "sim/workload/onnx/patterns.hpp"

#include <cmath>

namespace ridge {

namespace {

const std::string kNone;

class Matcher {
 public:
  explicit Matcher(const OnnxGraphView& v) : v_(v) {}

  const onnx::NodeProto& node(int i) const { return v_.graph.node(i); }
  bool is(int i, const char* op) const {
    return i >= 0 && node(i).op_type() == op && (node(i).domain().empty() || node(i).domain() == "ai.onnx");
  }
  // Node i's input k and output 0, "" when it has none: a node short of them (which the
  // reader refuses before translating) matches no chain.
  const std::string& in(int i, int k) const {
    const onnx::NodeProto& n = node(i);
    return k < n.input_size() ? n.input(k) : kNone;
  }
  const std::string& out(int i) const { return node(i).output_size() ? node(i).output(0) : kNone; }
  // The node reading `tensor`, when exactly one does.
  int sole_reader(const std::string& tensor) const {
    if (tensor.empty()) return -1;
    auto it = v_.consumers.find(tensor);
    return it != v_.consumers.end() && it->second.size() == 1 ? it->second[0] : -1;
  }
  std::vector<int> readers(const std::string& tensor) const {
    if (tensor.empty()) return {};
    auto it = v_.consumers.find(tensor);
    return it == v_.consumers.end() ? std::vector<int>{} : it->second;
  }
  // Node i's other input than `known` (a binary op in either order), or "".
  std::string other(int i, const std::string& known) const {
    const onnx::NodeProto& n = node(i);
    if (n.input_size() != 2) return kNone;
    if (n.input(0) == known) return n.input(1);
    if (n.input(1) == known) return n.input(0);
    return kNone;
  }
  bool scalar_is(const std::string& tensor, double value, double tolerance = 1e-6) const {
    std::optional<double> s = v_.scalar(tensor);
    return s && std::abs(*s - value) <= tolerance * std::max(1.0, std::abs(value));
  }

  std::optional<OnnxChain> layernorm(int first) const {
    if (!is(first, "ReduceMean") || !v_.reduces_last_axis(node(first), in(first, 0))) return std::nullopt;
    OnnxChain c{OnnxChain::Kind::layernorm, {first}, in(first, 0), "", 0, false, false};
    int sub = sole_reader(out(first));
    if (!is(sub, "Sub") || in(sub, 0) != c.input || in(sub, 1) != out(first)) return std::nullopt;
    const std::string& centred = out(sub);
    std::vector<int> r = readers(centred);
    if (r.size() != 2) return std::nullopt;
    int pow = is(r[0], "Pow") ? r[0] : r[1], div = pow == r[0] ? r[1] : r[0];
    if (!is(pow, "Pow") || !is(div, "Div") || in(pow, 0) != centred || !scalar_is(in(pow, 1), 2) ||
        in(div, 0) != centred)
      return std::nullopt;
    int var = sole_reader(out(pow));
    if (!is(var, "ReduceMean") || !v_.reduces_last_axis(node(var), c.input)) return std::nullopt;
    int add = sole_reader(out(var));
    if (!is(add, "Add")) return std::nullopt;
    std::optional<double> eps = v_.scalar(other(add, out(var)));
    if (!eps) return std::nullopt;
    int sqrt = sole_reader(out(add));
    if (!is(sqrt, "Sqrt") || sole_reader(out(sqrt)) != div || in(div, 1) != out(sqrt))
      return std::nullopt;
    c.eps = *eps;
    c.nodes.insert(c.nodes.end(), {sub, pow, var, add, sqrt, div});
    int last = div;
    int mul = sole_reader(out(div));
    if (is(mul, "Mul") && is_vector(other(mul, out(div)))) {
      c.gamma = true;
      c.nodes.push_back(last = mul);
      int shift = sole_reader(out(mul));
      if (is(shift, "Add") && is_vector(other(shift, out(mul)))) {
        c.beta = true;
        c.nodes.push_back(last = shift);
      }
    }
    c.output = out(last);
    return c;
  }

  std::optional<OnnxChain> gelu(int first) const {
    if (!is(first, "Div") || node(first).input_size() != 2 || !scalar_is(in(first, 1), std::sqrt(2.0), 1e-5))
      return std::nullopt;
    const std::string& x = in(first, 0);
    int erf = sole_reader(out(first));
    if (!is(erf, "Erf")) return std::nullopt;
    int add = sole_reader(out(erf));
    if (!is(add, "Add") || !scalar_is(other(add, out(erf)), 1)) return std::nullopt;
    int mul = sole_reader(out(add));
    if (!is(mul, "Mul") || other(mul, out(add)) != x) return std::nullopt;
    int half = sole_reader(out(mul));
    if (!is(half, "Mul") || !scalar_is(other(half, out(mul)), 0.5)) return std::nullopt;
    return OnnxChain{OnnxChain::Kind::gelu, {first, erf, add, mul, half}, x, out(half), 0, false, false};
  }

 private:
  // A learned one-axis tensor (LayerNorm's gamma or beta).
  bool is_vector(const std::string& tensor) const {
    std::optional<std::vector<int64_t>> s = tensor.empty() ? std::nullopt : v_.learned_shape(tensor);
    return s && s->size() == 1;
  }

  const OnnxGraphView& v_;
};

}  // namespace

std::optional<OnnxChain> match_chain(const OnnxGraphView& view, int first) {
  Matcher m(view);
  if (auto c = m.layernorm(first)) return c;
  return m.gelu(first);
}

}  // namespace ridge
