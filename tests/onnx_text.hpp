// Small ONNX models written in protobuf text in a test, so that the suite needs neither
// torch nor the onnx Python package: the model around a graph body, its nodes and
// attributes, and the model table or Model ridge reads from it.
#pragma once

#include <sstream>
#include <string>

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "sim/base/error.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"

namespace ridge::onnx_test {

// A model of opset `opset` whose graph has input x of shape `dims` and element type
// `type` (1 float, 7 int64), the nodes and initializers `body`, and output y.
inline std::string onnx_text(const std::string& body, const std::string& dims = "1 4 2 2", int type = 1, int opset = 17) {
  std::string shape;
  std::istringstream ds(dims);
  for (std::string d; ds >> d;) shape += "dim { dim_value: " + d + " } ";
  return "ir_version: 8 opset_import { version: " + std::to_string(opset) + " } graph { " + body +
         " input { name: \"x\" type { tensor_type { elem_type: " + std::to_string(type) + " shape { " + shape +
         "} } } } output { name: \"y\" } }";
}

inline toml::table onnx_table(const std::string& text) {
  onnx::ModelProto proto;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &proto)) << text;
  return onnx_model_table_from_bytes(proto.SerializeAsString(), "t.onnx", {});
}
inline Model onnx_model(const std::string& text) { return read_model_table(onnx_table(text), "t.onnx"); }

// The model `text` is refused with an error containing `message`.
inline void expect_refused(const std::string& text, const std::string& message) {
  try {
    onnx_table(text);
    ADD_FAILURE() << "accepted; expected: " << message;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

// A node called `name` of type `op` reading the space-separated inputs `in`, writing the
// space-separated outputs `out`.
inline std::string node(const std::string& name, const std::string& op, const std::string& in, const std::string& out,
                        const std::string& attrs = "") {
  std::string inputs, outputs;
  std::istringstream is(in), os(out);
  for (std::string i; is >> i;) inputs += "input: \"" + i + "\" ";
  for (std::string o; os >> o;) outputs += "output: \"" + o + "\" ";
  return "node { name: \"" + name + "\" " + inputs + outputs + "op_type: \"" + op + "\" " + attrs + "} ";
}
inline std::string float_attr(const std::string& name, double v) {
  return "attribute { name: \"" + name + "\" type: FLOAT f: " + std::to_string(v) + " } ";
}
inline std::string int_attr(const std::string& name, int64_t v) {
  return "attribute { name: \"" + name + "\" type: INT i: " + std::to_string(v) + " } ";
}
inline std::string ints_attr(const std::string& name, const std::string& values) {
  std::string ints;
  std::istringstream vs(values);
  for (std::string v; vs >> v;) ints += "ints: " + v + " ";
  return "attribute { name: \"" + name + "\" type: INTS " + ints + "} ";
}
// A float initializer of shape `dims` (space-separated) holding no values: ridge reads its shape.
inline std::string init(const std::string& name, const std::string& dims, int type = 1) {
  std::string d;
  std::istringstream ds(dims);
  for (std::string v; ds >> v;) d += "dims: " + v + " ";
  return "initializer { name: \"" + name + "\" data_type: " + std::to_string(type) + " " + d + "} ";
}

}  // namespace ridge::onnx_test
