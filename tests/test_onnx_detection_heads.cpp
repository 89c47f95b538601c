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

// batched_nms of one image's 8 boxes x [1, 8, 4], scored by their largest coordinate
// ([1, 1, 8]) by a node `score`, with no limit of its own (max_output_boxes_per_class 100
// > 8), read with `options`; the graph keeps keep[:3] (detections_per_img).
Model nms_model(const std::string& score, const std::string& nms, const OnnxOptions& options) {
  const std::string body =
      node(score, "ReduceMax", "x", "m", ints_attr("axes", "2") + int_attr("keepdims", 1)) +
      node("classes", "Transpose", "m", "s", ints_attr("perm", "0 2 1")) +
      node(nms, "NonMaxSuppression", "x s most", "sel") + node("pick", "Gather", "sel two", "idx", int_attr("axis", 1)) +
      node("keep", "Slice", "idx zero three zero", "y") +
      "initializer { name: \"most\" data_type: 7 dims: 1 int64_data: 100 } "
      "initializer { name: \"two\" data_type: 7 int64_data: 2 } "
      "initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: 0 } "
      "initializer { name: \"three\" data_type: 7 dims: 1 int64_data: 3 } ";
  onnx::ModelProto proto;
  if (!google::protobuf::TextFormat::ParseFromString(onnx_text(body, "1 8 4"), &proto)) ADD_FAILURE() << "bad graph";
  return read_model_table(onnx_model_table_from_bytes(proto.SerializeAsString(), "t.onnx", options), "t.onnx");
}

// NMS is taken to stop at K = 3 kept: a sort, 8 x 3 = 24; areas 3 x 8 = 24; IoU tests
// K (K - 1) / 2 + (8 - K)(K - 1) = 3 + 10 = 13, of 12 FLOPs: 156; 204 in all, [3, 3] out.
// --set onnx.max_detections=2 says K = 2: 1 + 6 = 7 tests, 84 + 48 = 132. The header
// says which it took.
TEST(OnnxDetectionHeads, NmsKeepsWhatTheGraphCutsItToOrWhatMaxDetectionsSays) {
  auto nms_of = [&](const OnnxOptions& options) {
    Model m = nms_model("score", "nms", options);
    return std::make_pair(m.layers.at(static_cast<size_t>(m.find("nms"))), m.notes);
  };
  const auto [cut, notes] = nms_of({});
  EXPECT_EQ(cut.output, (Shape{3, 3}));
  EXPECT_EQ(cut.counts.flops, 204);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("nms 3 of 8 boxes per class (the graph keeps 3 after it)"), std::string::npos) << notes[0];
  OnnxOptions two;
  two.max_detections = 2;
  const auto [set, set_notes] = nms_of(two);
  EXPECT_EQ(set.output, (Shape{2, 3}));
  EXPECT_EQ(set.counts.flops, 132);
  EXPECT_NE(set_notes[0].find("nms 2 of 8 boxes per class (onnx.max_detections)"), std::string::npos) << set_notes[0];
}

// The same NMS as a region proposal network's: unscoped, as torch exports batched_nms,
// its scores made in module `rpn`. --set onnx.proposals=2 makes it keep 2 (132 FLOPs, as
// above), taking precedence over onnx.max_detections for it; the note names the setting.
// Without the RPN, onnx.proposals is an error (tests/test_input_error_table.cpp).
TEST(OnnxDetectionHeads, ProposalsSetsWhatTheRpnsNmsKeeps) {
  OnnxOptions two;
  two.proposals = 2;
  two.max_detections = 3;
  const Model m = nms_model("/rpn/score/ReduceMax", "NonMaxSuppression_1", two);
  const Layer& nms = m.layers.at(static_cast<size_t>(m.find("NonMaxSuppression_1")));
  EXPECT_EQ(nms.output, (Shape{2, 3}));
  EXPECT_EQ(nms.counts.flops, 132);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("NonMaxSuppression_1 2 of 8 boxes per class (onnx.proposals)"), std::string::npos)
      << m.notes[0];
  EXPECT_NE(m.notes[0].find("the RPN's proposals: --set onnx.proposals=N"), std::string::npos) << m.notes[0];
}

}  // namespace
}  // namespace ridge
