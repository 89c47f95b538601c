// The ops of detection graphs (issue #28) read from the small files
// scripts/make-test-onnx writes (resize-computed.onnx, detection-ops.onnx), each layer's
// counts worked out by hand from the conventions stated in
// sim/workload/ops/detection.cpp; and a Resize whose size the graph computes from the
// input's symbolic height and width, given with --set model.height / model.width.
#include <gtest/gtest.h>

#include "run_ridge.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {
namespace {

const std::string kDir = "tests/data/onnx/";

// size = floor([H, W] * 8 / min(H, W)): 4 x 6 -> 8 x 12, 6 x 4 -> 12 x 8; the resize
// writes every output element of its 2 channels (2 x 8 x 12 = 192).
TEST(OnnxDetection, AResizeTakesTheSizeTheGraphComputesFromTheSetDimensions) {
  Model wide = load_model(kDir + "resize-computed.onnx", {{"height", "4", {}}, {"width", "6", {}}}, {});
  ASSERT_EQ(wide.layers.size(), 1u);
  EXPECT_EQ(wide.layers[0].op, "resize");
  EXPECT_EQ(wide.layers[0].output, (Shape{2, 8, 12}));
  EXPECT_EQ(wide.layers[0].counts.output_elems, 192);
  ASSERT_FALSE(wide.notes.empty());
  EXPECT_NE(wide.notes.back().find("height = 4, width = 6"), std::string::npos) << wide.notes.back();
  Model tall = load_model(kDir + "resize-computed.onnx", {{"height", "6", {}}, {"width", "4", {}}}, {});
  EXPECT_EQ(tall.layers[0].output, (Shape{2, 12, 8}));
  auto missing = ridge_test::run_ridge("analyze " + kDir + "resize-computed.onnx --set model.height=4");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("dimension 3 ('width') is symbolic and has no value"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("--set model.width=N sizes it"), std::string::npos) << missing.err;
  auto unknown = ridge_test::run_ridge("analyze " + kDir + "resize-computed.onnx --set model.depth=4");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("has no symbolic dimension 'depth'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("its symbolic dimensions: N, height, width"), std::string::npos) << unknown.err;
}

// detection-ops.onnx (scripts/make-test-onnx says what it holds): 32 boxes of one class.
TEST(OnnxDetection, TheDetectionOpsCountWhatTheirConventionsState) {
  Model m = load_model(kDir + "detection-ops.onnx", {}, {});
  auto layer = [&](const std::string& name) -> const Layer& { return m.layers[m.find(name)]; };
  // TopK 10 of 32: 32 x ceil(log2(11)) = 32 x 4 = 128 compares; values and indices out.
  const Layer& topk = layer("head.TopK");
  EXPECT_EQ(topk.op, "topk");
  EXPECT_EQ(topk.output, (Shape{10}));
  EXPECT_EQ(topk.counts.flops, 128);
  EXPECT_EQ(topk.counts.output_elems, 20);
  // NMS of B = 32 boxes, 1 class: 32 x 5 (sort) + 3 x 32 (areas) + 12 x 32 x 31 / 2
  // (IoU tests) = 160 + 96 + 5952 = 6208 FLOPs; at most 5 kept: [5, 3].
  const Layer& nms = layer("head.NonMaxSuppression");
  EXPECT_EQ(nms.op, "nms");
  EXPECT_EQ(nms.output, (Shape{5, 3}));
  EXPECT_EQ(nms.counts.flops, 6208);
  EXPECT_EQ(nms.counts.input_elems, 32 * 4 + 32);
  // The top-10 boxes of [1, 32, 4]: [10, 4] per sample, 40 elements copied, 40 + 10 read;
  // then viewed as ONNX's [1, 1, 10, 4] (its Gather keeps the indices' [1, 10]).
  const Layer& gather = layer("head.Gather");
  EXPECT_EQ(gather.op, "gather");
  EXPECT_EQ(gather.output, (Shape{10, 4}));
  EXPECT_EQ(layer("head.Gather_2").output, (Shape{1, 10, 4}));
  EXPECT_EQ(gather.counts.output_elems, 40);
  EXPECT_EQ(gather.counts.input_elems, 50);
  // RoiAlign of 3 boxes over 2 channels to 2 x 2: 24 outputs of 2 x 2 samples of 4
  // bilinear taps (8 x 4 + 1 = 33 FLOPs each) = 792; reads the 128 features and 12 box
  // coordinates.
  const Layer& roi = layer("pool");
  EXPECT_EQ(roi.op, "roi_align");
  EXPECT_EQ(roi.output, (Shape{3, 2, 2, 2}));
  EXPECT_EQ(roi.counts.flops, 792);
  EXPECT_EQ(roi.counts.input_elems, 128 + 12);
  // GatherElements by indices [1, 2, 4, 8]: 64 out, 64 + 64 read; ScatterElements of
  // those 64 into x: 128 out, 128 + 64 + 64 read.
  const Layer& picked = layer("pick");
  EXPECT_EQ(picked.op, "gather_elements");
  EXPECT_EQ(picked.counts.output_elems, 64);
  EXPECT_EQ(picked.counts.input_elems, 128);
  const Layer& written = layer("put");
  EXPECT_EQ(written.op, "scatter");
  EXPECT_EQ(written.counts.output_elems, 128);
  EXPECT_EQ(written.counts.input_elems, 256);
  // The If's condition is a constant true: its then-branch (a Relu of the 64 picked
  // values) is counted, its else-branch not.
  const Layer& relu = layer("branch");
  EXPECT_EQ(relu.op, "relu");
  EXPECT_EQ(relu.output, (Shape{2, 4, 8}));
  EXPECT_EQ(m.find("branch.Identity"), -1);
  // The index constants are not learned: no parameters.
  int64_t params = 0;
  for (const Layer& l : m.layers) params += l.counts.params;
  EXPECT_EQ(params, 0);
}

}  // namespace
}  // namespace ridge
