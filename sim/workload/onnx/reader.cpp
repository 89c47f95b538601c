// ONNX models in (onnx_reader.hpp): the file parsed into libonnx's protobuf classes, the
// opset and node arity checked, and the graph walked in node order. Constant nodes come
// first (a chain recogniser looks ahead at values later nodes make); a recognised chain
// of primitive ops (patterns.hpp) becomes the one layer it stands for; every other node
// goes through the op table (op_table.cpp).
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>

#include "sim/base/checked_math.hpp"
#include "sim/base/input_file.hpp"
#include "sim/workload/onnx/symbolic_params.hpp"

namespace ridge::onnx_import {

toml::table Translator::translate() {
  const onnx::GraphProto& g = model_.graph();
  check_opset();
  for (const onnx::NodeProto& n : g.node()) check_arity(n);
  for (const onnx::TensorProto& t : g.initializer()) {
    constants_from(t, true);
    initializer_types_[t.name()] = t.data_type();
  }
  read_parameter_inputs();
  for (const onnx::TensorProto& t : parameter_inputs_) initializer_types_[t.name()] = t.data_type();
  // Constants first: a chain recogniser looks ahead at values made by later nodes, and
  // read_input at those the input meets.
  for (int i = 0; i < g.node_size(); ++i)
    if (g.node(i).op_type() == "Constant") translate_node(g.node(i), i);
  read_input();
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
  if (options_.proposals && !rpn_nms_)
    fail("--set onnx.proposals: the graph has no region proposal network (a NonMaxSuppression of module 'rpn' or on its boxes)",
         "onnx.proposals is for two-stage detectors such as torchvision's Faster R-CNN");
  toml::table root;
  root.insert("name", std::filesystem::path(file_).stem().string());
  std::string producer = model_.producer_name();
  if (!model_.producer_version().empty()) producer += " " + model_.producer_version();
  root.insert("source", "ONNX file " + file_ + (producer.empty() ? "" : ", exported by " + producer));
  if (toml::array n = notes(); !n.empty()) root.insert("notes", std::move(n));
  const char* dtype = weight_dtype();
  if (dtype) root.insert("dtype", dtype);
  mark_weight_dtypes(dtype);
  toml::table input;
  input.insert("shape", to_array(input_shape_));
  root.insert("input", std::move(input));
  if (layers_.empty())
    fail("the graph has no node ridge can model",
         "its nodes only pass their input on (Identity, Cast) or compute constants");
  root.insert("layer", std::move(layers_));
  return root;
}

// What the report's header says about how the graph was made (Model::notes).
toml::array Translator::notes() const {
  toml::array notes;
  if (unbatched_)
    notes.push_back("the ONNX input has no batch axis: a sample is one " + shape_list(input_shape_) +
                    " input, --batch N counts N of them");
  if (!stacked_inputs_.empty()) notes.push_back(stacked_inputs_);
  if (!parameter_inputs_.empty())
    notes.push_back(std::to_string(parameter_inputs_.size()) +
                    " graph input(s) without values read as parameters (an export with export_params=False): '" +
                    parameter_inputs_.front().name() + (parameter_inputs_.size() > 1 ? "', ..." : "'") +
                    ": each is read only where a weight goes");
  if (fixed_batch_ > 0)
    notes.push_back("the graph's shapes hold the batch of " + std::to_string(fixed_batch_) +
                    " it was exported at, which no other batch fits: a sample is the whole " + shape_list(input_shape_) +
                    " input (" + std::to_string(fixed_batch_) + " of the module's), --batch N counts N of them; export "
                    "with dynamic_axes on the batch to count one");
  if (folded_.convs > 0)
    notes.push_back(std::to_string(folded_.convs) + " conv(s) carry a BatchNorm folded in by an eval-mode export (" +
                    std::to_string(folded_.channels) + " biases stand for its " + std::to_string(checked_mul(2, folded_.channels)) +
                    " gamma and beta): " + std::to_string(folded_.channels) +
                    " parameters fewer than the PyTorch module (as many more where it was a FrozenBatchNorm2d, whose "
                    "statistics are buffers, as in torchvision's detection backbones); export in training mode to count "
                    "the module");
  if (position_biases_.adds > 0) notes.push_back(position_bias_note());
  if (!assumptions_.empty()) {
    std::string sizes;
    for (const std::string& a : assumptions_) sizes += (sizes.empty() ? "" : ", ") + a;
    notes.push_back(std::string(kSymbolicSizesNote) + sizes);
  }
  for (const std::string& b : bounds_) notes.push_back(b);
  if (!nms_kept_.empty()) {
    std::string kept;
    for (const std::string& k : nms_kept_) kept += (kept.empty() ? "" : "; ") + k;
    notes.push_back("non-maximum suppression keeps a number of boxes that depends on the data, assumed: " + kept +
                    " (--set onnx.max_detections=N assumes N" +
                    (rpn_nms_ ? "; the RPN's proposals: --set onnx.proposals=N)" : ")"));
  }
  if (!loops_.empty()) notes.push_back(loop_note());
  if (!quantized_.weights.empty() && !quantized_.activations)
    notes.push_back(std::to_string(quantized_.weights.size()) +
                    " weight tensor(s) are stored quantized (DequantizeLinear) but the activations are not: their layers' "
                    "weights count as int8 (weight_dtype), the math and the activations are in floating point, at --dtype");
  return notes;
}

// The ridge dtype of each ONNX element type weights are stored in (nullptr: fp32, ridge's default).
const std::map<int, const char*> kFileTypes = {{onnx::TensorProto::FLOAT, nullptr},
                                               {onnx::TensorProto::FLOAT16, "fp16"},
                                               {onnx::TensorProto::BFLOAT16, "bf16"},
                                               {onnx::TensorProto::DOUBLE, "fp64"},
                                               {onnx::TensorProto::INT8, "int8"}};

// The file's weight type: the type most initializer elements are stored in, when it is
// not fp32 (ridge's default): an fp16 or bf16 export is analysed at its own type unless
// --dtype says otherwise. A quantized graph's weights (quantized_ops.cpp) count as int8
// whatever their initializers hold, and the file is int8 when its activations are
// quantized too (weights alone leave the math in floating point: notes() says so).
const char* Translator::weight_dtype() const {
  std::map<int, int64_t> elements;  // ONNX data type -> initializer elements
  auto add = [&](const onnx::TensorProto& t) {
    int64_t count = 1;
    for (int64_t d : t.dims()) count = checked_mul(count, std::max<int64_t>(d, 0));
    const int type = quantized_.weights.count(t.name()) ? onnx::TensorProto::INT8 : t.data_type();
    elements[type] = checked_add(elements[type], count);
  };
  for (const onnx::TensorProto& t : model_.graph().initializer()) add(t);
  for (const onnx::TensorProto& t : parameter_inputs_) add(t);
  const char* dtype = nullptr;
  int64_t most = 0;
  for (const auto& [type, elems] : elements)
    if (elems > most && kFileTypes.count(type) && (type != onnx::TensorProto::INT8 || quantized_.activations)) {
      most = elems;
      dtype = kFileTypes.at(type);
    }
  return dtype;
}

// Each layer whose weights are stored in another type than the file's (`file_dtype`;
// nullptr: fp32) says so: weight_dtype = "int8" on a quantized conv of a float graph,
// "fp32" on the unquantized head of an int8 one.
void Translator::mark_weight_dtypes(const char* file_dtype) {
  const std::string file_type = file_dtype ? file_dtype : "fp32";
  for (toml::node& node : layers_) {
    toml::table& layer = *node.as_table();
    auto it = weight_types_.find(layer["name"].value_or(std::string()));
    if (it == weight_types_.end() || !kFileTypes.count(it->second.type)) continue;
    const char* own = kFileTypes.at(it->second.type);
    if ((own ? own : "fp32") != file_type) layer.insert("weight_dtype", own ? own : "fp32");
  }
}

// Every node has an output, and the ops the chain recognisers read have their inputs
// (they index them before any node is translated).
void Translator::check_arity(const onnx::NodeProto& n) const {
  static const std::set<std::string> binary = {"Add", "Sub", "Mul", "Div", "Pow", "MatMul"};
  static const std::set<std::string> unary = {"ReduceMean", "Sqrt", "Erf", "Tanh", "Sigmoid", "Relu", "Softmax"};
  int needed = binary.count(n.op_type()) ? 2 : unary.count(n.op_type()) ? 1 : 0;
  if (n.output_size() == 0 || n.output(0).empty()) fail(n, "the node has no output");
  if (n.input_size() < needed) fail(n, "has " + std::to_string(n.input_size()) + " inputs, ONNX requires " + std::to_string(needed));
}

void Translator::check_opset() {
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

// Whether a ReduceMean averages over the last axis only, keeping it, of an input with
// the rank of the activation `like`.
bool Translator::reduces_last_axis(const onnx::NodeProto& n, const std::string& like) {
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

// A recognised chain (patterns.hpp) as the one ridge layer it stands for, named
// after its first node's module.
void Translator::emit_chain(const OnnxChain& c, int index) {
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

}  // namespace ridge::onnx_import

namespace ridge {

namespace onnx_import {

[[noreturn]] void throw_unreadable(const std::string& file) {
  throw InputError({file}, "is not a readable ONNX model (truncated, or not ONNX)",
                   "export it again, e.g. torch.onnx.export(model, x, \"model.onnx\")");
}

toml::table translate_model(const OnnxFile& onnx, const std::string& file, const OnnxOptions& options) {
  const onnx::ModelProto& model = onnx.model;
  if (!model.has_graph() || model.graph().node_size() == 0)
    throw InputError({file}, "is not an ONNX model: it holds no graph nodes");
  auto translated = [&](bool fixed_batch_is_sample) {
    try {
      return Translator(model, file, options, fixed_batch_is_sample, &onnx.raw).translate();
    } catch (const CountOverflow&) {
      throw InputError({file}, "a tensor's element count overflows 64 bits", "check the graph's shapes");
    }
  };
  try {
    return translated(false);
  } catch (const InputError&) {
    const std::exception_ptr first = std::current_exception();
    // A graph exported at a fixed batch B > 1 may hold B in its shapes (the Reshape
    // targets of nn.MultiheadAttention, [S, B x heads, d]), which no other batch fits:
    // read again with the whole input as one sample (notes() says so). Where that fails
    // too, the first reading's error is the one to report.
    try {
      return translated(true);
    } catch (const InputError&) {
      std::rethrow_exception(first);
    }
  }
}

}  // namespace onnx_import

bool is_onnx_path(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

void set_onnx_option(OnnxOptions& options, const std::string& file, const std::string& key, const std::string& value) {
  // Each setting: its key, what its positive integer counts, where it goes.
  struct Setting {
    const char* key;
    const char* counts;
    std::optional<int64_t> OnnxOptions::*field;
  };
  static const Setting settings[] = {{"onnx.max_detections", "the boxes kept", &OnnxOptions::max_detections},
                                     {"onnx.proposals", "the proposals per image", &OnnxOptions::proposals}};
  for (const Setting& s : settings) {
    if (key != s.key) continue;
    const bool ok = !value.empty() && value.size() < 18 &&
                    value.find_first_not_of("0123456789") == std::string::npos && std::stoll(value) > 0;
    if (!ok) throw InputError({file}, "--set " + key + "=" + value + ": " + s.counts + " must be a positive integer");
    options.*s.field = std::stoll(value);
    return;
  }
  throw InputError({file}, "--set " + key + ": unknown ONNX setting",
                   "the ONNX settings: onnx.max_detections, onnx.proposals");
}

toml::table onnx_model_table(const std::string& path, const OnnxOptions& options) {
  return onnx_import::translate_model(onnx_import::read_onnx_in_place(path), path, options);
}

toml::table onnx_model_table_from_bytes(const std::string& bytes, const std::string& file, const OnnxOptions& options) {
  onnx_import::OnnxFile onnx;  // (the fuzz target's path through the scan, too)
  if (!onnx_import::parse_in_place(bytes, onnx) && !onnx.model.ParseFromString(bytes)) onnx_import::throw_unreadable(file);
  return onnx_import::translate_model(onnx, file, options);
}

}  // namespace ridge
