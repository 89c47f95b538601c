// Recognisers of primitive-op chains (see onnx_patterns.hpp).
#include "sim/workload/onnx_patterns.hpp"

#include <cmath>

namespace ridge {

namespace {

class Matcher {
 public:
  explicit Matcher(const OnnxGraphView& v) : v_(v) {}

  const onnx::NodeProto& node(int i) const { return v_.graph.node(i); }
  bool is(int i, const char* op) const {
    return i >= 0 && node(i).op_type() == op && (node(i).domain().empty() || node(i).domain() == "ai.onnx");
  }
  // The node reading `tensor`, when exactly one does.
  int sole_reader(const std::string& tensor) const {
    auto it = v_.consumers.find(tensor);
    return it != v_.consumers.end() && it->second.size() == 1 ? it->second[0] : -1;
  }
  std::vector<int> readers(const std::string& tensor) const {
    auto it = v_.consumers.find(tensor);
    return it == v_.consumers.end() ? std::vector<int>{} : it->second;
  }
  // Node i's other input than `known` (a binary op in either order), or "".
  std::string other(int i, const std::string& known) const {
    const onnx::NodeProto& n = node(i);
    if (n.input_size() != 2) return "";
    if (n.input(0) == known) return n.input(1);
    if (n.input(1) == known) return n.input(0);
    return "";
  }
  bool scalar_is(const std::string& tensor, double value, double tolerance = 1e-6) const {
    std::optional<double> s = v_.scalar(tensor);
    return s && std::abs(*s - value) <= tolerance * std::max(1.0, std::abs(value));
  }

  std::optional<OnnxChain> layernorm(int first) const {
    if (!is(first, "ReduceMean") || !v_.reduces_last_axis(node(first), node(first).input(0))) return std::nullopt;
    OnnxChain c{OnnxChain::Kind::layernorm, {first}, node(first).input(0), "", 0, false, false};
    int sub = sole_reader(node(first).output(0));
    if (!is(sub, "Sub") || node(sub).input(0) != c.input || node(sub).input(1) != node(first).output(0)) return std::nullopt;
    const std::string& centred = node(sub).output(0);
    std::vector<int> r = readers(centred);
    if (r.size() != 2) return std::nullopt;
    int pow = is(r[0], "Pow") ? r[0] : r[1], div = pow == r[0] ? r[1] : r[0];
    if (!is(pow, "Pow") || !is(div, "Div") || node(pow).input(0) != centred || !scalar_is(node(pow).input(1), 2) ||
        node(div).input(0) != centred)
      return std::nullopt;
    int var = sole_reader(node(pow).output(0));
    if (!is(var, "ReduceMean") || !v_.reduces_last_axis(node(var), c.input)) return std::nullopt;
    int add = sole_reader(node(var).output(0));
    if (!is(add, "Add")) return std::nullopt;
    std::optional<double> eps = v_.scalar(other(add, node(var).output(0)));
    if (!eps) return std::nullopt;
    int sqrt = sole_reader(node(add).output(0));
    if (!is(sqrt, "Sqrt") || sole_reader(node(sqrt).output(0)) != div || node(div).input(1) != node(sqrt).output(0))
      return std::nullopt;
    c.eps = *eps;
    c.nodes.insert(c.nodes.end(), {sub, pow, var, add, sqrt, div});
    int last = div;
    int mul = sole_reader(node(div).output(0));
    if (is(mul, "Mul") && is_vector(other(mul, node(div).output(0)))) {
      c.gamma = true;
      c.nodes.push_back(last = mul);
      int shift = sole_reader(node(mul).output(0));
      if (is(shift, "Add") && is_vector(other(shift, node(mul).output(0)))) {
        c.beta = true;
        c.nodes.push_back(last = shift);
      }
    }
    c.output = node(last).output(0);
    return c;
  }

  std::optional<OnnxChain> gelu(int first) const {
    if (!is(first, "Div") || node(first).input_size() != 2 || !scalar_is(node(first).input(1), std::sqrt(2.0), 1e-5))
      return std::nullopt;
    const std::string& x = node(first).input(0);
    int erf = sole_reader(node(first).output(0));
    if (!is(erf, "Erf")) return std::nullopt;
    int add = sole_reader(node(erf).output(0));
    if (!is(add, "Add") || !scalar_is(other(add, node(erf).output(0)), 1)) return std::nullopt;
    int mul = sole_reader(node(add).output(0));
    if (!is(mul, "Mul") || other(mul, node(add).output(0)) != x) return std::nullopt;
    int half = sole_reader(node(mul).output(0));
    if (!is(half, "Mul") || !scalar_is(other(half, node(mul).output(0)), 0.5)) return std::nullopt;
    return OnnxChain{OnnxChain::Kind::gelu, {first, erf, add, mul, half}, x, node(half).output(0), 0, false, false};
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
