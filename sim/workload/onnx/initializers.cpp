// The tensors read from the file itself: the initializers (learned weights and the
// exporter's constants), Constant nodes, and the graph's input, whose first dimension
// is the batch and whose symbolic dimensions ('height') take their sizes from --set
// model.height=N (several inputs of one shape, RAFT's two frames, stacked as one sample). A small integer or floating-point constant keeps its values, which the
// shape arithmetic and the ops reading constant arguments (Reshape, Clip, Pad) need.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Bytes per element of an ONNX tensor type; 0 for a string (no fixed size) or a type
// this reader does not know.
size_t element_bytes(int type) {
  switch (type) {
    case onnx::TensorProto::BOOL: case onnx::TensorProto::INT8: case onnx::TensorProto::UINT8: return 1;
    case onnx::TensorProto::FLOAT16: case onnx::TensorProto::BFLOAT16: case onnx::TensorProto::INT16:
    case onnx::TensorProto::UINT16: return 2;
    case onnx::TensorProto::FLOAT: case onnx::TensorProto::INT32: case onnx::TensorProto::UINT32: return 4;
    case onnx::TensorProto::DOUBLE: case onnx::TensorProto::INT64: case onnx::TensorProto::UINT64:
    case onnx::TensorProto::COMPLEX64: return 8;
    case onnx::TensorProto::COMPLEX128: return 16;
    default: return 0;
  }
}

// The number of values a tensor's data holds (raw bytes over the element size, or the
// typed field's length), or nothing when it carries none (a shape-only initializer, or
// data stored in an external file).
std::optional<int64_t> values_held(const onnx::TensorProto& t, std::string_view raw) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL) return std::nullopt;
  if (!raw.empty()) {
    size_t bytes = element_bytes(t.data_type());
    if (bytes == 0) return std::nullopt;
    return static_cast<int64_t>(raw.size() / bytes);
  }
  int64_t typed = std::max({t.float_data_size(), t.int32_data_size(), t.int64_data_size(), t.double_data_size(),
                            t.uint64_data_size()});
  if (t.data_type() == onnx::TensorProto::COMPLEX64 || t.data_type() == onnx::TensorProto::COMPLEX128) typed /= 2;
  if (typed == 0) return std::nullopt;
  return typed;
}

// IEEE 754 binary16 and bfloat16 bit patterns as doubles.
double half_to_double(uint16_t b) {
  const int exponent = (b >> 10) & 0x1f;
  const double mantissa = b & 0x3ff;
  const double sign = (b & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);  // zero and subnormals
  if (exponent == 31) return mantissa == 0 ? sign * HUGE_VAL : std::nan("");
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

double bfloat16_to_double(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

// A tensor's raw data: its own, or where the file's mapping kept it (weights_in_place.hpp).
std::string_view Translator::raw_data(const onnx::TensorProto& t) const {
  if (!t.raw_data().empty() || !raw_) return t.raw_data();
  auto it = raw_->find(t.name());
  return it == raw_->end() ? std::string_view{} : it->second;
}

void Translator::constants_from(const onnx::TensorProto& t, bool learned) {
  Tensor c;
  for (int64_t d : t.dims()) c.shape.push_back(d);
  c.learned = learned;
  int64_t count = 1;
  for (int64_t d : c.shape) count = checked_mul(count, d);
  std::optional<int64_t> held = values_held(t, raw_data(t));
  if (count > kMaxTensorElements)
    fail("tensor '" + t.name() + "' of shape " + shape_list(c.shape) + " has " + std::to_string(count) +
             " elements, more than the limit of 2^37", "a weight that large is no real model's: is the file corrupt?");
  if (held && *held < count)
    fail("tensor '" + t.name() + "' of shape " + shape_list(c.shape) + " holds " + std::to_string(*held) +
             " values, fewer than its shape's " + std::to_string(count),
         "the file is truncated or was written wrongly: export it again");
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
    } else if (t.data_type() == onnx::TensorProto::DOUBLE) {
      if (t.double_data_size()) reals.assign(t.double_data().begin(), t.double_data().end());
      else if (t.raw_data().size() == static_cast<size_t>(count) * 8) {
        reals.resize(count);
        std::memcpy(reals.data(), t.raw_data().data(), t.raw_data().size());
      }
    } else if (t.data_type() == onnx::TensorProto::FLOAT16 || t.data_type() == onnx::TensorProto::BFLOAT16) {
      // An fp16 / bf16 file's constants (a Pow's exponent 2, a LayerNorm chain's eps):
      // 16-bit patterns, in raw data or one per int32_data element.
      std::vector<uint16_t> bits;
      if (t.int32_data_size())
        for (int32_t b : t.int32_data()) bits.push_back(static_cast<uint16_t>(b));
      else if (t.raw_data().size() == static_cast<size_t>(count) * 2) {
        bits.resize(count);
        std::memcpy(bits.data(), t.raw_data().data(), t.raw_data().size());
      }
      for (uint16_t b : bits)
        reals.push_back(t.data_type() == onnx::TensorProto::FLOAT16 ? half_to_double(b) : bfloat16_to_double(b));
    }
  }
  const bool integer = t.data_type() == onnx::TensorProto::INT64 || t.data_type() == onnx::TensorProto::INT32;
  if (count == 0 && integer) c.values.emplace();  // an empty shape vector (ConstantOfShape of a scalar)
  if (!ints.empty() && static_cast<int64_t>(ints.size()) == count) {
    c.values = ints;
    for (int64_t v : ints) reals.push_back(static_cast<double>(v));
  }
  if (count == 1 && reals.size() == 1) c.scalar = reals[0];
  if (!reals.empty() && static_cast<int64_t>(reals.size()) == count) c.reals = reals;
  tensors_[t.name()] = std::move(c);
}

// Graph inputs that are parameters without values: torch.onnx.export(...,
// export_params=False) writes each parameter as a graph input after the model's own, with
// no initializer. Past the first input, one whose shape is fixed and whose every reader
// reads it where a weight goes (a Conv's or Gemm's weight or bias, a MatMul's second
// operand, a normalization's scale, bias or statistics, PRelu's slope, an embedding
// table, a recurrent node's W, R, B) or as an operand of elementwise arithmetic, Expand
// or Concat (a position embedding added, a class token expanded) becomes a shape-only
// initializer; notes() names how many. A second input read otherwise, or one of the
// first's shape and type (RAFT's second frame, read by a Concat), is data.
void Translator::read_parameter_inputs() {
  const onnx::GraphProto& g = model_.graph();
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  static const std::map<std::string, std::set<int>> weight_slots = {
      {"Conv", {1, 2}}, {"ConvTranspose", {1, 2}}, {"Gemm", {1, 2}}, {"MatMul", {1}},
      {"BatchNormalization", {1, 2, 3, 4}}, {"LayerNormalization", {1, 2}}, {"InstanceNormalization", {1, 2}},
      {"GroupNormalization", {1, 2}}, {"PRelu", {1}}, {"Gather", {0}}, {"LSTM", {1, 2, 3}}, {"GRU", {1, 2, 3}},
      {"RNN", {1, 2, 3}}, {"Add", {0, 1}}, {"Sub", {0, 1}}, {"Mul", {0, 1}}, {"Div", {0, 1}}, {"Expand", {0}}};
  const onnx::ValueInfoProto* own = nullptr;
  for (const onnx::ValueInfoProto& v : g.input()) {
    if (initializers.count(v.name())) continue;
    if (!own) {  // the model's own input
      own = &v;
      continue;
    }
    if (!v.type().has_tensor_type() || like_first_input(v, *own)) continue;  // (data: read_input stacks it)
    onnx::TensorProto t;
    t.set_name(v.name());
    t.set_data_type(v.type().tensor_type().elem_type());
    bool weight = v.type().tensor_type().has_shape(), read = false;  // a fixed shape, read as a weight only
    for (const auto& d : v.type().tensor_type().shape().dim()) {
      weight = weight && d.has_dim_value() && d.dim_value() >= 0;
      t.add_dims(d.dim_value());
    }
    for (const onnx::NodeProto& n : g.node())
      for (int i = 0; i < n.input_size(); ++i) {
        if (n.input(i) != v.name()) continue;
        read = true;
        auto slots = weight_slots.find(n.op_type());
        weight = weight && (n.op_type() == "Concat" || (slots != weight_slots.end() && slots->second.count(i)));
      }
    if (weight && read) parameter_inputs_.push_back(std::move(t));
  }
  for (const onnx::TensorProto& t : parameter_inputs_) constants_from(t, true);
}

// A graph input of the same element type and the same fixed shape as the first (RAFT's
// second frame): data, not a parameter; read_input stacks the two into one sample.
bool Translator::like_first_input(const onnx::ValueInfoProto& v, const onnx::ValueInfoProto& first) {
  const auto& a = v.type().tensor_type();
  const auto& b = first.type().tensor_type();
  if (a.elem_type() != b.elem_type() || !a.has_shape() || !b.has_shape() || a.shape().dim_size() != b.shape().dim_size())
    return false;
  for (int i = 0; i < a.shape().dim_size(); ++i) {
    const auto &x = a.shape().dim(i), &y = b.shape().dim(i);
    if (x.has_dim_value() != y.has_dim_value() || x.dim_value() != y.dim_value() || x.dim_param() != y.dim_param())
      return false;
  }
  return true;
}

void Translator::read_input() {
  const onnx::GraphProto& g = model_.graph();
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  for (const onnx::TensorProto& t : parameter_inputs_) initializers.insert(t.name());
  const onnx::ValueInfoProto* input = nullptr;
  std::vector<const onnx::ValueInfoProto*> stacked;  // inputs after the first, like it
  for (const onnx::ValueInfoProto& v : g.input()) {
    if (initializers.count(v.name())) continue;
    if (input && !like_first_input(v, *input))
      fail("the graph has more than one input ('" + input->name() + "', '" + v.name() + "')",
           "ridge models take one input tensor, or several of one shape and type (stacked as one sample)");
    if (input) stacked.push_back(&v);
    else input = &v;
  }
  if (!input) fail("the graph has no input");
  Shape full;
  for (const auto& [name, shape] : options_.inputs) {
    if (name != input->name())
      fail("--input names '" + name + "', but the graph's input is '" + input->name() + "'",
           "--input " + input->name() + "=SHAPE");
    full = shape;
  }
  // The batch is the first axis, but of an input [T, N, I] that a recurrent node reads
  // sequence first (LSTM, GRU, RNN of layout 0: torch's nn.LSTM without batch_first).
  const int batch_axis = read_sequence_first(input->name()) ? 1 : 0;
  const auto& dims = input->type().tensor_type().shape().dim();
  std::vector<std::string> symbolic;  // the input's dim_params
  for (const auto& d : dims)
    if (!d.has_dim_value() && !d.dim_param().empty()) symbolic.push_back(d.dim_param());
  std::map<std::string, int64_t> set;  // --set model.NAME=VALUE
  for (const auto& [name, value] : options_.dims) {
    if (std::find(symbolic.begin(), symbolic.end(), name) == symbolic.end())
      fail("--set model." + name + ": the graph input '" + input->name() + "' has no symbolic dimension '" + name + "'",
           symbolic.empty() ? "its dimensions are all fixed" : "its symbolic dimensions: " + joined(symbolic));
    bool ok = !value.empty() && value.size() < 18 && value.find_first_not_of("0123456789") == std::string::npos &&
              std::stoll(value) > 0;
    if (!ok) fail("--set model." + name + "=" + value + ": a dimension's size must be a positive integer");
    set[name] = std::stoll(value);
  }
  if (full.empty()) {
    for (int i = 0; i < dims.size(); ++i) {
      auto given = set.find(dims[i].dim_param());
      if (dims[i].has_dim_value() && dims[i].dim_value() > 0) full.push_back(dims[i].dim_value());
      else if (given != set.end()) {
        full.push_back(given->second);
        assumptions_.push_back(given->first + " = " + std::to_string(given->second));
      } else if (i == batch_axis) full.push_back(1);  // the batch: --batch gives it
      else
        fail("input '" + input->name() + "': dimension " + std::to_string(i) + " ('" + dims[i].dim_param() +
                 "') is symbolic and has no value",
             (dims[i].dim_param().empty() ? "" : "--set model." + dims[i].dim_param() + "=N sizes it, or ") +
                 std::string("give the input's shape: --input ") + input->name() + "=1x3x224x224");
    }
  }
  Tensor t;
  t.activation = true;
  t.layer = "@input";
  // (Without a batch above 1 the retry reads as the first reading did, and fails alike.)
  if (fixed_batch_is_sample_ && batch_axis == 0 && full.size() >= 2 && full[0] > 1) fixed_batch_ = full[0];
  if (fixed_batch_ > 0 || unbatched(input->name(), full)) {
    // One sample is the whole input; the batch is the outer factor of its first axis.
    unbatched_ = fixed_batch_ == 0;
    input_shape_ = full;
    t.at = {0, true, full[0]};
  } else {
    if (full.size() < 2) fail("input '" + input->name() + "' has no dimension besides the batch");
    input_shape_ = full;
    input_shape_.erase(input_shape_.begin() + batch_axis);
    t.at.batch = batch_axis;
  }
  t.shape = input_shape_;
  tensors_[input->name()] = t;
  if (!stacked.empty()) stack_inputs(*input, stacked);
}

// Graph inputs of one shape, [N, *S] (RAFT's two frames): a sample is the k of them
// stacked, [k, *S] (the input's batch merged into its first axis, k items per sample),
// and each graph input a `select` of its item (a view).
void Translator::stack_inputs(const onnx::ValueInfoProto& first, const std::vector<const onnx::ValueInfoProto*>& more) {
  Tensor item = tensors_.at(first.name());
  if (item.at.merged || item.at.batch != 0)
    fail("the graph has " + std::to_string(more.size() + 1) + " inputs of one shape, but '" + first.name() +
             "' has no batch axis first, which ridge needs to stack them",
         "export the inputs with their batch first");
  std::vector<const onnx::ValueInfoProto*> all{&first};
  all.insert(all.end(), more.begin(), more.end());
  const auto k = static_cast<int64_t>(all.size());
  input_shape_.insert(input_shape_.begin(), k);
  Tensor whole = item;
  whole.shape = input_shape_;
  whole.at = {0, true, k};
  std::string names;
  for (int64_t i = 0; i < k; ++i) {
    names += (names.empty() ? "'" : ", '") + all[static_cast<size_t>(i)]->name() + "'";
    onnx::NodeProto n;  // (a node for the layer's name and its messages)
    n.set_name(all[static_cast<size_t>(i)]->name());
    n.set_op_type("input");
    toml::table a;
    a.insert("axis", 0);
    a.insert("index", i);
    const std::string name = fresh_name(all[static_cast<size_t>(i)]->name());
    emit(n, name, "select", {"@input"}, {whole.shape}, std::move(a));
    item.layer = name;
    tensors_[n.name()] = item;
  }
  stacked_inputs_ = "the graph has " + std::to_string(k) + " inputs of one shape (" + names + "): a sample is the " +
                    std::to_string(k) + " stacked, " + shape_list(input_shape_) + ", each input a select of it (a view)";
}

// Whether a recurrent node of layout 0 (sequence first, [T, N, I]) reads the input, or
// what an embedding makes of it: the token ids [T, N] of a language model whose LSTM is
// not batch_first, gathered into [T, N, E] (a Gather of an initializer by the ids; a
// Cast, Identity or Dropout on the way keeps the axes).
bool Translator::read_sequence_first(const std::string& input) const {
  std::vector<std::string> reach{input};  // the input, and what keeps its first two axes
  for (const onnx::NodeProto& n : model_.graph().node()) {
    if (n.input_size() == 0 || n.output_size() == 0) continue;
    const std::string& op = n.op_type();
    auto reads = [&](int i) {
      return n.input_size() > i && std::find(reach.begin(), reach.end(), n.input(i)) != reach.end();
    };
    if ((op == "LSTM" || op == "GRU" || op == "RNN") && reads(0) && attr_int(n, "layout", 0) == 0) return true;
    auto data = tensors_.find(n.input(0));
    const bool embedding = op == "Gather" && reads(1) && attr_int(n, "axis", 0) == 0 && data != tensors_.end() &&
                           data->second.learned && data->second.shape.size() == 2;
    if (embedding || ((op == "Cast" || op == "Identity" || op == "Dropout") && reads(0))) reach.push_back(n.output(0));
  }
  return false;
}

// An input without a batch axis: one image [3, H, W], as torchvision's detection models
// take it, rather than a batch of 3 [H, W] samples. Its first axis is fixed and larger
// than 1, and a node reading it shows the axis is the sample's own: an Unsqueeze that
// puts a new axis 0 in front of it (to make the batch of one a Conv needs), or an
// elementwise op with a constant that varies along it (the per-channel mean and std).
bool Translator::unbatched(const std::string& input, const Shape& full) const {
  if (full.size() < 2 || full[0] <= 1) return false;
  auto constant_along_first = [&](const std::string& name) {
    auto it = tensors_.find(name);
    return it != tensors_.end() && !it->second.activation && it->second.shape.size() == full.size() &&
           it->second.shape[0] == full[0];
  };
  for (const onnx::NodeProto& n : model_.graph().node()) {
    if (n.input_size() == 0 || n.input(0) != input) continue;
    const std::string& op = n.op_type();
    if (op == "Unsqueeze") {
      std::vector<int64_t> axes = attr_ints(n, "axes").value_or(std::vector<int64_t>{});
      auto it = n.input_size() > 1 ? tensors_.find(n.input(1)) : tensors_.end();
      if (axes.empty() && it != tensors_.end() && it->second.values) axes = *it->second.values;
      if (std::find(axes.begin(), axes.end(), 0) != axes.end()) return true;
    }
    if ((op == "Sub" || op == "Add" || op == "Mul" || op == "Div") && n.input_size() == 2 &&
        constant_along_first(n.input(1)))
      return true;
  }
  return false;
}

void Translator::constant_node(const onnx::NodeProto& n, int) {
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

}  // namespace ridge::onnx_import
