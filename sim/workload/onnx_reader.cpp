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
// Expand of an initializer -> parameter; Dropout of an activation -> dropout (Identity,
// Cast and a Dropout of a constant or with training_mode false pass their input on).
// GELU exported as Div, Erf, Add, Mul, Mul costs 5 FLOPs per element, as ridge's gelu.
#include "sim/workload/onnx_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <onnx/onnx_pb.h>

#include "sim/base/checked_math.hpp"
#include "sim/base/error.hpp"
#include "sim/base/input_file.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/workload/onnx_patterns.hpp"
#include "sim/workload/op_registry.hpp"

namespace ridge {

namespace {

constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 18;
constexpr int64_t kMaxWindow = int64_t{1} << 16;  // kernel, stride or dilation of a conv or pool
constexpr int64_t kMaxFoldedValues = int64_t{1} << 16;  // a shape vector folded from Range
constexpr int64_t kMaxResized = int64_t{1} << 40;       // an axis a Resize's scale makes

// Where an activation's batch lies in its ONNX shape. Torch's exports keep it first
// until an attention or window reshape moves it: nn.MultiheadAttention works on
// [S, N, E], then [S, N x heads, d]; Swin merges it with the windows, [N x windows, ...].
// `batch` is the ONNX axis holding it; alone on that axis (size 1 at batch 1) it is
// dropped from the shape per sample; merged with other factors (`merged`, `factor` of
// that axis's elements inside each batch index) the axis stays, holding one sample's part.
struct Placement {
  int64_t batch = 0;
  bool merged = false;
  int64_t factor = 1;
  bool operator==(const Placement&) const = default;
};

struct Tensor {
  bool activation = false;
  Placement at;       // activation: where its batch is
  std::string layer;  // activation: the ridge layer making it ("@input" for the model input)
  Shape shape;        // activation: per sample; constant: full shape
  std::optional<std::vector<int64_t>> values;  // constant: its integer values when known
  std::optional<double> scalar;                // constant: its value when it has one element
  std::optional<std::vector<double>> reals;    // constant: its values when small and floating-point
  bool learned = false;                        // an initializer (a trained weight)
  std::string source;  // constant: the initializer it was computed from (gathered, reshaped, ...)
  // activation: a zero Pad not yet applied, [top, left] = [bottom, right], which the
  // Conv or pool that reads it folds into its own padding.
  std::pair<int64_t, int64_t> pad{0, 0};
};

std::string shape_list(const Shape& s) { return "[" + shape_to_string(s) + "]"; }
// Attribute values that are not a shape (pads): "[0, 0, 1, 1]".
std::string value_list(const std::vector<int64_t>& v) {
  std::string out;
  for (int64_t x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
  return "[" + out + "]";
}

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
    for (const onnx::NodeProto& n : g.node()) check_arity(n);
    for (const onnx::TensorProto& t : g.initializer()) constants_from(t, true);
    read_input();
    // Constants first: a chain recogniser looks ahead at values made by later nodes.
    for (int i = 0; i < g.node_size(); ++i)
      if (g.node(i).op_type() == "Constant") translate_node(g.node(i), i);
    OnnxGraphView view{g, {}, {}, {}, {}};
    for (int i = 0; i < g.node_size(); ++i)
      for (const std::string& in : g.node(i).input()) view.consumers[in].push_back(i);
    view.scalar = [this](const std::string& t) -> std::optional<double> {
      auto it = tensors_.find(t);
      return it == tensors_.end() || it->second.activation ? std::nullopt : it->second.scalar;
    };
    view.learned_shape = [this](const std::string& t) -> std::optional<std::vector<int64_t>> {
      auto it = tensors_.find(t);
      return it == tensors_.end() || !it->second.learned ? std::nullopt : std::optional(it->second.shape);
    };
    view.reduces_last_axis = [this](const onnx::NodeProto& n, const std::string& like) {
      return reduces_last_axis(n, like);
    };
    std::set<int> fused;
    for (int i = 0; i < g.node_size(); ++i) {
      if (fused.count(i) || g.node(i).op_type() == "Constant") continue;
      if (std::optional<OnnxChain> c = match_chain(view, i)) {
        emit_chain(*c, i);
        fused.insert(c->nodes.begin(), c->nodes.end());
        continue;
      }
      translate_node(g.node(i), i);
    }
    toml::table root;
    root.insert("name", std::filesystem::path(file_).stem().string());
    std::string producer = model_.producer_name();
    if (!model_.producer_version().empty()) producer += " " + model_.producer_version();
    root.insert("source", "ONNX file " + file_ + (producer.empty() ? "" : ", exported by " + producer));
    toml::table input;
    input.insert("shape", to_array(input_shape_));
    root.insert("input", std::move(input));
    if (layers_.empty())
      fail("the graph has no node ridge can model",
           "its nodes only pass their input on (Identity, Cast) or compute constants");
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

  // Every node has an output, and the ops the chain recognisers read have their inputs
  // (they index them before any node is translated).
  void check_arity(const onnx::NodeProto& n) const {
    static const std::set<std::string> binary = {"Add", "Sub", "Mul", "Div", "Pow", "MatMul"};
    static const std::set<std::string> unary = {"ReduceMean", "Sqrt", "Erf", "Tanh", "Sigmoid", "Relu", "Softmax"};
    int needed = binary.count(n.op_type()) ? 2 : unary.count(n.op_type()) ? 1 : 0;
    if (n.output_size() == 0 || n.output(0).empty()) fail(n, "the node has no output");
    if (n.input_size() < needed) fail(n, "has " + std::to_string(n.input_size()) + " inputs, ONNX requires " + std::to_string(needed));
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
      } else if (t.data_type() == onnx::TensorProto::BOOL && t.raw_data().size() == static_cast<size_t>(count)) {
        for (char b : t.raw_data()) ints.push_back(b != 0);  // one byte each (without raw data: int32_data)
      } else if (t.data_type() == onnx::TensorProto::INT32 || t.data_type() == onnx::TensorProto::BOOL) {
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
    if (!reals.empty() && static_cast<int64_t>(reals.size()) == count) c.reals = reals;
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
        fail("--input names '" + name + "', but the graph's input is '" + input->name() + "'",
             "--input " + input->name() + "=SHAPE");
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
    if (!t.values) fail(n, "input '" + n.input(i) + "' must be a constant integer tensor whose values ridge can fold");
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

  // An Unsqueeze's axes as positions in its output (of rank `in_rank` + their number), ascending.
  std::vector<int64_t> unsqueezed_axes(const onnx::NodeProto& n, const std::vector<int64_t>& axes, size_t in_rank) {
    const int64_t rank = static_cast<int64_t>(in_rank + axes.size());
    std::vector<int64_t> sorted;
    for (int64_t a : axes) {
      if (a < -rank || a >= rank)
        fail(n, "axis " + std::to_string(a) + " is out of range for its output of rank " + std::to_string(rank));
      sorted.push_back(a < 0 ? a + rank : a);
    }
    std::sort(sorted.begin(), sorted.end());
    return sorted;
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

  // An activation's ONNX shape at batch 1.
  static Shape full_shape(const Tensor& t) {
    Shape f = t.shape;
    if (t.activation && !t.at.merged) f.insert(f.begin() + t.at.batch, 1);
    return f;
  }
  static int64_t inner(const Shape& s, size_t from) {
    int64_t p = 1;
    for (size_t i = from; i < s.size(); ++i) p = checked_mul(p, s[i]);
    return p;
  }
  // Elements inside one batch index of the activation's ONNX tensor at batch 1.
  static int64_t batch_stride(const Tensor& t) {
    return checked_mul(t.at.factor, inner(full_shape(t), static_cast<size_t>(t.at.batch) + 1));
  }

  // The placement of the batch in an ONNX shape `full` (at batch 1) whose batch index has
  // `stride` elements inside: a size-1 axis with exactly that many inside is the batch's
  // own (`prefer` first among several); otherwise the axis it is merged into. Where the
  // batch sits between two axes, it is taken as the outer factor of the inner one
  // ([S, N x heads, d] rather than [S x N, heads, d]: the same layout, and the costs per
  // sample are the same either way).
  Placement place(const onnx::NodeProto& n, const Shape& full, int64_t stride, int64_t prefer) {
    Placement p;
    int64_t pick = -1;
    for (size_t a = 0; a < full.size(); ++a)
      if (full[a] == 1 && inner(full, a + 1) == stride && (pick < 0 || static_cast<int64_t>(a) == prefer))
        pick = static_cast<int64_t>(a);
    if (pick >= 0) {
      p.batch = pick;
      return p;
    }
    p.merged = true;
    for (size_t a = 0; a < full.size(); ++a) {
      int64_t below = inner(full, a + 1), whole = checked_mul(below, full[a]);
      if (stride == whole && full[a] > 1) {  // outermost factor of axis a
        p.batch = static_cast<int64_t>(a);
        p.factor = full[a];
        return p;
      }
      if (below < stride && stride < whole && stride % below == 0 && full[a] % (stride / below) == 0) {
        p.batch = static_cast<int64_t>(a);
        p.factor = stride / below;
        return p;
      }
    }
    if (stride == 1 && !full.empty()) {  // the innermost factor of the last axis
      p.batch = static_cast<int64_t>(full.size()) - 1;
      return p;
    }
    fail(n, "loses track of the batch axis (shape " + shape_list(full) + " at batch 1)",
         "ridge follows the batch through reshapes that keep it whole");
  }

  // An activation with ONNX shape `full` (at batch 1) and placement `p`.
  static Tensor placed(const Tensor& like, const Shape& full, const Placement& p) {
    Tensor t = like;
    t.at = p;
    t.shape = full;
    if (!p.merged) t.shape.erase(t.shape.begin() + p.batch);
    return t;
  }

  // An ONNX axis of activation x as an axis per sample. The batch's own axis is refused;
  // a merged batch's axis holds the sample's part and is taken as it is.
  int64_t sample_axis(const onnx::NodeProto& n, int64_t axis, const Tensor& x) {
    int64_t full_rank = static_cast<int64_t>(x.shape.size()) + (x.at.merged ? 0 : 1);
    if (axis < 0) axis += full_rank;
    if (axis < 0 || axis >= full_rank || (!x.at.merged && axis == x.at.batch))
      fail(n, "works along the batch axis (axis " + std::to_string(axis) + "), which ridge does not model",
           "ridge models a graph whose activations keep the batch apart");
    return x.at.merged || axis < x.at.batch ? axis : axis - 1;
  }
  // The layers that read [N, C, H, W] need the batch first and alone.
  void batch_first(const onnx::NodeProto& n, const Tensor& x) {
    if (x.at.batch != 0 || x.at.merged)
      fail(n, "needs its input's batch first (it is on axis " + std::to_string(x.at.batch) + ")");
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
  // The output's batch is placed as `at` says, by default as the first input's.
  void layer(const onnx::NodeProto& n, int index, const std::string& op, const std::vector<const Tensor*>& ins,
             toml::table attrs = {}, std::optional<Placement> at = std::nullopt) {
    std::vector<std::string> names;
    std::vector<Shape> shapes;
    for (const Tensor* t : ins) {
      if (t->pad != std::pair<int64_t, int64_t>{0, 0})
        fail(n, "reads a zero Pad that no Conv or pool folds in, which ridge does not model");
      names.push_back(t->layer);
      shapes.push_back(t->shape);
    }
    std::string name = unique_name(n, index);
    Tensor out;
    out.activation = true;
    out.layer = name;
    out.at = at.value_or(ins.empty() ? Placement{} : ins[0]->at);
    out.shape = emit(n, name, op, names, shapes, std::move(attrs));
    tensors_[n.output(0)] = std::move(out);
  }

  void pass_on(const onnx::NodeProto& n, const Tensor& t) { tensors_[n.output(0)] = t; }

  // Dropout of an activation is ridge's `dropout` layer: nothing at inference; in
  // training its output and a one-byte mask per element are kept (a training-mode export
  // has it; an eval-mode one has no Dropout). Passed on: of a constant, or with a
  // training_mode input that is a constant false (ONNX's identity).
  void dropout(const onnx::NodeProto& n, int index) {
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

  // The values of a constant rearranged into `shape`: output element (row-major index
  // idx) is the input's element at the index `source` turns idx into. Nothing when the
  // input's values are unknown.
  static std::optional<std::vector<int64_t>> rearranged(const Tensor& c, const Shape& shape,
                                                        const std::function<void(std::vector<int64_t>&)>& source) {
    if (!c.values || element_count(c.shape) != static_cast<int64_t>(c.values->size())) return std::nullopt;
    std::vector<int64_t> out, idx(shape.size(), 0), src;
    for (int64_t k = 0, total = element_count(shape); k < total; ++k) {
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

  void folded(const onnx::NodeProto& n, Shape shape, std::optional<std::vector<int64_t>> values) {
    Tensor c;
    for (int i = 0; i < n.input_size() && c.source.empty(); ++i) {
      auto it = tensors_.find(n.input(i));
      if (it != tensors_.end() && !it->second.activation) c.source = it->second.learned ? n.input(i) : it->second.source;
    }
    c.shape = std::move(shape);
    c.values = std::move(values);
    if (c.values && c.values->size() == 1) c.scalar = static_cast<double>((*c.values)[0]);
    tensors_[n.output(0)] = std::move(c);
  }

  // A learned constant used as an activation: a `parameter` layer (once per initializer),
  // its shape per sample (a leading 1 of a full-rank tensor is the batch's place).
  // `act` is the activation it meets (by broadcasting): the constant's axis aligned with
  // act's own batch axis, if it reaches it, must be 1 and is dropped.
  const Tensor& as_parameter(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                             const Tensor& act) {
    auto it = parameters_.find(tensor_name);
    if (it != parameters_.end()) return it->second;
    Shape s = c.shape;
    int64_t full_rank = static_cast<int64_t>(full_shape(act).size());
    int64_t at = act.at.merged ? -1 : act.at.batch - (full_rank - static_cast<int64_t>(s.size()));
    if (at >= 0 && at < static_cast<int64_t>(s.size())) {
      if (s[at] != 1) fail(n, "a constant of shape " + shape_list(s) + " varies along the batch axis");
      s.erase(s.begin() + at);
    }
    if (s.empty()) s = {1};
    // Named after the initializer; a computed one after the initializer it came from, or
    // after the module using it.
    std::string base = c.learned ? tensor_name : !c.source.empty() ? c.source : module_name(n.name()) + ".constant";
    std::replace(base.begin(), base.end(), '@', '_');
    std::string name = base;
    for (int k = 2; used_.count(name); ++k) name = base + "_" + std::to_string(k);
    used_.insert(name);
    toml::table attrs;
    attrs.insert("shape", to_array(s));
    if (!c.learned) {  // computed: its learned elements are its source's, counted once
      int64_t learned = 0;
      if (!c.source.empty() && counted_sources_.insert(c.source).second)
        learned = element_count(tensors_.at(c.source).shape);
      attrs.insert("learned", learned);
    }
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
      return;
    }
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
      return layer(n, index, "scale", {&act}, std::move(attrs));
    }
    // std::map keeps references valid as it grows.
    const Tensor& p = as_parameter(n, c_name, c, act);
    if (left) layer(n, index, op, {&act, &p});
    else layer(n, index, op, {&p, &act}, {}, act.at);
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
    if (pads.size() != 4)
      fail(n, "'pads' must be 4 values, [top, left, bottom, right] (got " + value_list(pads) +
                  "): ridge models 2-D convolutions and pools only");
    if (pads[0] != pads[2] || pads[1] != pads[3]) fail(n, "asymmetric pads " + value_list(pads) + " are not modelled");
    return {pads[0], pads[1]};
  }

  // A Pad of zeros on the two spatial axes of [N, C, H, W], the same before and after
  // (torch exports avg_pool2d(padding=1) as Pad + AveragePool): the Conv or pool reading
  // it takes it as its own padding, which costs the same.
  void pad(const onnx::NodeProto& n) {
    const Tensor& x = activation(n, 0);
    batch_first(n, x);
    std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{});
    if (pads.empty() && has_input(n, 1)) pads = values(n, 1);
    if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return pass_on(n, x);
    const onnx::AttributeProto* mode = attr(n, "mode");
    std::optional<double> value;  // the pad value: input 2 (opset 11+) or attribute `value`
    if (has_input(n, 2)) value = constant(n, 2).scalar;
    else if (auto f = attr_float(n, "value")) value = *f;
    if ((mode && mode->s() != "constant") || value.value_or(0.0) != 0.0)
      fail(n, "only a Pad of zeros is modelled (this one is " + (mode ? mode->s() : std::string("constant")) + ")");
    if (pads.size() != 8 || x.shape.size() != 3 || pads[0] || pads[1] || pads[4] || pads[5] || pads[2] != pads[6] ||
        pads[3] != pads[7])
      fail(n, "pads " + value_list(pads) + " are not the same on both sides of H and W of [N, C, H, W]",
           "ridge folds a zero Pad into the Conv or pool that follows it");
    Tensor t = x;
    t.pad = {checked_add(t.pad.first, pads[2]), checked_add(t.pad.second, pads[3])};
    tensors_[n.output(0)] = std::move(t);
  }

  // ConvTranspose: weight [C, out / groups, kh, kw]; symmetric pads and no output_shape.
  void conv_transpose(const onnx::NodeProto& n, int index) {
    const Tensor& x = activation(n, 0);
    const Tensor& w = constant(n, 1);
    batch_first(n, x);
    if (w.shape.size() != 4 || x.shape.size() != 3) fail(n, "ridge models 2-D transposed convolutions only");
    if (attr(n, "output_shape")) fail(n, "output_shape is not modelled", "give pads and output_padding instead");
    const onnx::AttributeProto* ap = attr(n, "auto_pad");
    if (ap && ap->s() != "NOTSET" && ap->s() != "VALID") fail(n, "auto_pad " + ap->s() + " is not modelled");
    std::vector<int64_t> pads = attr_ints(n, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
    if (pads.size() != 4 || pads[0] != pads[2] || pads[1] != pads[3])
      fail(n, "pads " + value_list(pads) + " are not the same on both sides");
    int64_t groups = attr_int(n, "group", 1);
    toml::table a;
    a.insert("out_channels", checked_mul(w.shape[1], groups));
    a.insert("kernel", to_array(attr_ints(n, "kernel_shape").value_or(std::vector<int64_t>{w.shape[2], w.shape[3]})));
    a.insert("stride", to_array(attr_ints(n, "strides").value_or(std::vector<int64_t>{1, 1})));
    a.insert("padding", to_array({pads[0], pads[1]}));
    a.insert("output_padding", to_array(attr_ints(n, "output_padding").value_or(std::vector<int64_t>{0, 0})));
    a.insert("dilation", to_array(attr_ints(n, "dilations").value_or(std::vector<int64_t>{1, 1})));
    a.insert("groups", groups);
    a.insert("bias", has_input(n, 2));
    Tensor xin = x;
    layer(n, index, "conv_transpose2d", {&xin}, std::move(a));
  }

  // Resize (opset 11+: X, roi, scales, sizes; Upsample and opset 10: X, scales) of
  // [N, C, H, W] by constant scales or sizes; nearest or (bi)linear.
  void resize(const onnx::NodeProto& n, int index) {
    const Tensor& x = activation(n, 0);
    batch_first(n, x);
    if (x.shape.size() != 3) fail(n, "ridge models the resizing of [N, C, H, W] only");
    int scales_at = n.input_size() <= 2 ? 1 : 2;
    Shape full = full_shape(x);
    std::vector<int64_t> size;
    if (has_input(n, 3)) {
      size = values(n, 3);
    } else if (has_input(n, scales_at) && constant(n, scales_at).reals && constant(n, scales_at).reals->size() == 4) {
      const std::vector<double>& f = *constant(n, scales_at).reals;
      for (size_t i = 0; i < 4; ++i) {
        double s = std::floor(static_cast<double>(full[i]) * f[i]);
        if (!(s >= 1 && s <= static_cast<double>(kMaxResized))) {  // (also nan and inf)
          std::ostringstream scale;  // as the float it was (6 digits)
          scale << f[i];
          fail(n, "scale " + scale.str() + " of axis " + std::to_string(i) + " gives no size from 1 to 2^40",
               "a Resize scales each axis by a positive factor");
        }
        size.push_back(static_cast<int64_t>(s));
      }
    } else {
      fail(n, "needs constant scales or sizes");
    }
    if (size.size() != 4 || size[0] != 1 || size[1] != full[1])
      fail(n, "resizes more than H and W (to " + shape_list(size) + ")");
    const onnx::AttributeProto* m = attr(n, "mode");
    std::string mode = m ? m->s() : "nearest";
    if (mode != "nearest" && mode != "linear") fail(n, "mode " + mode + " is not modelled (nearest and linear are)");
    toml::table a;
    a.insert("size", to_array({size[2], size[3]}));
    a.insert("mode", mode);
    Tensor xin = x;
    layer(n, index, "resize", {&xin}, std::move(a));
  }

  // Einsum of two operands as the product it is: batch letters (in both operands and the
  // output, leading and in the same order), then one row letter, one contracted letter
  // and one column letter; the operand's last two axes in either order. An activation by
  // a 2-D constant ("...k,kn->...n" or "...k,nk->...n") is a linear layer.
  void einsum(const onnx::NodeProto& n, int index) {
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
    layer(n, index, "matmul", {&ain, &bin}, std::move(t));
  }

  // Where(condition, X, Y): folded when all are constants; otherwise one operation per
  // output element, as the elementwise op it is: `scale` over the one activation, or
  // `add` of two (a constant mask selecting between a constant and an activation is the
  // masked_fill of attention).
  void where(const onnx::NodeProto& n, int index) {
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
      if (c.values && x.values && y.values && s->size() <= 1) {
        v.emplace();
        for (int64_t i = 0; i < count; ++i) v->push_back(at(c, i) ? at(x, i) : at(y, i));
      }
      return folded(n, *s, v);
    }
    if (acts.size() == 3) fail(n, "a Where of three activations is not modelled");
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

  void conv(const onnx::NodeProto& n, int index) {
    const Tensor& x = activation(n, 0);
    const Tensor& w = constant(n, 1);
    batch_first(n, x);
    if (w.shape.size() != 4 || x.shape.size() != 3) fail(n, "ridge models 2-D convolutions only");
    std::vector<int64_t> k = window_attr(n, "kernel_shape", std::vector<int64_t>{w.shape[2], w.shape[3]});
    std::vector<int64_t> s = window_attr(n, "strides", std::vector<int64_t>{1, 1});
    std::vector<int64_t> d = window_attr(n, "dilations", std::vector<int64_t>{1, 1});
    auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
    ph = checked_add(ph, x.pad.first);
    pw = checked_add(pw, x.pad.second);
    toml::table a;
    a.insert("out_channels", w.shape[0]);
    a.insert("kernel", to_array(k));
    a.insert("stride", to_array(s));
    a.insert("padding", to_array({ph, pw}));
    a.insert("dilation", to_array(d));
    a.insert("groups", attr_int(n, "group", 1));
    a.insert("bias", has_input(n, 2));
    Tensor xin = x;
    xin.pad = {0, 0};
    layer(n, index, "conv2d", {&xin}, std::move(a));
  }

  void pool(const onnx::NodeProto& n, int index, bool is_max) {
    const Tensor& x = activation(n, 0);
    batch_first(n, x);
    if (x.shape.size() != 3) fail(n, "ridge models 2-D pools only");
    std::vector<int64_t> k = window_attr(n, "kernel_shape", std::nullopt);
    std::vector<int64_t> s = window_attr(n, "strides", std::vector<int64_t>{1, 1});
    std::vector<int64_t> d = window_attr(n, "dilations", std::vector<int64_t>{1, 1});
    auto [ph, pw] = pads_2d(n, x.shape, k[0], k[1], s[0], s[1], d[0], d[1]);
    ph = checked_add(ph, x.pad.first);
    pw = checked_add(pw, x.pad.second);
    toml::table a;
    a.insert("kernel", to_array(k));
    a.insert("stride", to_array(s));
    a.insert("padding", to_array({ph, pw}));
    if (is_max) a.insert("dilation", to_array(d));
    a.insert("ceil_mode", attr_int(n, "ceil_mode", 0) != 0);
    Tensor xin = x;
    xin.pad = {0, 0};
    layer(n, index, is_max ? "max_pool2d" : "avg_pool2d", {&xin}, std::move(a));
  }

  // x seen as `out` (the same data, shape and batch placement from place()): passed on
  // when nothing changes per sample, otherwise a reshape layer (a view).
  void view(const onnx::NodeProto& n, int index, const Tensor& x, const Tensor& out) {
    if (out.shape == x.shape && out.at == x.at) return pass_on(n, x);
    toml::table a;
    a.insert("shape", to_array(out.shape));
    Tensor xin = x;
    layer(n, index, "reshape", {&xin}, std::move(a), out.at);
  }
  // x as the ONNX shape `full` at batch 1 (the same element count), its batch found again.
  void view_as(const onnx::NodeProto& n, int index, const Tensor& x, const Shape& full, int64_t prefer = -1) {
    view(n, index, x, placed(x, full, place(n, full, batch_stride(x), prefer)));
  }

  void reshape(const onnx::NodeProto& n, int index) {
    const Tensor& x = tensor(n, 0);
    const std::vector<int64_t> given = values(n, 1);
    std::vector<int64_t> target = given;
    if (!x.activation) {  // a constant reshaped: its shape only (0 copies, -1 takes the rest)
      int64_t known = 1, infer = -1;
      for (size_t i = 0; i < target.size(); ++i) {
        if (target[i] == 0 && i < x.shape.size()) target[i] = x.shape[i];
        if (target[i] == -1) infer = static_cast<int64_t>(i);
        else known = checked_mul(known, target[i]);
      }
      if (infer >= 0 && known > 0) target[infer] = element_count(x.shape) / known;
      return folded(n, target, x.values);
    }
    Shape full = full_shape(x);
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < target.size(); ++i) {
      if (target[i] == 0 && attr_int(n, "allowzero", 0) == 0) {
        if (i >= full.size()) fail(n, "target " + shape_list(given) + " copies a dimension the input lacks");
        target[i] = full[i];
      }
      if (target[i] == -1) infer = static_cast<int64_t>(i);
      else known = checked_mul(known, target[i]);
    }
    int64_t total = element_count(full);
    if (infer >= 0) {
      if (known == 0 || total % known) fail(n, "cannot reshape " + shape_list(full) + " into " + shape_list(given));
      target[infer] = total / known;
    }
    if (element_count(target) != total)
      fail(n, "cannot reshape " + shape_list(full) + " into " + shape_list(given) + " (at batch 1)");
    Tensor xin = x;
    view_as(n, index, xin, target, x.at.merged ? -1 : x.at.batch);
  }

  void translate_node(const onnx::NodeProto& n, int index) {
    const std::string& op = n.op_type();
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
        fail(n, "a Constant ridge cannot read", "ridge reads a Constant's 'value', 'value_int', 'value_ints' or 'value_float'");
      }
      return;
    }
    if (op == "Shape") {
      Shape full = full_shape(tensor(n, 0));
      return folded(n, {static_cast<int64_t>(full.size())}, full);
    }
    if (op == "ConstantOfShape") {  // a small integer fill keeps its values (torch's expand(-1) builds on one)
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
    if (op == "Dropout") return dropout(n, index);
    if (op == "Identity" || op == "Cast") return pass_on(n, tensor(n, 0));
    if (op == "Pad") return pad(n);
    if (elementwise_on_constants(n)) return;
    if (op == "Conv") return conv(n, index);
    if (op == "ConvTranspose") return conv_transpose(n, index);
    if (op == "InstanceNormalization") {
      Tensor x = activation(n, 0);
      batch_first(n, x);
      toml::table a;
      a.insert("eps", static_cast<double>(attr_float(n, "epsilon").value_or(1e-5f)));
      return layer(n, index, "instancenorm", {&x}, std::move(a));
    }
    if (op == "Resize" || op == "Upsample") return resize(n, index);
    if (op == "Einsum") return einsum(n, index);
    if (op == "Where") return where(n, index);
    if (op == "Equal") {  // on shape vectors (torch's expand(-1) exports Where(Equal(shape, -1), ...))
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
      batch_first(n, x);
      return layer(n, index, "batchnorm", {&x});
    }
    if (op == "LayerNormalization") {
      Tensor x = activation(n, 0);
      int64_t axis = attr_int(n, "axis", -1);
      if (axis != -1 && axis != static_cast<int64_t>(full_shape(x).size()) - 1)
        fail(n, "normalises over more than the last axis");
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
      sample_axis(n, attr_int(n, "axis", -1), x);
      return layer(n, index, "softmax", {&x});
    }
    if (op == "MaxPool" || op == "AveragePool") return pool(n, index, op == "MaxPool");
    if (op == "GlobalAveragePool") {
      Tensor x = activation(n, 0);
      batch_first(n, x);
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
    if (op == "Mod" && !tensor(n, 0).activation && !tensor(n, 1).activation) return binary(n, index, "mod");
    if (op == "ReduceMean" || op == "ReduceSum") {
      Tensor x = activation(n, 0);
      std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
      if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
      if (axes.empty()) fail(n, "reduces over every axis, the batch included");
      toml::table a;
      toml::array per_sample;
      Placement at = x.at;
      bool keep = attr_int(n, "keepdims", 1) != 0;
      int64_t full_rank = static_cast<int64_t>(full_shape(x).size());
      for (int64_t ax : axes) {
        per_sample.push_back(sample_axis(n, ax, x));
        if (!keep && (ax < 0 ? ax + full_rank : ax) < x.at.batch) --at.batch;  // axes before the batch's go
      }
      a.insert("axes", std::move(per_sample));
      a.insert("keepdims", keep);
      return layer(n, index, op == "ReduceMean" ? "reduce_mean" : "reduce_sum", {&x}, std::move(a), at);
    }
    if (op == "Flatten") {
      const Tensor& x = activation(n, 0);
      Shape full = full_shape(x);
      int64_t axis = attr_int(n, "axis", 1);
      if (axis < 0) axis += static_cast<int64_t>(full.size());
      if (axis < 0 || axis > static_cast<int64_t>(full.size())) fail(n, "axis " + std::to_string(axis) + " is out of range");
      Tensor xin = x;
      return view_as(n, index, xin, {element_count(full) / inner(full, axis), inner(full, axis)});
    }
    if (op == "Reshape") return reshape(n, index);
    if (op == "Squeeze" || op == "Unsqueeze") {
      const Tensor& x = tensor(n, 0);
      std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
      if (axes.empty() && has_input(n, 1)) axes = values(n, 1);
      if (!x.activation) {  // folded: shape arithmetic
        Shape s = x.shape;
        if (op == "Unsqueeze") {
          for (int64_t a : unsqueezed_axes(n, axes, s.size())) s.insert(s.begin() + std::min<int64_t>(a, s.size()), 1);
        } else {
          Shape kept;
          for (size_t i = 0; i < s.size(); ++i)
            if (s[i] != 1) kept.push_back(s[i]);
          s = kept;
        }
        return folded(n, s, x.values);
      }
      // The ONNX shape at batch 1, each axis tagged with whether it is the batch's own.
      Shape full = full_shape(x);
      std::vector<bool> own(full.size(), false);
      if (!x.at.merged) own[x.at.batch] = true;
      if (op == "Unsqueeze") {
        for (int64_t a : unsqueezed_axes(n, axes, full.size())) {
          size_t at = static_cast<size_t>(std::min<int64_t>(a, full.size()));
          full.insert(full.begin() + at, 1);
          own.insert(own.begin() + at, false);
        }
      } else {
        int64_t rank = static_cast<int64_t>(full.size());
        std::set<int64_t> drop;
        for (int64_t a : axes) drop.insert(a < 0 ? a + rank : a);
        Shape kept;
        std::vector<bool> kept_own;
        for (size_t i = 0; i < full.size(); ++i)
          if (!(axes.empty() ? (full[i] == 1 && !own[i]) : drop.count(static_cast<int64_t>(i)) > 0)) {
            kept.push_back(full[i]);
            kept_own.push_back(own[i]);
          }
        full = kept;
        own = kept_own;
      }
      int64_t prefer = std::find(own.begin(), own.end(), true) - own.begin();
      Tensor xin = x;
      return view_as(n, index, xin, full, prefer);
    }
    if (op == "Transpose") {
      const Tensor& c = tensor(n, 0);
      if (!c.activation) {  // a weight transposed for a MatMul (torch's Linear in training export)
        std::vector<int64_t> perm = permutation(n, c.shape.size());
        Tensor t = c;
        for (size_t i = 0; i < perm.size(); ++i) t.shape[i] = c.shape[perm[i]];
        t.values = rearranged(c, t.shape, [&](std::vector<int64_t>& idx) {
          std::vector<int64_t> src(idx.size());
          for (size_t i = 0; i < perm.size(); ++i) src[perm[i]] = idx[i];
          idx = src;
        });
        tensors_[n.output(0)] = std::move(t);
        return;
      }
      const Tensor& x = activation(n, 0);
      Shape full = full_shape(x);
      std::vector<int64_t> perm = permutation(n, full.size());
      // The batch moves with its axis; per sample the permutation of the other axes (a copy
      // even when only the batch moved, as the ONNX Transpose is).
      Placement at = x.at;
      at.batch = std::find(perm.begin(), perm.end(), x.at.batch) - perm.begin();
      toml::array p;
      for (int64_t v : perm)
        if (x.at.merged) p.push_back(v);
        else if (v != x.at.batch) p.push_back(v > x.at.batch ? v - 1 : v);
      toml::table a;
      a.insert("perm", std::move(p));
      Tensor xin = x;
      return layer(n, index, "transpose", {&xin}, std::move(a), at);
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
      Tensor first;  // the first activation: the others and the output follow its placement
      for (int i = n.input_size(); i-- > 0;)
        if (tensor(n, i).activation) first = tensor(n, i);
      for (int i = 0; i < n.input_size(); ++i) {
        const Tensor& t = tensor(n, i);
        if (t.activation && !(t.at == first.at)) fail(n, "joins activations whose batch lies on different axes");
        ins.push_back(t.activation ? t : as_parameter(n, n.input(i), t, first));
      }
      toml::table a;
      a.insert("axis", sample_axis(n, attr_int(n, "axis", 0), first));
      std::vector<const Tensor*> ptrs;
      for (const Tensor& t : ins) ptrs.push_back(&t);
      return layer(n, index, "concat", ptrs, std::move(a), first.at);
    }
    if (op == "Split") {
      Tensor x = activation(n, 0);
      int64_t axis = sample_axis(n, attr_int(n, "axis", 0), x);
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
        out.at = x.at;
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
      if (!x.activation) {  // a piece of a shape vector (F.pad reverses its pads with step -1)
        const int64_t rank = static_cast<int64_t>(x.shape.size());
        Shape out = x.shape;
        std::vector<int64_t> first(rank, 0), step(rank, 1);
        for (size_t k = 0; k < axes.size() && k < starts.size() && k < ends.size() && k < steps.size(); ++k) {
          int64_t ax = axes[k] < 0 ? axes[k] + rank : axes[k];
          if (ax < 0 || ax >= rank || steps[k] == 0) fail(n, "slices a constant along no axis it has");
          int64_t dim = x.shape[ax], st = starts[k], en = ends[k], sp = steps[k];
          if (st < 0) st += dim;
          if (en < 0) en += dim;
          if (sp > 0) {  // (counted so that no step, however large, overflows)
            st = std::clamp<int64_t>(st, 0, dim);
            en = std::clamp<int64_t>(en, 0, dim);
            out[ax] = en > st ? (en - st - 1) / sp + 1 : 0;
          } else {
            sp = std::max(sp, -std::numeric_limits<int64_t>::max());  // -sp fits; the count is the same
            st = std::clamp<int64_t>(st, 0, dim - 1);
            en = std::clamp<int64_t>(en, -1, dim - 1);
            out[ax] = st > en ? (st - en - 1) / -sp + 1 : 0;
          }
          first[ax] = st;
          step[ax] = sp;
        }
        return folded(n, out, rearranged(x, out, [&](std::vector<int64_t>& idx) {
                        for (int64_t i = 0; i < rank; ++i) idx[i] = first[i] + idx[i] * step[i];
                      }));
      }
      toml::table a;
      toml::array per_sample;
      for (int64_t ax : axes) per_sample.push_back(sample_axis(n, ax, x));
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
        int64_t axis = attr_int(n, "axis", 0);  // data[:axis] + indices + data[axis + 1:]
        if (axis < 0) axis += static_cast<int64_t>(data.shape.size());
        if (axis < 0 || axis >= static_cast<int64_t>(data.shape.size())) fail(n, "gathers along no axis the data has");
        Shape s(data.shape.begin(), data.shape.begin() + axis);
        s.insert(s.end(), idx.shape.begin(), idx.shape.end());
        s.insert(s.end(), data.shape.begin() + axis + 1, data.shape.end());
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
        int64_t axis = attr_int(n, "axis", 0);
        if (axis < 0) axis += static_cast<int64_t>(full_shape(data).size());
        a.insert("axis", sample_axis(n, axis, data));
        a.insert("index", (*idx.values)[0]);
        Placement at = data.at;  // an axis before the batch's goes
        if (axis < at.batch) --at.batch;
        Tensor d = data;
        return layer(n, index, "select", {&d}, std::move(a), at);
      }
      fail(n, "this Gather (of activations by computed indices) is not modelled");
    }
    if (op == "Expand") {
      const Tensor& x = tensor(n, 0);
      std::vector<int64_t> target = values(n, 1);
      if (x.activation) {
        Shape full = full_shape(x);
        std::optional<Shape> s = broadcast_shape(full, target);
        if (s && *s == full) return pass_on(n, x);
        fail(n, "an Expand of an activation is not modelled");
      }
      std::optional<Shape> s = broadcast_shape(x.shape, target);
      if (!s) fail(n, "cannot expand " + shape_list(x.shape) + " to " + shape_list(target));
      if (!x.learned) return folded(n, *s, std::nullopt);
      Tensor like;  // an activation of the target's rank, its batch first
      like.activation = true;
      if (!s->empty()) like.shape.assign(s->begin() + 1, s->end());  // (a scalar target has no batch axis)
      const Tensor p = as_parameter(n, n.input(0), x, like);
      return pass_on(n, p);
    }
    unknown(n, index);
  }

  // Whether a ReduceMean averages over the last axis only, keeping it, of an input with
  // the rank of the activation `like`.
  bool reduces_last_axis(const onnx::NodeProto& n, const std::string& like) {
    auto it = tensors_.find(like);
    if (it == tensors_.end() || !it->second.activation || attr_int(n, "keepdims", 1) == 0) return false;
    std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
    if (axes.empty() && has_input(n, 1)) {
      auto a = tensors_.find(n.input(1));
      if (a == tensors_.end() || !a->second.values) return false;
      axes = *a->second.values;
    }
    int64_t rank = static_cast<int64_t>(it->second.shape.size()) + 1;
    return axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1);
  }

  // A recognised chain (onnx_patterns.hpp) as the one ridge layer it stands for, named
  // after its first node's module.
  void emit_chain(const OnnxChain& c, int index) {
    const onnx::NodeProto& first = model_.graph().node(c.nodes.front());
    Tensor x = activation(first, 0);
    toml::table a;
    std::string op = "gelu";
    if (c.kind == OnnxChain::Kind::layernorm) {
      op = "layernorm";
      a.insert("elementwise_affine", c.gamma);
      if (c.gamma) a.insert("bias", c.beta);
      a.insert("eps", c.eps);
    }
    layer(first, index, op, {&x}, std::move(a));
    tensors_[c.output] = tensors_[first.output(0)];
  }

  // An elementwise op whose inputs are all constants (Swin's attention mask and bias
  // index arithmetic) is folded: its broadcast shape, its values unknown; so is a
  // ScatterND into a constant (the mask filled region by region).
  bool elementwise_on_constants(const onnx::NodeProto& n) {
    static const std::set<std::string> ops = {"Pow", "Sqrt", "Exp", "Log", "Neg", "Abs", "Floor", "Ceil", "Sign",
                                              "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Not", "And",
                                              "Or", "Min", "Max", "Relu", "Sigmoid", "Tanh", "Erf"};
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
    return true;
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
  std::set<std::string> counted_sources_;  // initializers whose elements a computed parameter counted
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
  note_input_file(path);
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
