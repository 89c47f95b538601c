// ONNX graph translation (see onnx_reader.hpp). Each tensor is either an activation
// (made by a ridge layer; its shape kept per sample, the batch axis 0 dropped) or a
// constant (an initializer or a folded value: its full shape and, for small integer
// tensors, its values, which Reshape / Slice / Unsqueeze targets need). Every node
// becomes zero or more ridge layers; each layer is evaluated by its op as soon as it is
// emitted, so the next node sees the shape ridge itself infers.
//
// Mapping (ONNX op -> ridge op): Conv -> conv2d, Gemm and MatMul by a 2-D initializer
// -> linear, MatMul of two activations -> matmul, BatchNormalization -> batchnorm,
// LayerNormalization -> layernorm, Relu, Sigmoid, Tanh, Erf, Sqrt, Exp, HardSigmoid,
// HardSwish -> the op of that name, Clip(0, 6) -> relu6, Softmax -> softmax (over its
// axis, counted as over the last), MaxPool / AveragePool -> max_pool2d / avg_pool2d,
// GlobalAveragePool -> global_avg_pool2d, Add / Sub / Mul / Div of two activations or of
// an activation and a learned initializer (a `parameter` layer) -> add / sub / mul /
// div; with a one-element constant -> scale (1 FLOP per element); Pow by a constant ->
// pow, ReduceMean / ReduceSum -> reduce_mean / reduce_sum, Concat -> concat, Split and
// Slice -> slice, Gather of an initializer table -> embedding and of one index ->
// select, Flatten / Reshape / Squeeze / Unsqueeze -> reshape, Transpose -> transpose,
// Expand of an initializer -> parameter; Dropout, Identity and Cast pass their input on.
// GELU exported as Div, Erf, Add, Mul, Mul costs 5 FLOPs per element, as ridge's gelu.
#include "sim/workload/onnx_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <onnx/onnx_pb.h>

#include "sim/base/checked_math.hpp"
#include "sim/base/error.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/workload/op_registry.hpp"

namespace ridge {

namespace {

constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 18;
constexpr int64_t kMaxWindow = int64_t{1} << 16;  // kernel, stride or dilation of a conv or pool
constexpr int64_t kMaxFoldedValues = int64_t{1} << 16;  // a shape vector folded from Range

struct Tensor {
  bool activation = false;
  std::string layer;  // activation: the ridge layer making it ("@input" for the model input)
  Shape shape;        // activation: per sample; constant: full shape
  std::optional<std::vector<int64_t>> values;  // constant: its integer values when known
  std::optional<double> scalar;                // constant: its value when it has one element
  bool learned = false;                        // an initializer (a trained weight)
};

std::string shape_list(const Shape& s) { return "[" + shape_to_string(s) + "]"; }

toml::array to_array(const std::vector<int64_t>& v) {
  toml::array a;
  for (int64_t x : v) a.push_back(x);
  return a;
}

// "/layer1/layer1.0/conv1/Conv" -> "layer1.0.conv1"; a name without scopes stays as it is.
std::string module_name(const std::string& node_name) {
  if (node_name.empty() || node_name[0] != '/') return node_name;
  std::vector<std::string> parts;
  std::stringstream ss(node_name.substr(1));
  for (std::string p; std::getline(ss, p, '/');)
    if (!p.empty()) parts.push_back(p);
  if (parts.size() < 2) return parts.empty() ? node_name : parts[0];
  // A child of a Sequential is scoped "<attribute>.<index>" under "<attribute>":
  // "/layer1/layer1.0/downsample/downsample.0/Conv" is layer1.0.downsample.0.
  std::vector<std::string> path;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!path.empty() && parts[i].rfind(path.back() + ".", 0) == 0) path.back() = parts[i];
    else path.push_back(parts[i]);
  }
  std::string name;
  for (const std::string& p : path) name += (name.empty() ? "" : ".") + p;
  return name;
}

class Translator {
 public:
  Translator(const onnx::ModelProto& model, const std::string& file, const OnnxOptions& options)
      : model_(model), file_(file), options_(options) {}

  toml::table translate() {
    const onnx::GraphProto& g = model_.graph();
    check_opset();
    for (const onnx::TensorProto& t : g.initializer()) constants_from(t, true);
    read_input();
    for (int i = 0; i < g.node_size(); ++i) translate_node(g.node(i), i);
    toml::table root;
    root.insert("name", std::filesystem::path(file_).stem().string());
    std::string producer = model_.producer_name();
    if (!model_.producer_version().empty()) producer += " " + model_.producer_version();
    root.insert("source", "ONNX file " + file_ + (producer.empty() ? "" : ", exported by " + producer));
    toml::table input;
    input.insert("shape", to_array(input_shape_));
    root.insert("input", std::move(input));
    if (layers_.empty()) fail("the graph has no node ridge can model");
    root.insert("layer", std::move(layers_));
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::string hint = {}) const {
    throw InputError({file_}, what, std::move(hint));
  }
  [[noreturn]] void fail(const onnx::NodeProto& n, const std::string& what, std::string hint = {}) const {
    fail("node '" + n.name() + "' (" + n.op_type() + "): " + what, std::move(hint));
  }

  void check_opset() {
    for (const onnx::OperatorSetIdProto& o : model_.opset_import()) {
      if (!o.domain().empty() && o.domain() != "ai.onnx") continue;
      if (o.version() < kMinOpset || o.version() > kMaxOpset)
        fail("opset " + std::to_string(o.version()) + " is not supported (ridge reads opsets " +
                 std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")",
             "export with opset_version between those, e.g. torch.onnx.export(..., opset_version=17)");
      return;
    }
    fail("the model imports no default-domain opset", "is it an ONNX model?");
  }

  void constants_from(const onnx::TensorProto& t, bool learned) {
    Tensor c;
    for (int64_t d : t.dims()) c.shape.push_back(d);
    c.learned = learned;
    int64_t count = 1;
    for (int64_t d : c.shape) count = checked_mul(count, d);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    if (count > 0 && count <= 64) {  // (an empty or negative count has no values to read)
      if (t.data_type() == onnx::TensorProto::INT64) {
        if (t.int64_data_size()) ints.assign(t.int64_data().begin(), t.int64_data().end());
        else if (t.raw_data().size() == static_cast<size_t>(count) * 8) {
          ints.resize(count);
          std::memcpy(ints.data(), t.raw_data().data(), t.raw_data().size());
        }
      } else if (t.data_type() == onnx::TensorProto::INT32) {
        if (t.int32_data_size()) ints.assign(t.int32_data().begin(), t.int32_data().end());
        else if (t.raw_data().size() == static_cast<size_t>(count) * 4) {
          std::vector<int32_t> v(count);
          std::memcpy(v.data(), t.raw_data().data(), t.raw_data().size());
          ints.assign(v.begin(), v.end());
        }
      } else if (t.data_type() == onnx::TensorProto::FLOAT) {
        if (t.float_data_size()) reals.assign(t.float_data().begin(), t.float_data().end());
        else if (t.raw_data().size() == static_cast<size_t>(count) * 4) {
          std::vector<float> v(count);
          std::memcpy(v.data(), t.raw_data().data(), t.raw_data().size());
          reals.assign(v.begin(), v.end());
        }
      }
    }
    if (!ints.empty() && static_cast<int64_t>(ints.size()) == count) {
      c.values = ints;
      for (int64_t v : ints) reals.push_back(static_cast<double>(v));
    }
    if (count == 1 && reals.size() == 1) c.scalar = reals[0];
    tensors_[t.name()] = std::move(c);
  }

  void read_input() {
    const onnx::GraphProto& g = model_.graph();
    std::set<std::string> initializers;
    for (const onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
    const onnx::ValueInfoProto* input = nullptr;
    for (const onnx::ValueInfoProto& v : g.input()) {
      if (initializers.count(v.name())) continue;
      if (input) fail("the graph has more than one input ('" + input->name() + "', '" + v.name() + "')",
                      "ridge models take one input tensor");
      input = &v;
    }
    if (!input) fail("the graph has no input");
    Shape full;
    for (const auto& [name, shape] : options_.inputs) {
      if (name != input->name())
        fail("--input names '" + name + "', but the graph's input is '" + input->name() + "'");
      full = shape;
    }
    if (full.empty()) {
      const auto& dims = input->type().tensor_type().shape().dim();
      for (int i = 0; i < dims.size(); ++i) {
        if (dims[i].has_dim_value() && dims[i].dim_value() > 0) full.push_back(dims[i].dim_value());
        else if (i == 0) full.push_back(1);  // the batch: --batch gives it
        else
          fail("input '" + input->name() + "': dimension " + std::to_string(i) + " ('" + dims[i].dim_param() +
                   "') is dynamic and has no value",
               "give the input's shape: --input " + input->name() + "=1x3x224x224");
      }
    }
    if (full.size() < 2) fail("input '" + input->name() + "' has no dimension besides the batch");
    input_shape_.assign(full.begin() + 1, full.end());
    Tensor t;
    t.activation = true;
    t.layer = "@input";
    t.shape = input_shape_;
    tensors_[input->name()] = t;
  }

  const Tensor& tensor(const onnx::NodeProto& n, int i) {
    if (i >= n.input_size() || n.input(i).empty()) fail(n, "input " + std::to_string(i) + " is missing");
    auto it = tensors_.find(n.input(i));
    if (it == tensors_.end()) fail(n, "input '" + n.input(i) + "' is made by no earlier node");
    return it->second;
  }
  bool has_input(const onnx::NodeProto& n, int i) const { return i < n.input_size() && !n.input(i).empty(); }

  const Tensor& activation(const onnx::NodeProto& n, int i) {
    const Tensor& t = tensor(n, i);
    if (!t.activation) fail(n, "input '" + n.input(i) + "' is a constant where ridge expects an activation");
    return t;
  }
  const Tensor& constant(const onnx::NodeProto& n, int i) {
    const Tensor& t = tensor(n, i);
    if (t.activation) fail(n, "input '" + n.input(i) + "' must be a constant (an initializer or a folded value)");
    return t;
  }
  std::vector<int64_t> values(const onnx::NodeProto& n, int i) {
    const Tensor& t = constant(n, i);
    if (!t.values) fail(n, "input '" + n.input(i) + "' must be a constant integer tensor");
    return *t.values;
  }

  const onnx::AttributeProto* attr(const onnx::NodeProto& n, const std::string& name) const {
    for (const onnx::AttributeProto& a : n.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  int64_t attr_int(const onnx::NodeProto& n, const std::string& name, int64_t fallback) const {
    const onnx::AttributeProto* a = attr(n, name);
    return a ? a->i() : fallback;
  }
  std::optional<float> attr_float(const onnx::NodeProto& n, const std::string& name) const {
    const onnx::AttributeProto* a = attr(n, name);
    if (!a) return std::nullopt;
    return a->f();
  }
  std::optional<std::vector<int64_t>> attr_ints(const onnx::NodeProto& n, const std::string& name) const {
    const onnx::AttributeProto* a = attr(n, name);
    if (!a) return std::nullopt;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  }

  // A 2-D window attribute (kernel_shape, strides, dilations) of a conv or pool: two
  // positive values; `fallback` when the node does not give it (none: it is required).
  std::vector<int64_t> window_attr(const onnx::NodeProto& n, const std::string& name,
                                   std::optional<std::vector<int64_t>> fallback) {
    std::optional<std::vector<int64_t>> v = attr_ints(n, name);
    if (!v && !fallback) fail(n, "has no '" + name + "' attribute", "ONNX requires it on this node");
    if (!v) v = fallback;
    if (v->size() != 2 || (*v)[0] < 1 || (*v)[1] < 1 || (*v)[0] > kMaxWindow || (*v)[1] > kMaxWindow)
      fail(n, "'" + name + "' must be two values from 1 to " + std::to_string(kMaxWindow) + " (got " + shape_list(*v) +
                  "): ridge models 2-D convolutions and pools only");
    return *v;
  }

  // A Transpose's `perm` over `rank` axes: a permutation of 0 .. rank-1 (ONNX's default,
  // when it is not given, reverses the axes).
  std::vector<int64_t> permutation(const onnx::NodeProto& n, size_t rank) {
    std::vector<int64_t> perm;
    if (std::optional<std::vector<int64_t>> given = attr_ints(n, "perm")) perm = *given;
    else for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    bool ok = sorted.size() == rank;
    for (size_t i = 0; ok && i < rank; ++i) ok = sorted[i] == static_cast<int64_t>(i);
    if (!ok) fail(n, "'perm' " + shape_list(perm) + " is not a permutation of the " + std::to_string(rank) + " axes");
    return perm;
  }

  // A full-rank axis (counting the batch) as a per-sample axis; the batch axis is refused.
  int64_t sample_axis(const onnx::NodeProto& n, int64_t axis, size_t sample_rank) {
    int64_t full_rank = static_cast<int64_t>(sample_rank) + 1;
    if (axis < 0) axis += full_rank;
    if (axis <= 0 || axis >= full_rank)
      fail(n, "works along the batch axis (axis " + std::to_string(axis) + "), which ridge does not model",
           "ridge models a graph whose activations keep the batch first");
    return axis - 1;
  }

  std::string unique_name(const onnx::NodeProto& n, int index) {
    std::string base = module_name(n.name());
    if (base.empty()) base = n.op_type() + "_" + std::to_string(index);
    std::replace(base.begin(), base.end(), '@', '_');
    std::string name = base;
    if (used_.count(name)) name = base + "." + n.op_type();
    for (int k = 2; used_.count(name); ++k) name = base + "." + n.op_type() + "_" + std::to_string(k);
    used_.insert(name);
    return name;
  }

  // Emits a ridge layer and evaluates it (so shapes are ridge's own); returns its output shape.
  Shape emit(const onnx::NodeProto& n, const std::string& name, const std::string& op,
             const std::vector<std::string>& inputs, const std::vector<Shape>& shapes, toml::table attrs) {
    attrs.insert("name", name);
    attrs.insert("op", op);
    toml::array ins;
    for (const std::string& s : inputs) ins.push_back(s);
    if (!ins.empty()) attrs.insert("inputs", std::move(ins));
    const OpInfo* info = find_op(op);
    TomlFields f(attrs, file_, "layer '" + name + "' (" + op + ")");
    f.accept("name");
    f.accept("op");
    f.accept("inputs");
    OpResult r;
    try {
      r = info->evaluate(f, shapes);
    } catch (const ShapeMismatch& e) {
      std::string got;
      for (const Shape& s : shapes) got += (got.empty() ? "" : ", ") + shape_to_string(s);
      fail(n, e.what() + std::string(" (input shapes per sample: ") + got + ")");
    } catch (const InputError& e) {
      fail(n, e.what(), e.hint());
    }
    layers_.push_back(std::move(attrs));
    return r.output;
  }

  // A layer from node `n` whose output becomes the node's output 0.
  void layer(const onnx::NodeProto& n, int index, const std::string& op, const std::vector<const Tensor*>& ins,
             toml::table attrs = {}) {
    std::vector<std::string> names;
    std::vector<Shape> shapes;
    for (const Tensor* t : ins) {
      names.push_back(t->layer);
      shapes.push_back(t->shape);
    }
    std::string name = unique_name(n, index);
    Tensor out;
    out.activation = true;
    out.layer = name;
    out.shape = emit(n, name, op, names, shapes, std::move(attrs));
    tensors_[n.output(0)] = std::move(out);
  }

  void pass_on(const onnx::NodeProto& n, const Tensor& t) { tensors_[n.output(0)] = t; }

  void folded(const onnx::NodeProto& n, Shape shape, std::optional<std::vector<int64_t>> values) {
    Tensor c;
    c.shape = std::move(shape);
    c.values = std::move(values);
    if (c.values && c.values->size() == 1) c.scalar = static_cast<double>((*c.values)[0]);
    tensors_[n.output(0)] = std::move(c);
  }

  // A learned constant used as an activation: a `parameter` layer (once per initializer),
  // its shape per sample (a leading 1 of a full-rank tensor is the batch's place).
  const Tensor& as_parameter(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                             size_t sample_rank) {
    auto it = parameters_.find(tensor_name);
    if (it != parameters_.end()) return it->second;
    Shape s = c.shape;
    if (s.size() == sample_rank + 1) {
      if (s[0] != 1) fail(n, "a constant of shape " + shape_list(s) + " varies along the batch axis");
      s.erase(s.begin());
    }
    if (s.empty()) s = {1};
    std::string name = tensor_name;
    std::replace(name.begin(), name.end(), '@', '_');
    for (int k = 2; used_.count(name); ++k) name = tensor_name + "_" + std::to_string(k);
    used_.insert(name);
    toml::table attrs;
    attrs.insert("shape", to_array(s));
    Tensor out;
    out.activation = true;
    out.layer = name;
    out.shape = emit(n, name, "parameter", {}, {}, std::move(attrs));
    return parameters_[tensor_name] = out;
  }

  void binary(const onnx::NodeProto& n, int index, const std::string& op) {
    const Tensor& a = tensor(n, 0);
    const Tensor& b = tensor(n, 1);
    if (!a.activation && !b.activation) {  // folded arithmetic on constants
      std::optional<Shape> s = broadcast_shape(a.shape, b.shape);
      if (!s) fail(n, "constant shapes " + shape_list(a.shape) + " and " + shape_list(b.shape) + " do not broadcast");
      std::optional<std::vector<int64_t>> v;
      if (a.values && b.values && (a.values->size() == b.values->size() || b.values->size() == 1 || a.values->size() == 1)) {
        size_t count = std::max(a.values->size(), b.values->size());
        v.emplace();
        for (size_t i = 0; i < count; ++i) {
          int64_t x = (*a.values)[a.values->size() == 1 ? 0 : i], y = (*b.values)[b.values->size() == 1 ? 0 : i];
          if (op == "add") v->push_back(x + y);
          else if (op == "sub") v->push_back(x - y);
          else if (op == "mul") v->push_back(x * y);
          else if (y != 0) v->push_back(x / y);
          else v.reset();
          if (!v) break;
        }
      }
      folded(n, *s, v);
      return;
    }
    if (a.activation && b.activation) return layer(n, index, op, {&a, &b});
    bool left = a.activation;
    const Tensor& act = left ? a : b;
    const Tensor& c = left ? b : a;
    const std::string& c_name = n.input(left ? 1 : 0);
    int64_t elems = element_count(c.shape);
    if (elems == 1 && !c.learned) {
      // x op constant: one operation per element.
      toml::table attrs;
      attrs.insert("factor", c.scalar.value_or(1.0));
      return layer(n, index, "scale", {&act}, std::move(attrs));
    }
    // std::map keeps references valid as it grows.
    const Tensor& p = as_parameter(n, c_name, c, act.shape.size());
    if (left) layer(n, index, op, {&act, &p});
    else layer(n, index, op, {&p, &act});
  }

  // Per-sample pads of a 2-D conv or pool: [top, left, bottom, right] must be symmetric.
  std::pair<int64_t, int64_t> pads_2d(const onnx::NodeProto& n, const Shape& x, int64_t kh, int64_t kw, int64_t sh,
                                      int64_t sw, int64_t dh, int64_t dw) {
    const onnx::AttributeProto* ap = attr(n, "auto_pad");
    std::string mode = ap ? ap->s() : "NOTSET";
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      auto same = [&](int64_t in, int64_t k, int64_t s, int64_t d) {  // k, s, d in [1, kMaxWindow]
        int64_t out = in / s + (in % s != 0);
        int64_t total = std::max<int64_t>(checked_add(checked_mul(out - 1, s), (k - 1) * d + 1) - in, 0);
        if (total % 2) fail(n, "auto_pad " + mode + " pads unevenly, which ridge does not model");
        return total / 2;
      };
      return {same(x[1], kh, sh, dh), same(x[2], kw, sw, dw)};
    }
    if (mode == "VALID") return {0, 0};
    std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
    if (pads.size() != 4) fail(n, "ridge models 2-D convolutions and pools only");
    if (pads[0] != pads[2] || pads[1] != pads[3])
      fail(n, "asymmetric pads [" + shape_to_string(pads) + "] are not modelled");
    return {pads[0], pads[1]};
  }

  void conv(const onnx::NodeProto& n, int index) {
    const Tensor& x = activation(n, 0);
    const Tensor& w = constant(n, 1);
    if (w.shape.size() != 4 || x.shape.size() != 3) fail(n, "ridge models 2-D convolutions only");
    std::vector<int64_t> k = window_attr(n, "kernel_shape", std::vector<int64_t>{w.shape[2], w.shape[3]});
    std::vector<int64_t> s = window_attr(n, "strides", std::vector<int64_t>{1, 1});
    std::vector<int64_t> d = window_attr(n, "dilations", std::vector<int64_t>{1, 1});
    auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
    toml::table a;
    a.insert("out_channels", w.shape[0]);
    a.insert("kernel", to_array(k));
    a.insert("stride", to_array(s));
    a.insert("padding", to_array({ph, pw}));
    a.insert("dilation", to_array(d));
    a.insert("groups", attr_int(n, "group", 1));
    a.insert("bias", has_input(n, 2));
    Tensor xin = x;
    layer(n, index, "conv2d", {&xin}, std::move(a));
  }

  void pool(const onnx::NodeProto& n, int index, bool is_max) {
    const Tensor& x = activation(n, 0);
    if (x.shape.size() != 3) fail(n, "ridge models 2-D pools only");
    std::vector<int64_t> k = window_attr(n, "kernel_shape", std::nullopt);
    std::vector<int64_t> s = window_attr(n, "strides", std::vector<int64_t>{1, 1});
    std::vector<int64_t> d = window_attr(n, "dilations", std::vector<int64_t>{1, 1});
    auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
    toml::table a;
    a.insert("kernel", to_array(k));
    a.insert("stride", to_array(s));
    a.insert("padding", to_array({ph, pw}));
    if (is_max) a.insert("dilation", to_array(d));
    a.insert("ceil_mode", attr_int(n, "ceil_mode", 0) != 0);
    Tensor xin = x;
    layer(n, index, is_max ? "max_pool2d" : "avg_pool2d", {&xin}, std::move(a));
  }

  void view(const onnx::NodeProto& n, int index, const Tensor& x, const Shape& sample) {
    if (sample == x.shape) return pass_on(n, x);
    toml::table a;
    a.insert("shape", to_array(sample));
    Tensor xin = x;
    layer(n, index, "reshape", {&xin}, std::move(a));
  }

  void reshape(const onnx::NodeProto& n, int index) {
    const Tensor& x = tensor(n, 0);
    std::vector<int64_t> target = values(n, 1);
    if (!x.activation) return folded(n, target, x.values);  // a constant reshaped: its shape only
    Shape full = x.shape;
    full.insert(full.begin(), 1);
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < target.size(); ++i) {
      if (target[i] == 0 && attr_int(n, "allowzero", 0) == 0) {
        if (i >= full.size()) fail(n, "target " + shape_list(target) + " copies a dimension the input lacks");
        target[i] = full[i];
      }
      if (target[i] == -1) infer = static_cast<int64_t>(i);
      else known = checked_mul(known, target[i]);
    }
    int64_t total = element_count(full);
    if (infer >= 0) {
      if (known == 0 || total % known) fail(n, "cannot reshape " + shape_list(full) + " into " + shape_list(target));
      target[infer] = total / known;
    }
    if (target.empty() || target[0] != 1)
      fail(n, "reshapes " + shape_list(full) + " into " + shape_list(target) + ", moving the batch axis",
           "ridge models a graph whose activations keep the batch first");
    Tensor xin = x;
    view(n, index, xin, Shape(target.begin() + 1, target.end()));
  }

  void translate_node(const onnx::NodeProto& n, int index) {
    const std::string& op = n.op_type();
    if (n.output_size() == 0 || n.output(0).empty()) fail(n, "the node has no output");
    if (!n.domain().empty() && n.domain() != "ai.onnx") return unknown(n, index);
    if (op == "Constant") {
      const onnx::AttributeProto* v = attr(n, "value");
      if (v && v->has_t()) {
        onnx::TensorProto t = v->t();
        t.set_name(n.output(0));
        constants_from(t, false);
      } else if (const onnx::AttributeProto* i = attr(n, "value_int")) {
        folded(n, {}, std::vector<int64_t>{i->i()});
      } else if (const onnx::AttributeProto* is = attr(n, "value_ints")) {
        folded(n, {is->ints_size()}, std::vector<int64_t>(is->ints().begin(), is->ints().end()));
      } else if (const onnx::AttributeProto* f = attr(n, "value_float")) {
        folded(n, {}, std::nullopt);
        tensors_[n.output(0)].scalar = f->f();
      } else {
        fail(n, "a Constant ridge cannot read");
      }
      return;
    }
    if (op == "Shape") {
      const Tensor& x = tensor(n, 0);
      Shape full = x.shape;
      if (x.activation) full.insert(full.begin(), 1);
      return folded(n, {static_cast<int64_t>(full.size())}, full);
    }
    if (op == "ConstantOfShape") {
      std::vector<int64_t> s = values(n, 0);
      return folded(n, s, std::nullopt);
    }
    if (op == "Range") {
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
    if (op == "Identity" || op == "Dropout" || op == "Cast") return pass_on(n, tensor(n, 0));
    if (op == "Pad") {  // only a zero pad (torch exports one before some pools) is modelled
      std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{});
      if (pads.empty() && has_input(n, 1)) pads = values(n, 1);
      if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return pass_on(n, tensor(n, 0));
      fail(n, "a non-zero Pad is not modelled", "fold the padding into the next Conv or pool when exporting");
    }
    if (op == "Conv") return conv(n, index);
    if (op == "Gemm") {
      const Tensor& x = activation(n, 0);
      const Tensor& w = constant(n, 1);
      if (attr_int(n, "transA", 0)) fail(n, "transA = 1 is not modelled");
      if (w.shape.size() != 2) fail(n, "the weight must be 2-D");
      toml::table a;
      a.insert("out_features", attr_int(n, "transB", 0) ? w.shape[0] : w.shape[1]);
      a.insert("bias", has_input(n, 2));
      Tensor xin = x;
      return layer(n, index, "linear", {&xin}, std::move(a));
    }
    if (op == "MatMul") {
      const Tensor& a = tensor(n, 0);
      const Tensor& b = tensor(n, 1);
      if (a.activation && !b.activation) {
        if (b.shape.size() != 2) fail(n, "a MatMul by a constant of rank " + std::to_string(b.shape.size()) + " is not modelled");
        toml::table t;
        t.insert("out_features", b.shape[1]);
        t.insert("bias", false);
        Tensor ain = a;
        return layer(n, index, "linear", {&ain}, std::move(t));
      }
      Tensor ain = activation(n, 0), bin = activation(n, 1);
      return layer(n, index, "matmul", {&ain, &bin});
    }
    if (op == "BatchNormalization") {
      Tensor x = activation(n, 0);
      return layer(n, index, "batchnorm", {&x});
    }
    if (op == "LayerNormalization") {
      Tensor x = activation(n, 0);
      int64_t axis = attr_int(n, "axis", -1);
      if (axis != -1 && axis != static_cast<int64_t>(x.shape.size())) fail(n, "normalises over more than the last axis");
      toml::table a;
      a.insert("elementwise_affine", true);
      a.insert("bias", has_input(n, 2));
      a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
      return layer(n, index, "layernorm", {&x}, std::move(a));
    }
    static const std::map<std::string, std::string> unary = {
        {"Relu", "relu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"}, {"Erf", "erf"}, {"Sqrt", "sqrt"},
        {"Exp", "exp"}, {"HardSigmoid", "hardsigmoid"}, {"HardSwish", "hardswish"}, {"Gelu", "gelu"}};
    if (auto u = unary.find(op); u != unary.end()) {
      Tensor x = activation(n, 0);
      return layer(n, index, u->second, {&x});
    }
    if (op == "Clip") {
      Tensor x = activation(n, 0);
      std::optional<double> lo, hi;
      if (has_input(n, 1)) lo = constant(n, 1).scalar;
      if (has_input(n, 2)) hi = constant(n, 2).scalar;
      if (auto f = attr_float(n, "min")) lo = *f;
      if (auto f = attr_float(n, "max")) hi = *f;
      if (lo == 0.0 && hi == 6.0) return layer(n, index, "relu6", {&x});
      if (lo == 0.0 && !hi) return layer(n, index, "relu", {&x});
      fail(n, "only Clip(0, 6) (ReLU6) and Clip(0) (ReLU) are modelled");
    }
    if (op == "Pow") {
      Tensor x = activation(n, 0);
      std::optional<double> e = constant(n, 1).scalar;
      if (!e) fail(n, "the exponent must be a one-element constant");
      toml::table a;
      a.insert("exponent", *e);
      return layer(n, index, "pow", {&x}, std::move(a));
    }
    if (op == "Softmax") {
      Tensor x = activation(n, 0);
      sample_axis(n, attr_int(n, "axis", -1), x.shape.size());
      return layer(n, index, "softmax", {&x});
    }
    if (op == "MaxPool" || op == "AveragePool") return pool(n, index, op == "MaxPool");
    if (op == "GlobalAveragePool") {
      Tensor x = activation(n, 0);
      return layer(n, index, "global_avg_pool2d", {&x});
    }
    if (op == "GlobalMaxPool") {
      Tensor x = activation(n, 0);
      toml::table a;
      a.insert("output_size", 1);
      return layer(n, index, "adaptive_max_pool2d", {&x}, std::move(a));
    }
    if (op == "Add") return binary(n, index, "add");
    if (op == "Sub") return binary(n, index, "sub");
    if (op == "Mul") return binary(n, index, "mul");
    if (op == "Div") return binary(n, index, "div");
    if (op == "ReduceMean" || op == "ReduceSum") {
      Tensor x = activation(n, 0);
      std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
      if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
      if (axes.empty()) fail(n, "reduces over every axis, the batch included");
      toml::table a;
      toml::array per_sample;
      for (int64_t ax : axes) per_sample.push_back(sample_axis(n, ax, x.shape.size()));
      a.insert("axes", std::move(per_sample));
      a.insert("keepdims", attr_int(n, "keepdims", 1) != 0);
      return layer(n, index, op == "ReduceMean" ? "reduce_mean" : "reduce_sum", {&x}, std::move(a));
    }
    if (op == "Flatten") {
      const Tensor& x = activation(n, 0);
      int64_t axis = attr_int(n, "axis", 1);
      if (axis != 1) fail(n, "flattens from axis " + std::to_string(axis) + "; only axis 1 keeps the batch apart");
      Tensor xin = x;
      return view(n, index, xin, {element_count(x.shape)});
    }
    if (op == "Reshape") return reshape(n, index);
    if (op == "Squeeze" || op == "Unsqueeze") {
      const Tensor& x = tensor(n, 0);
      std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
      if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
      if (!x.activation) {  // folded: shape arithmetic
        Shape s = x.shape;
        if (op == "Unsqueeze") {
          int64_t rank = static_cast<int64_t>(s.size() + axes.size());
          std::vector<int64_t> sorted;
          for (int64_t a : axes) sorted.push_back(a < 0 ? a + rank : a);
          std::sort(sorted.begin(), sorted.end());
          for (int64_t a : sorted) s.insert(s.begin() + std::min<int64_t>(a, s.size()), 1);
        } else {
          Shape kept;
          for (size_t i = 0; i < s.size(); ++i)
            if (s[i] != 1) kept.push_back(s[i]);
          s = kept;
        }
        return folded(n, s, x.values);
      }
      Shape full = x.shape;
      full.insert(full.begin(), 1);
      if (op == "Unsqueeze") {
        int64_t rank = static_cast<int64_t>(full.size() + axes.size());
        std::vector<int64_t> sorted;
        for (int64_t a : axes) sorted.push_back(a < 0 ? a + rank : a);
        std::sort(sorted.begin(), sorted.end());
        for (int64_t a : sorted) {
          if (a == 0) fail(n, "adds an axis before the batch");
          full.insert(full.begin() + std::min<int64_t>(a, full.size()), 1);
        }
      } else {
        std::set<int64_t> drop;
        for (int64_t a : axes) drop.insert(sample_axis(n, a, x.shape.size()) + 1);
        Shape kept;
        for (size_t i = 0; i < full.size(); ++i)
          if (!(axes.empty() ? (i > 0 && full[i] == 1) : drop.count(static_cast<int64_t>(i)) > 0)) kept.push_back(full[i]);
        full = kept;
      }
      Tensor xin = x;
      return view(n, index, xin, Shape(full.begin() + 1, full.end()));
    }
    if (op == "Transpose") {
      const Tensor& c = tensor(n, 0);
      if (!c.activation) {  // a weight transposed for a MatMul (torch's Linear in training export)
        std::vector<int64_t> perm = permutation(n, c.shape.size());
        Tensor t = c;
        t.values.reset();
        for (size_t i = 0; i < perm.size(); ++i) t.shape[i] = c.shape[static_cast<size_t>(perm[i])];
        tensors_[n.output(0)] = std::move(t);
        return;
      }
      const Tensor& x = activation(n, 0);
      std::vector<int64_t> perm = permutation(n, x.shape.size() + 1);
      if (perm[0] != 0) fail(n, "moves the batch axis (perm " + shape_list(perm) + ")");
      toml::table a;
      toml::array p;
      for (size_t i = 1; i < perm.size(); ++i) p.push_back(perm[i] - 1);
      a.insert("perm", std::move(p));
      Tensor xin = x;
      return layer(n, index, "transpose", {&xin}, std::move(a));
    }
    if (op == "Concat") {
      bool all_constant = true;
      for (int i = 0; i < n.input_size(); ++i) all_constant &= !tensor(n, i).activation;
      if (all_constant) {  // shape vectors built from pieces
        std::vector<int64_t> v;
        bool known = true;
        for (int i = 0; i < n.input_size(); ++i) {
          const Tensor& t = tensor(n, i);
          if (!t.values) known = false;
          else v.insert(v.end(), t.values->begin(), t.values->end());
        }
        return folded(n, {static_cast<int64_t>(v.size())}, known ? std::optional(v) : std::nullopt);
      }
      std::vector<Tensor> ins;
      size_t rank = 0;
      for (int i = 0; i < n.input_size(); ++i)
        if (tensor(n, i).activation) rank = tensor(n, i).shape.size();
      for (int i = 0; i < n.input_size(); ++i) {
        const Tensor& t = tensor(n, i);
        ins.push_back(t.activation ? t : as_parameter(n, n.input(i), t, rank));
      }
      toml::table a;
      a.insert("axis", sample_axis(n, attr_int(n, "axis", 0), rank));
      std::vector<const Tensor*> ptrs;
      for (const Tensor& t : ins) ptrs.push_back(&t);
      return layer(n, index, "concat", ptrs, std::move(a));
    }
    if (op == "Split") {
      Tensor x = activation(n, 0);
      int64_t axis = sample_axis(n, attr_int(n, "axis", 0), x.shape.size());
      std::vector<int64_t> sizes = attr_ints(n, "split").value_or(std::vector<int64_t>{});
      if (sizes.empty() && has_input(n, 1)) sizes = values(n, 1);
      if (sizes.empty()) sizes.assign(n.output_size(), x.shape[axis] / n.output_size());
      if (sizes.size() != static_cast<size_t>(n.output_size()))
        fail(n, "'split' gives " + std::to_string(sizes.size()) + " sizes for " + std::to_string(n.output_size()) + " outputs");
      int64_t start = 0;
      for (int o = 0; o < n.output_size(); ++o) {
        toml::table a;
        a.insert("axes", to_array({axis}));
        a.insert("starts", to_array({start}));
        a.insert("ends", to_array({checked_add(start, sizes[o])}));
        start = checked_add(start, sizes[o]);
        std::string name = unique_name(n, index);
        Tensor out;
        out.activation = true;
        out.layer = name;
        out.shape = emit(n, name, "slice", {x.layer}, {x.shape}, std::move(a));
        tensors_[n.output(o)] = std::move(out);
      }
      return;
    }
    if (op == "Slice") {
      const Tensor& x = tensor(n, 0);
      std::vector<int64_t> starts = values(n, 1), ends = values(n, 2);
      std::vector<int64_t> axes;
      if (has_input(n, 3)) axes = values(n, 3);
      else for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
      std::vector<int64_t> steps = has_input(n, 4) ? values(n, 4) : std::vector<int64_t>(axes.size(), 1);
      if (!x.activation) {  // a piece of a shape vector
        std::optional<std::vector<int64_t>> v;
        if (x.values && axes.size() == 1 && starts.size() == 1 && ends.size() == 1 && steps.size() == 1 && steps[0] == 1) {
          int64_t len = static_cast<int64_t>(x.values->size());
          auto clamp = [len](int64_t i) { return std::clamp(i < 0 ? i + len : i, int64_t{0}, len); };
          v = std::vector<int64_t>(x.values->begin() + clamp(starts[0]), x.values->begin() + std::max(clamp(starts[0]), clamp(ends[0])));
        }
        return folded(n, {v ? static_cast<int64_t>(v->size()) : 0}, v);
      }
      toml::table a;
      toml::array per_sample;
      for (int64_t ax : axes) per_sample.push_back(sample_axis(n, ax, x.shape.size()));
      a.insert("axes", std::move(per_sample));
      for (int64_t& e : ends) e = std::min<int64_t>(e, int64_t{1} << 62);
      a.insert("starts", to_array(starts));
      a.insert("ends", to_array(ends));
      a.insert("steps", to_array(steps));
      Tensor xin = x;
      return layer(n, index, "slice", {&xin}, std::move(a));
    }
    if (op == "Gather") {
      const Tensor& data = tensor(n, 0);
      const Tensor& idx = tensor(n, 1);
      if (!data.activation && !idx.activation) {
        std::optional<std::vector<int64_t>> v;
        if (data.values && idx.values && attr_int(n, "axis", 0) == 0) {
          v.emplace();
          const auto len = static_cast<int64_t>(data.values->size());
          for (int64_t i : *idx.values) {
            if (i < -len || i >= len)
              fail(n, "index " + std::to_string(i) + " is out of range for " + std::to_string(len) + " values");
            v->push_back((*data.values)[static_cast<size_t>(i < 0 ? i + len : i)]);
          }
        }
        Shape s = idx.shape;
        return folded(n, s, v);
      }
      if (!data.activation) {  // an embedding table looked up by ids
        if (data.shape.size() != 2) fail(n, "a lookup table must be 2-D");
        toml::table a;
        a.insert("num_embeddings", data.shape[0]);
        a.insert("embedding_dim", data.shape[1]);
        Tensor ids = idx;
        return layer(n, index, "embedding", {&ids}, std::move(a));
      }
      if (!idx.activation && idx.values && idx.values->size() == 1 && idx.shape.empty()) {
        toml::table a;
        a.insert("axis", sample_axis(n, attr_int(n, "axis", 0), data.shape.size()));
        a.insert("index", (*idx.values)[0]);
        Tensor d = data;
        return layer(n, index, "select", {&d}, std::move(a));
      }
      fail(n, "this Gather (of activations by computed indices) is not modelled");
    }
    if (op == "Expand") {
      const Tensor& x = tensor(n, 0);
      std::vector<int64_t> target = values(n, 1);
      if (x.activation) {
        Shape full = x.shape;
        full.insert(full.begin(), 1);
        std::optional<Shape> s = broadcast_shape(full, target);
        if (s && *s == full) return pass_on(n, x);
        fail(n, "an Expand of an activation is not modelled");
      }
      std::optional<Shape> s = broadcast_shape(x.shape, target);
      if (!s) fail(n, "cannot expand " + shape_list(x.shape) + " to " + shape_list(target));
      if (!x.learned) return folded(n, *s, std::nullopt);
      const Tensor p = as_parameter(n, n.input(0), x, s->size() - 1);
      return pass_on(n, p);
    }
    unknown(n, index);
  }

  void unknown(const onnx::NodeProto& n, int index) {
    if (!options_.allow_unknown)
      fail(n, "ridge does not model op type '" + n.op_type() + "'",
           "--allow-unknown counts it as a zero-cost layer (listed as unmodelled)");
    // A zero-cost stand-in with its first activation's shape (the graph's value_info
    // is not trusted to be there).
    for (int i = 0; i < n.input_size(); ++i) {
      auto it = tensors_.find(n.input(i));
      if (it == tensors_.end() || !it->second.activation) continue;
      Tensor x = it->second;
      toml::table a;
      a.insert("onnx_op", n.op_type());
      layer(n, index, "unmodelled", {&x}, std::move(a));
      for (int o = 1; o < n.output_size(); ++o) tensors_[n.output(o)] = tensors_[n.output(0)];
      return;
    }
    fail(n, "ridge does not model op type '" + n.op_type() + "' and it has no activation input to stand in for");
  }

  const onnx::ModelProto& model_;
  std::string file_;
  const OnnxOptions& options_;
  std::map<std::string, Tensor> tensors_;
  std::map<std::string, Tensor> parameters_;
  std::set<std::string> used_;
  Shape input_shape_;
  toml::array layers_;
};

[[noreturn]] void throw_unreadable(const std::string& file) {
  throw InputError({file}, "is not a readable ONNX model (truncated, or not ONNX)",
                   "export it again, e.g. torch.onnx.export(model, x, \"model.onnx\")");
}

toml::table translate(const onnx::ModelProto& model, const std::string& file, const OnnxOptions& options) {
  if (!model.has_graph() || model.graph().node_size() == 0)
    throw InputError({file}, "is not an ONNX model: it holds no graph nodes");
  try {
    return Translator(model, file, options).translate();
  } catch (const CountOverflow&) {
    throw InputError({file}, "a tensor's element count overflows 64 bits", "check the graph's shapes");
  }
}

}  // namespace

bool is_onnx_path(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

toml::table onnx_model_table(const std::string& path, const OnnxOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path}, "cannot read the ONNX file", "check the path");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) throw_unreadable(path);
  return translate(model, path, options);
}

toml::table onnx_model_table_from_bytes(const std::string& bytes, const std::string& file, const OnnxOptions& options) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) throw_unreadable(file);
  return translate(model, file, options);
}

}  // namespace ridge
