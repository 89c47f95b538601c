// The forms the single-stage detectors (SSD, SSDlite, RetinaNet, FCOS; issue #28)
// export in, each written as a small ONNX graph and its counts worked out by hand: the
// heads that run one conv module on every FPN level, the Where that torch's floor
// division of box indices exports, and the per-class top-k boxes of one image joined
// into one list and picked by computed indices.
#include <gtest/gtest.h>

#include "onnx_text.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {
namespace {

using namespace onnx_test;

// A TopK of the scores s by the constant k, its values vN and indices iN.
std::string topk(const std::string& name, const std::string& k, const std::string& n) {
  return "node { name: \"" + name + "\" input: \"s\" input: \"" + k + "\" output: \"v" + n + "\" output: \"i" + n +
         "\" op_type: \"TopK\" } ";
}

// One conv module (weight w [4, 4, 1, 1], bias b [4]) run on two levels of x [1, 4, 2, 2]:
// each level costs 4 x 4 x 2 x 2 = 64 MACs, but the module's 16 + 4 = 20 parameters are
// counted once: the second conv is tied_to the first. A conv with its own weight is not.
TEST(OnnxDetectionHeads, AConvModuleRunOnEveryLevelCountsItsParametersOnce) {
  const std::string body = node("head.0", "Conv", "x w b", "a") + node("head.1", "Conv", "a w b", "c") +
                           node("other", "Conv", "c v b", "y") + init("w", "4 4 1 1") + init("v", "4 4 1 1") + init("b", "4");
  Model m = onnx_model(onnx_text(body));
  ASSERT_EQ(m.layers.size(), 3u);
  EXPECT_EQ(m.layers[0].counts.params, 20);
  EXPECT_EQ(m.layers[1].counts.params, 0);
  EXPECT_EQ(m.layers[2].counts.params, 20);
  for (const Layer& l : m.layers) {
    EXPECT_EQ(l.counts.macs, 64) << l.name;
    EXPECT_EQ(l.counts.weight_elems, 20) << l.name;  // every level reads the weight
  }
}

// torch's floor division (anchor index = box index // classes) picks the quotient or the
// quotient - 1 by a Where of three activations: one select per element, 16 for
// [1, 4, 2, 2], reading the condition and both operands (48 elements).
TEST(OnnxDetectionHeads, AWhereOfThreeActivationsSelectsOncePerElement) {
  Model m = onnx_model(onnx_text(node("less", "Less", "x x", "c") + node("where", "Where", "c x x", "y")));
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[1].op, "where");
  EXPECT_EQ(m.layers[1].output, (Shape{4, 2, 2}));
  EXPECT_EQ(m.layers[1].counts.flops, 16);
  EXPECT_EQ(m.layers[1].counts.input_elems, 48);
}

// One image [3, 4, 4] (unbatched: the Sub by a [3, 1, 1] mean says so) flattened to its
// 48 scores; two classes keep their top 10 and top 6 (48 x ceil(log2(11)) = 192 and
// 48 x ceil(log2(7)) = 144 compares), joined into 16 boxes, which an Unsqueeze makes
// [1, 16] for NMS: all 16 are the one image's. The label of each (a constant computed
// from the scores' shape, ConstantOfShape) is gathered by the top-10 indices: 10 copied.
TEST(OnnxDetectionHeads, PerClassTopKOfOneImageJoinAndStayOneImage) {
  const std::string consts =
      "initializer { name: \"mean\" data_type: 1 dims: 3 dims: 1 dims: 1 float_data: 0.5 float_data: 0.5 float_data: 0.5 } "
      "initializer { name: \"flat\" data_type: 7 dims: 1 int64_data: 48 } "
      "initializer { name: \"k10\" data_type: 7 dims: 1 int64_data: 10 } "
      "initializer { name: \"k6\" data_type: 7 dims: 1 int64_data: 6 } "
      "initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: 0 } ";
  const std::string body =
      node("norm", "Sub", "x mean", "a") + node("scores", "Reshape", "a flat", "s") +
      topk("top10", "k10", "10") + topk("top6", "k6", "6") +
      node("join", "Concat", "v10 v6", "all", int_attr("axis", 0)) + node("batch", "Unsqueeze", "all zero", "u") +
      node("shape", "Shape", "s", "n") + node("labels", "ConstantOfShape", "n", "l") +
      node("label", "Gather", "l i10", "g") + node("y", "Add", "u u", "y") + consts;
  Model m = onnx_model(onnx_text(body, "3 4 4"));
  auto layer = [&](const std::string& name) -> const Layer& { return m.layers[m.find(name)]; };
  EXPECT_EQ(layer("top10").counts.flops, 192);
  EXPECT_EQ(layer("top6").counts.flops, 144);
  EXPECT_EQ(layer("join").output, (Shape{16}));
  EXPECT_EQ(layer("join").counts.output_elems, 16);
  EXPECT_EQ(layer("y").output, (Shape{16}));  // the Unsqueeze's axis is the batch's own
  EXPECT_EQ(layer("y").counts.flops, 16);
  EXPECT_EQ(layer("label").op, "gather");
  EXPECT_EQ(layer("label").counts.output_elems, 10);
}

}  // namespace
}  // namespace ridge
