// Emitting ridge layers: a readable unique name from the node's module scope, the
// layer's table evaluated by its op at once (so the next node sees ridge's own shapes),
// learned constants as `parameter` layers, and the zero-cost stand-in for an op ridge does
// not model (--allow-unknown).
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <sstream>

#include "sim/base/checked_math.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/workload/op_registry.hpp"
#include "sim/workload/stacked_layer.hpp"

namespace ridge::onnx_import {

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

std::string Translator::unique_name(const onnx::NodeProto& n, int index) {
  std::string base = module_name(n.name());
  if (base.empty()) base = n.op_type() + "_" + std::to_string(index);
  std::replace(base.begin(), base.end(), '@', '_');
  std::string name = base;
  if (used_.count(name)) name = base + "." + n.op_type();
  for (int k = 2; used_.count(name); ++k) name = base + "." + n.op_type() + "_" + std::to_string(k);
  used_.insert(name);
  return name;
}

// `base`, or base_2, base_3, ... when a layer already has that name; taken.
std::string Translator::fresh_name(const std::string& base) {
  std::string name = base;
  for (int k = 2; used_.count(name); ++k) name = base + "_" + std::to_string(k);
  used_.insert(name);
  return name;
}

// Emits a ridge layer and evaluates it (so shapes are ridge's own); returns its output shape.
Shape Translator::emit(const onnx::NodeProto& n, const std::string& name, const std::string& op,
                       const std::vector<std::string>& inputs, const std::vector<Shape>& shapes, toml::table attrs) {
  attrs.insert("name", name);
  attrs.insert("op", op);
  if (trips_ > 1 && op != "parameter") attrs.insert("trips", trips_);  // a Loop's body: once per trip
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
    r = evaluate_layer(*info, f, shapes);
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
void Translator::layer(const onnx::NodeProto& n, int index, const std::string& op, const std::vector<const Tensor*>& ins,
                       toml::table attrs, std::optional<Placement> at) {
  std::vector<std::string> names;
  std::vector<Shape> shapes;
  std::string name = unique_name(n, index);
  for (const Tensor* t : ins) {
    names.push_back(t->layer);
    shapes.push_back(t->shape);
    if (t->pad.empty()) continue;
    // A zero Pad that this op does not fold in: a `pad` layer (a copy) before it.
    toml::table a;
    a.insert("pads", to_array(t->pad));
    names.back() = fresh_name(name + ".pad");
    shapes.back() = emit(n, names.back(), "pad", {t->layer}, {t->shape}, std::move(a));
  }
  Tensor out;
  out.activation = true;
  out.layer = name;
  out.at = at.value_or(ins.empty() ? Placement{} : ins[0]->at);
  out.shape = emit(n, name, op, names, shapes, std::move(attrs));
  // A merged axis wholly inside one batch index (the boxes of a one-image graph, [B, 4])
  // stays so when the layer changes its length (TopK's k, a Concat of per-class boxes).
  const size_t axis = static_cast<size_t>(out.at.batch);
  if (out.at.merged && axis < out.shape.size()) {
    for (const Tensor* t : ins)
      if (t->at == out.at && axis < t->shape.size() && t->shape[axis] == out.at.factor) {
        out.at.factor = out.shape[axis];
        break;
      }
  }
  tensors_[n.output(0)] = std::move(out);
  for (const std::string& in : n.input()) note_weight_type(name, in);
}

// Layer `layer` reads the constant `tensor_name`: when it is (or was computed from) an
// initializer larger than the layer's others, the layer's weights are of its type.
void Translator::note_weight_type(const std::string& layer, const std::string& tensor_name) {
  auto t = tensors_.find(tensor_name);
  if (t == tensors_.end() || t->second.activation) return;
  const std::string origin = t->second.learned ? tensor_name : t->second.source;
  auto stored = initializer_types_.find(origin);
  if (stored == initializer_types_.end()) return;
  WeightType& w = weight_types_[layer];
  const int64_t elements = element_count(tensors_.at(origin).shape);
  if (elements <= w.elements) return;
  w = {elements, quantized_.weights.count(origin) ? onnx::TensorProto::INT8 : stored->second};
}

// A layer with a weight matrix [rows, cols] (out x in) read from input `weight_input`,
// stored [cols, rows] when `cols_first` (a MatMul's [in, out]): a linear whose matrix an
// earlier linear or embedding already has (an output head sharing the token embedding:
// one initializer read by two nodes, or its transpose; or, in an eval-mode export, an
// initializer the exporter computed as the embedding's transpose, `onnx::MatMul_*`,
// holding the same values) is `tied_to` that layer, so the matrix is counted as parameters once.
void Translator::weight_layer(const onnx::NodeProto& n, int index, const std::string& op, const Tensor& x,
                              toml::table attrs, int weight_input, int64_t rows, int64_t cols, bool cols_first) {
  const Tensor& w = tensor(n, weight_input);
  const std::string origin = !w.source.empty() ? w.source : w.learned ? n.input(weight_input) : "";
  auto earlier = origin.empty() ? weight_users_.end() : weight_users_.find(origin);
  if (op == "linear" && earlier == weight_users_.end() && w.learned && w.source.empty() &&
      origin.rfind("onnx::", 0) == 0)
    earlier = same_values(origin, rows, cols, cols_first);
  if (op == "linear" && earlier != weight_users_.end() && earlier->second.rows == rows && earlier->second.cols == cols)
    attrs.insert("tied_to", earlier->second.layer);
  Tensor xin = x;
  layer(n, index, op, {&xin}, std::move(attrs));
  if (!origin.empty() && earlier == weight_users_.end())
    weight_users_.emplace(origin, WeightUse{tensors_.at(n.output(0)).layer, rows, cols, cols_first, op == "embedding"});
}

// The earlier embedding whose table holds the same [rows, cols] matrix as the
// initializer `name` (either stored transposed), compared element by element in the
// file's raw data; none when either has no raw data, or when the matrix holds one value
// throughout (zeros, a shape-only export: equal without being the same weight). Only an
// embedding, and only for an initializer the exporter computed (`onnx::`): two linears
// of an untrained nn.TransformerEncoder are deep copies, equal but not tied.
std::map<std::string, Translator::WeightUse>::iterator Translator::same_values(const std::string& name, int64_t rows,
                                                                                int64_t cols, bool cols_first) {
  auto raw = [&](const std::string& init) -> std::optional<std::string_view> {
    for (const onnx::TensorProto& t : model_.graph().initializer())
      if (t.name() == init) return raw_data(t).empty() ? std::nullopt : std::optional(raw_data(t));
    return std::nullopt;
  };
  const std::optional<std::string_view> mine = raw(name);
  const int64_t count = element_count({rows, cols});
  if (!mine || count <= 1 || mine->size() % static_cast<size_t>(count) != 0) return weight_users_.end();
  const size_t bytes = mine->size() / static_cast<size_t>(count);
  bool varies = false;
  for (size_t e = 1; e < static_cast<size_t>(count) && !varies; ++e)
    varies = mine->compare(e * bytes, bytes, *mine, 0, bytes) != 0;
  if (!varies) return weight_users_.end();
  // Byte offset of element (r, c) of a matrix stored [rows, cols], or [cols, rows].
  auto at = [&](bool transposed, int64_t r, int64_t c) {
    return static_cast<size_t>(transposed ? c * rows + r : r * cols + c) * bytes;
  };
  for (auto it = weight_users_.begin(); it != weight_users_.end(); ++it) {
    const std::optional<std::string_view> theirs =
        it->second.embedding && it->second.rows == rows && it->second.cols == cols ? raw(it->first) : std::nullopt;
    if (!theirs || theirs->size() != mine->size()) continue;
    bool same = true;
    for (int64_t r = 0; r < rows && same; ++r)
      for (int64_t c = 0; c < cols && same; ++c)
        same = mine->compare(at(cols_first, r, c), bytes, *theirs, at(it->second.cols_first, r, c), bytes) == 0;
    if (same) return it;
  }
  return weight_users_.end();
}

// A learned constant used as an activation: a `parameter` layer (once per initializer),
// its shape per sample (a leading 1 of a full-rank tensor is the batch's place).
// `act` is the activation it meets (by broadcasting): the constant's axis aligned with
// act's own batch axis, if it reaches it, must be 1 and is dropped.
const Tensor& Translator::as_parameter(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                                       const Tensor& act) {
  int64_t full_rank = static_cast<int64_t>(full_shape(act).size());
  int64_t at = act.at.merged ? -1 : act.at.batch - (full_rank - static_cast<int64_t>(c.shape.size()));
  return as_parameter_at(n, tensor_name, c, at);
}

// The same, where the op says which axis of the constant meets the batch (none: -1), as
// an Einsum's letters or ScatterND's indices do rather than broadcasting.
const Tensor& Translator::as_parameter_at(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                                          int64_t at) {
  auto it = parameters_.find(tensor_name);
  if (it != parameters_.end()) return it->second;
  Shape s = c.shape;
  if (at >= 0 && at < static_cast<int64_t>(s.size())) {
    if (s[at] != 1) fail(n, "a constant of shape " + shape_list(s) + " varies along the batch axis");
    s.erase(s.begin() + at);
  }
  if (s.empty()) s = {1};
  // Named after the initializer; a computed one after the initializer it came from, or
  // after the module using it.
  std::string base = c.learned ? tensor_name : !c.source.empty() ? c.source : module_name(n.name()) + ".constant";
  std::replace(base.begin(), base.end(), '@', '_');
  const std::string name = fresh_name(base);
  toml::table attrs;
  attrs.insert("shape", to_array(s));
  if (!c.learned) {  // computed: its learned elements are its sources', each counted once
    attrs.insert("learned", learned_elements(c));
    for (const std::string& o : origins(c)) counted_sources_.insert(o);
  }
  Tensor out;
  out.activation = true;
  out.layer = name;
  out.shape = emit(n, name, "parameter", {}, {}, std::move(attrs));
  note_weight_type(name, tensor_name);
  return parameters_[tensor_name] = out;
}

// The initializers a computed constant came from.
std::vector<std::string> Translator::origins(const Tensor& c) {
  std::vector<std::string> out = c.also_from;
  if (!c.source.empty()) out.push_back(c.source);
  return out;
}

// The learned elements a new `parameter` layer of constant `c` counts: an initializer's
// own; a computed constant's are those of the initializers it came from, each the first time.
int64_t Translator::learned_elements(const Tensor& c) const {
  if (c.learned) return element_count(c.shape);
  int64_t learned = 0;
  for (const std::string& o : origins(c))
    if (!counted_sources_.count(o)) learned = checked_add(learned, element_count(tensors_.at(o).shape));
  return learned;
}

void Translator::unknown(const onnx::NodeProto& n, int index) {
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

}  // namespace ridge::onnx_import
