// The ops of detection graphs (issue #28) read from the small files
// scripts/make-test-onnx writes (resize-computed.onnx, detection-ops.onnx), each layer's
// counts worked out by hand from the conventions stated in
// sim/workload/ops/detection.cpp; and a Resize whose size the graph computes from the
// input's symbolic height and width, given with --set model.height / model.width; and
// the forms torchvision's detectors export in (Expand of a norm, Xor / Mod / Equal of
// box indices, a per-image Split of one image, a tiled or flattened constant), and the
// R-CNN heads' RoIs: pooled into zeros by ScatterElements, convolved one RoI at a time,
// and the bounds data-dependent sizes take (value_bounds.cpp).
#include <gtest/gtest.h>

#include "onnx_text.hpp"
#include "run_ridge.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {
namespace {

const std::string kDir = "tests/data/onnx/";

// A RoiAlign's attributes: output size x size, 2 x 2 samples per bin.
std::string roi_align_attrs(int size) {
  using namespace onnx_test;
  return int_attr("output_height", size) + int_attr("output_width", size) + int_attr("sampling_ratio", 2);
}

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

// The R-CNN heads on 3 RoIs pooled from features x [1, 2, 4, 4] (the pooled RoIs are one
// image's, the batch merged into their first axis). Mask head: a 1x1 Conv 2 -> 4 is a
// conv2d over each of the 3 RoIs (images = 3): 3 x (4 out x 2 x 2 positions x 2 in) =
// 96 MACs, its 4 x 2 weights + 4 biases = 12 parameters once; a ConvTranspose 4 -> 1,
// kernel 2, stride 2: 3 x (4 in x 2 x 2 positions x 1 out x 4 taps) = 192 MACs; a
// Resize x2 of [3, 1, 4, 4] writes 3 x 64 = 192 elements.
TEST(OnnxDetection, TheRoIsOfOneImageAreConvolvedOneAtATime) {
  using namespace onnx_test;
  const std::string roi = roi_align_attrs(2);
  const std::string body =
      node("pool", "RoiAlign", "x rois idx", "p", roi) + node("mask.conv", "Conv", "p w b", "c") +
      node("mask.up", "ConvTranspose", "c wt", "u", ints_attr("strides", "2 2")) +
      node("mask.resize", "Resize", "u none scales", "y", "attribute { name: \"mode\" type: STRING s: \"linear\" } ") +
      init("rois", "3 4") + init("idx", "3", 7) + init("w", "4 2 1 1") + init("b", "4") + init("wt", "4 1 2 2") +
      "initializer { name: \"none\" data_type: 1 dims: 0 } "
      "initializer { name: \"scales\" data_type: 1 dims: 4 float_data: 1 float_data: 1 float_data: 2 float_data: 2 } ";
  Model m = onnx_model(onnx_text(body, "1 2 4 4"));
  auto layer = [&](const std::string& name) -> const Layer& { return m.layers[m.find(name)]; };
  EXPECT_EQ(layer("mask.conv").op, "conv2d");
  EXPECT_EQ(layer("mask.conv").output, (Shape{3, 4, 2, 2}));
  EXPECT_EQ(layer("mask.conv").counts.macs, 96);
  EXPECT_EQ(layer("mask.conv").counts.params, 12);
  EXPECT_EQ(layer("mask.up").op, "conv_transpose2d");
  EXPECT_EQ(layer("mask.up").output, (Shape{3, 1, 4, 4}));
  EXPECT_EQ(layer("mask.up").counts.macs, 192);
  EXPECT_EQ(layer("mask.resize").output, (Shape{3, 1, 8, 8}));
  EXPECT_EQ(layer("mask.resize").counts.output_elems, 192);
  // A zero Pad of the RoIs folds into the 3x3 conv after it: [3, 4, 2, 2] out, 3 x (4 out x
  // 2 x 2 positions x 2 in x 9 taps) = 3 x 288 = 864 MACs.
  const std::string padded = node("pool", "RoiAlign", "x rois idx", "p", roi) + node("pad", "Pad", "p pads", "q") +
                             node("conv", "Conv", "q w3", "y") + init("rois", "3 4") + init("idx", "3", 7) +
                             init("w3", "4 2 3 3") +
                             "initializer { name: \"pads\" data_type: 7 dims: 8 int64_data: 0 int64_data: 0 "
                             "int64_data: 1 int64_data: 1 int64_data: 0 int64_data: 0 int64_data: 1 int64_data: 1 } ";
  Model p = onnx_model(onnx_text(padded, "1 2 4 4"));
  const Layer& conv = p.layers[p.find("conv")];
  EXPECT_EQ(conv.output, (Shape{3, 4, 2, 2}));
  EXPECT_EQ(conv.counts.macs, 864);
}

// MultiScaleRoIAlign's tail on 3 RoIs: the indices of a level's RoIs, [3, 1, 1, 1]
// (here a 1x1 pool of one channel), expanded over [3, 2, 2, 2] are a tile that reads 3
// and writes 24; ScatterElements writes them into zeros of [3, 2, 2, 2] (a constant):
// 24 out, 24 + 24 + 24 read. A Gather from a computed constant (the box head's class
// labels) by computed indices is a gather, not an embedding: 3 indices of a [6]
// constant copy 3 elements, reading 3 + 3.
TEST(OnnxDetection, PooledRoIsAreScatteredIntoZerosAndLabelsGathered) {
  using namespace onnx_test;
  const std::string roi = roi_align_attrs(1);
  const std::string body =
      node("pool", "RoiAlign", "x rois idx", "p", roi) + node("expand", "Expand", "p to", "e") +
      node("zeros", "ConstantOfShape", "to", "z") + node("scatter", "ScatterElements", "z e e", "s") +
      node("labels", "ConstantOfShape", "six", "l") + node("flat", "Flatten", "p", "f", int_attr("axis", 0)) +
      node("squeeze", "Squeeze", "f", "i") + node("gather", "Gather", "l i", "y") + init("rois", "3 4") +
      init("idx", "3", 7) +
      "initializer { name: \"to\" data_type: 7 dims: 4 int64_data: 3 int64_data: 2 int64_data: 2 int64_data: 2 } " +
      node("six", "Constant", "", "six", "attribute { name: \"value\" type: TENSOR t { data_type: 7 dims: 1 "
                                        "int64_data: 6 } } ");
  Model m = onnx_model(onnx_text(body, "1 1 4 4"));
  auto layer = [&](const std::string& name) -> const Layer& { return m.layers[m.find(name)]; };
  EXPECT_EQ(layer("expand").op, "tile");
  EXPECT_EQ(layer("expand").counts.input_elems, 3);
  EXPECT_EQ(layer("expand").counts.output_elems, 24);
  EXPECT_EQ(layer("scatter").op, "scatter");
  EXPECT_EQ(layer("scatter").output, (Shape{3, 2, 2, 2}));
  EXPECT_EQ(layer("scatter").counts.output_elems, 24);
  EXPECT_EQ(layer("scatter").counts.input_elems, 72);
  EXPECT_EQ(layer("gather").op, "gather");
  EXPECT_EQ(layer("gather").counts.output_elems, 3);
  EXPECT_EQ(layer("gather").counts.input_elems, 6);
}

// Scores above a threshold: softmax rows of 10 over x [1, 4, 10], the first entry of
// each dropped (R-CNN's background class): 4 rows of 9 probabilities summing to at most
// 1, of which fewer than 1 / 0.3 = 3.3 exceed 0.3: at most 4 x 3 = 12 of the 36 pass,
// the size of the NonZero after (ONNX's [rank 3, 12]); it compares all 36.
TEST(OnnxDetection, AThresholdOnProbabilitiesBoundsTheScoresThatPass) {
  using namespace onnx_test;
  const std::string body =
      node("softmax", "Softmax", "x", "p", int_attr("axis", -1)) + node("fg", "Slice", "p one big two", "f") +
      node("keep", "Greater", "f t", "k") + node("nonzero", "NonZero", "k", "y") +
      "initializer { name: \"one\" data_type: 7 dims: 1 int64_data: 1 } "
      "initializer { name: \"big\" data_type: 7 dims: 1 int64_data: 100 } "
      "initializer { name: \"two\" data_type: 7 dims: 1 int64_data: 2 } " +
      node("t", "Constant", "", "t", "attribute { name: \"value\" type: TENSOR t { data_type: 1 float_data: 0.3 } } ");
  Model m = onnx_model(onnx_text(body, "1 4 10"));
  const Layer& nz = m.layers[m.find("nonzero")];
  EXPECT_EQ(nz.output, (Shape{3, 12}));
  EXPECT_EQ(nz.counts.flops, 36);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("at most 3 of each row of 9"), std::string::npos) << m.notes.back();
}

// MultiScaleRoIAlign's levels: floor(x) clipped to [2, 5] less 2 is one of 4 levels; the
// NonZero of the 8 RoIs at level 1 takes 8 / 4 = 2 (the even split assumed, said in a
// note). Level 7 is outside the levels: no RoI, counted at its upper bound 8.
TEST(OnnxDetection, TheRoIsOfOneLevelAreAnEvenShareOfAll) {
  using namespace onnx_test;
  auto scalar = [](const std::string& name, const std::string& v) {  // (a Constant node, as torch exports)
    return node(name, "Constant", "", name,
                "attribute { name: \"value\" type: TENSOR t { data_type: 1 float_data: " + v + " } } ");
  };
  const std::string body = scalar("lo", "2") + scalar("hi", "5") + scalar("one", "1") + scalar("seven", "7") +
                           node("floor", "Floor", "x", "f") + node("clip", "Clip", "f lo hi", "c") +
                           node("cast", "Cast", "c", "i", int_attr("to", 7)) + node("sub", "Sub", "i lo", "l") +
                           node("eq", "Equal", "l one", "e") + node("level1", "NonZero", "e", "y") +
                           node("eq7", "Equal", "l seven", "e7") + node("level7", "NonZero", "e7", "z");
  Model m = onnx_model(onnx_text(body, "1 8"));
  EXPECT_EQ(m.layers[m.find("level1")].output, (Shape{2, 2}));
  EXPECT_EQ(m.layers[m.find("level7")].output, (Shape{2, 8}));
  std::string notes;
  for (const std::string& n : m.notes) notes += n + "\n";
  EXPECT_NE(notes.find("the 8 RoIs spread evenly over MultiScaleRoIAlign's 4 levels, 2 each"), std::string::npos) << notes;
  EXPECT_NE(notes.find("selects level 7, outside the levels 0 to 3"), std::string::npos) << notes;
}

// One head on two pyramid levels (torchvision's RPN head): two Conv nodes reading the same
// weight [4, 2, 3, 3] and bias [4] are two conv2d layers, the second tied to the first:
// 4 x 2 x 9 + 4 = 76 parameters once, each layer's MACs its own (4 x 4 x 4 positions x
// 18 = 1152 on x [1, 2, 4, 4], padding 1; 4 x 2 x 2 x 18 = 288 on its 2 x 2 max pool).
TEST(OnnxDetection, AConvRunOnEveryLevelCountsItsWeightsOnce) {
  using namespace onnx_test;
  const std::string body = node("p3.conv", "Conv", "x w b", "a", ints_attr("pads", "1 1 1 1")) +
                           node("pool", "MaxPool", "x", "q", ints_attr("kernel_shape", "2 2") + ints_attr("strides", "2 2")) +
                           node("p4.conv", "Conv", "q w b", "y", ints_attr("pads", "1 1 1 1")) + init("w", "4 2 3 3") +
                           init("b", "4");
  Model m = onnx_model(onnx_text(body, "1 2 4 4"));
  const Layer& first = m.layers[m.find("p3.conv")];
  const Layer& second = m.layers[m.find("p4.conv")];
  EXPECT_EQ(first.counts.params, 76);
  EXPECT_EQ(second.counts.params, 0);
  EXPECT_EQ(first.counts.macs, 1152);
  EXPECT_EQ(second.counts.macs, 288);
  EXPECT_EQ(second.counts.weight_elems, 76);  // (read every pass)
}

}  // namespace
}  // namespace ridge
