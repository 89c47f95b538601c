// A graph of two inputs of one shape, as torchvision's RAFT exports (issue #28): its two
// frames a sample, stacked; torch.cat([a, b]) along the batch axis read as 2 items a
// sample, a Conv over them counted for both, slices back to one item; and GridSample
// (sim/workload/ops/resize.cpp), and the padded gather of its upsampling's F.unfold.
// Written in protobuf text, counts worked out by hand.
#include <gtest/gtest.h>

#include "onnx_text.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge {
namespace {

using namespace onnx_test;

std::string input(const std::string& name) {
  return "input { name: \"" + name + "\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } "
         "dim { dim_value: 2 } dim { dim_value: 4 } dim { dim_value: 4 } } } } } ";
}
std::string ints(const std::string& name, const std::string& values) {
  std::string v;
  int count = 0;
  std::istringstream vs(values);
  for (std::string x; vs >> x; ++count) v += "int64_data: " + x + " ";
  return "initializer { name: \"" + name + "\" data_type: 7 dims: " + std::to_string(count) + " " + v + "} ";
}
const Layer& layer(const Model& m, const std::string& name) { return m.layers.at(static_cast<size_t>(m.find(name))); }

// Frames a and b, [1, 2, 4, 4] each: a sample is [2, 2, 4, 4]. The 1x1 conv 2 -> 3 over
// both frames: 2 x (3 x 16 outputs x 2 inputs) = 192 MACs, 6 parameters; over a alone
// (RAFT's context encoder), 96. The split back gives [1, 3, 4, 4] each; their product,
// 48 FLOPs. GridSample of a [2, 4, 4] at b's first two channels moved last, a grid
// [4, 4, 2]: 16 points x 4 FLOPs + 2 x 16 outputs x 7 (bilinear) = 288 FLOPs.
TEST(OnnxTwoInputs, FramesJoinedAlongTheBatchAreTwoItemsASample) {
  const std::string graph =
      node("cat", "Concat", "a b", "cat", int_attr("axis", 0)) + node("enc", "Conv", "cat w", "f") +
      node("chunk", "Split", "f two_ones", "f1 f2", int_attr("axis", 0)) + node("prod", "Mul", "f1 f2", "p") +
      node("ctx", "Conv", "a w", "c") + node("flat", "Reshape", "p flat_shape", "flat") +
      node("cut", "Slice", "b zero two one", "bc") + node("moved", "Transpose", "bc", "grid", ints_attr("perm", "0 2 3 1")) +
      node("look", "GridSample", "a grid", "y") + init("w", "3 2 1 1") + ints("two_ones", "1 1") + ints("flat_shape", "1 48") +
      ints("zero", "0") + ints("two", "2") + ints("one", "1");
  const std::string text = "ir_version: 8 opset_import { version: 17 } graph { " + graph + input("a") + input("b") +
                           "output { name: \"y\" } }";
  const Model m = onnx_model(text);
  EXPECT_EQ(m.input, (Shape{2, 2, 4, 4}));
  const Layer& enc = layer(m, "enc");
  EXPECT_EQ(enc.output, (Shape{2, 3, 4, 4}));
  EXPECT_EQ(enc.counts.macs, 192);
  EXPECT_EQ(enc.counts.params, 6);
  EXPECT_EQ(layer(m, "ctx").counts.macs, 96);
  EXPECT_EQ(layer(m, "prod").counts.flops, 48);
  EXPECT_EQ(layer(m, "flat").output, (Shape{48}));
  const Layer& look = layer(m, "look");
  EXPECT_EQ(look.op, "grid_sample");
  EXPECT_EQ(look.output, (Shape{2, 4, 4}));
  EXPECT_EQ(look.counts.flops, 288);
  RunSettings two;
  two.batch = 2;
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.macs, 288);
  EXPECT_EQ(analyze_costs(m, two).totals.macs, 576);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "the graph has 2 inputs of one shape ('a', 'b'): a sample is the 2 stacked, [2x2x4x4], each "
                        "input a select of it (a view)");
}

// F.unfold(flow, 3, padding=1) as torch exports it (RAFT's upsampling): a zero Pad of x
// [1, 2, 4, 4] to 6 x 6, then a Gather of rows [[0, 1, 2], [1, 2, 3]] along H: [2, 2, 3, 6]
// a sample (the pad written before the gather, which reads the padded width 6), 72
// elements, each a Relu's FLOP after it.
TEST(OnnxTwoInputs, AGatherOfAPaddedTensorReadsThePaddedShape) {
  const std::string body = node("pad", "Pad", "x pads", "p") + node("rows", "Gather", "p idx", "g", int_attr("axis", 2)) +
                           node("act", "Relu", "g", "y") + ints("pads", "0 0 1 1 0 0 1 1") +
                           "initializer { name: \"idx\" data_type: 7 dims: 2 dims: 3 int64_data: 0 int64_data: 1 "
                           "int64_data: 2 int64_data: 1 int64_data: 2 int64_data: 3 } ";
  const Model m = onnx_model(onnx_text(body, "1 2 4 4"));
  const Layer& act = layer(m, "act");
  EXPECT_EQ(act.output, (Shape{2, 2, 3, 6}));
  EXPECT_EQ(act.counts.flops, 72);
}

}  // namespace
}  // namespace ridge
