// The ops of detection graphs (issue #28) read from the small files
// scripts/make-test-onnx writes (resize-computed.onnx, detection-ops.onnx), each layer's
// counts worked out by hand from the conventions stated in
// sim/workload/ops/detection.cpp; and a Resize whose size the graph computes from the
// input's symbolic height and width, given with --set model.height / model.width; and
// the forms torchvision's detectors export in (Expand of a norm, Xor / Mod / Equal of
// box indices, a per-image Split of one image, a tiled or flattened constant).
#include <gtest/gtest.h>

#include "onnx_text.hpp"
#include "run_ridge.hpp"
#include "sim/base/error.hpp"
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
  // NMS of B = 32 boxes, 1 class, stopping at 5 kept: 32 x 5 (sort) + 3 x 32 (areas) +
  // 12 x (5 x 4 / 2 + 27 x 4) (IoU tests: the i-th box against at most min(i, 4) kept)
  // = 160 + 96 + 12 x 118 = 1672 FLOPs; [5, 3].
  const Layer& nms = layer("head.NonMaxSuppression");
  EXPECT_EQ(nms.op, "nms");
  EXPECT_EQ(nms.output, (Shape{5, 3}));
  EXPECT_EQ(nms.counts.flops, 1672);
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

// SSD's L2 norm: the norm [1, 1, 2, 2] expanded over 4 channels before the division is
// a tile of 4 copies: 4 elements read, 16 written, no arithmetic
// (sim/workload/ops/rearrange.cpp). A target that would expand the batch is refused.
TEST(OnnxDetection, AnExpandOfAnActivationWritesItsCopies) {
  using namespace onnx_test;
  const std::string to = "initializer { name: \"to\" data_type: 7 dims: 4 int64_data: 1 int64_data: 4 int64_data: 2 "
                         "int64_data: 2 } ";
  Model m = onnx_model(onnx_text(node("norm.Expand", "Expand", "x to", "y") + to, "1 1 2 2"));
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_EQ(m.layers[0].op, "tile");
  EXPECT_EQ(m.layers[0].output, (Shape{4, 2, 2}));
  EXPECT_EQ(m.layers[0].counts.input_elems, 4);
  EXPECT_EQ(m.layers[0].counts.output_elems, 16);
  EXPECT_EQ(m.layers[0].counts.flops, 0);
  const std::string batch = "initializer { name: \"to\" data_type: 7 dims: 4 int64_data: 2 int64_data: 1 "
                            "int64_data: 2 int64_data: 2 } ";
  EXPECT_THROW(onnx_model(onnx_text(node("e", "Expand", "x to", "y") + batch, "1 1 2 2")), InputError);
}

// torch's floor division of box indices exports Xor of two signs, Mod and Equal of
// activations: one operation per element each, 16 for x [1, 4, 2, 2]; a Split of the
// batch into its one image passes it on, so the Relu after it has [4, 2, 2].
TEST(OnnxDetection, XorModAndEqualOfActivationsCountOneOperationPerElement) {
  using namespace onnx_test;
  Model m = onnx_model(onnx_text(node("xor", "Xor", "x x", "a") + node("mod", "Mod", "x x", "b") +
                                 node("eq", "Equal", "a b", "c") + node("split", "Split", "c", "d", int_attr("axis", 0)) +
                                 node("relu", "Relu", "d", "y")));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"xor", "mod", "eq", "relu"}));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.layers[i].op, "compare");
    EXPECT_EQ(m.layers[i].counts.flops, 16) << m.layers[i].name;
  }
  EXPECT_EQ(m.layers[3].output, (Shape{4, 2, 2}));
}

// Constants folded with their values: [1, 4] tiled twice is [1, 4, 1, 4]; Flatten at axis
// 0 makes it [1, 4] of the same values, Squeeze [4]; reshaping x [1, 4, 2, 2] by it
// gives [4, 1, 4] per sample. Xor of the constants 1 and 0 folds to 1, which an If
// takes as its condition (then: a Relu).
TEST(OnnxDetection, TiledFlattenedAndXoredConstantsKeepTheirValues) {
  using namespace onnx_test;
  const std::string c = "initializer { name: \"c\" data_type: 7 dims: 2 int64_data: 1 int64_data: 4 } "
                        "initializer { name: \"reps\" data_type: 7 dims: 1 int64_data: 2 } ";
  Model m = onnx_model(onnx_text(node("tile", "Tile", "c reps", "t") + node("flat", "Flatten", "t", "f", int_attr("axis", 0)) +
                                 node("sq", "Squeeze", "f", "s") + node("reshape", "Reshape", "x s", "y") + c));
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_EQ(m.layers[0].output, (Shape{4, 1, 4}));
  const std::string bits = "initializer { name: \"one\" data_type: 9 int32_data: 1 } "
                           "initializer { name: \"zero\" data_type: 9 int32_data: 0 } ";
  const std::string then = "attribute { name: \"then_branch\" type: GRAPH g { " + node("relu", "Relu", "x", "r") +
                           "output { name: \"r\" } } } attribute { name: \"else_branch\" type: GRAPH g { " +
                           node("sig", "Sigmoid", "x", "s") + "output { name: \"s\" } } } ";
  Model chosen = onnx_model(onnx_text(node("xor", "Xor", "one zero", "cond") + node("if", "If", "cond", "y", then) + bits));
  ASSERT_EQ(chosen.layers.size(), 1u);
  EXPECT_EQ(chosen.layers[0].op, "relu");
}

// batched_nms's boxes.max() in a graph of one image [3, 4, 4] (unbatched: the Sub by a
// [3, 1, 1] mean says so): ReduceMax over every axis is the reduction of the sample's 48
// elements, 47 compares; its one value scales what follows, 1 FLOP for each of 48.
TEST(OnnxDetection, AReductionOverEveryAxisOfOneImageReducesTheSample) {
  using namespace onnx_test;
  const std::string body = node("norm", "Sub", "x mean", "a") +
                           node("max", "ReduceMax", "a", "m", int_attr("keepdims", 0)) + node("offset", "Mul", "a m", "y") +
                           "initializer { name: \"mean\" data_type: 1 dims: 3 dims: 1 dims: 1 float_data: 0.5 "
                           "float_data: 0.5 float_data: 0.5 } ";
  Model m = onnx_model(onnx_text(body, "3 4 4"));
  auto layer = [&](const std::string& name) -> const Layer& { return m.layers[m.find(name)]; };
  EXPECT_EQ(layer("max").op, "reduce_max");
  EXPECT_EQ(layer("max").counts.flops, 47);
  EXPECT_EQ(layer("offset").op, "scale");
  EXPECT_EQ(layer("offset").counts.flops, 48);
  // With a batch axis, reducing over it too stays an error.
  EXPECT_THROW(onnx_model(onnx_text(node("max", "ReduceMax", "x", "y"), "1 4 2 2")), InputError);
}

}  // namespace
}  // namespace ridge
