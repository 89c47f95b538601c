// The tensors read from the file itself: the initializers (learned weights and the
// exporter's constants), Constant nodes, and the graph's one input, whose first dimension
// is the batch. A small integer or floating-point constant keeps its values, which the
// shape arithmetic and the ops reading constant arguments (Reshape, Clip, Pad) need.
#include "sim/workload/onnx/translator.hpp"

#include <cstring>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

void Translator::constants_from(const onnx::TensorProto& t, bool learned) {
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

void Translator::read_input() {
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
