// Convolutions (1-, 2- and 3-D, transposed) and linear against counts worked out by hand (the arithmetic is in the
// comments). Conventions: macs per sample; flops = 2 x macs + bias adds.
#include <gtest/gtest.h>

#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::one_layer;

TEST(OpsConv2d, StrideAndPadding) {
  // [3, 10, 10], 4 kernels 3x3, stride 2, padding 1: Ho = floor((10 + 2 - 3) / 2) + 1 = 5.
  Layer l = one_layer("[3, 10, 10]", "op = \"conv2d\"\nout_channels = 4\nkernel = 3\nstride = 2\npadding = 1");
  EXPECT_EQ(l.output, (Shape{4, 5, 5}));
  const LayerCounts& c = l.counts;
  EXPECT_EQ(c.macs, 2700);             // 4*5*5 outputs x 3*3*3 = 100 x 27
  EXPECT_EQ(c.params, 112);            // 4*3*3*3 = 108 weights + 4 biases
  EXPECT_EQ(c.weight_elems, 112);
  EXPECT_EQ(c.flops, 2 * 2700 + 100);  // + one bias add per output
  EXPECT_EQ(c.input_elems, 300);
  EXPECT_EQ(c.output_elems, 100);
  EXPECT_EQ(c.bwd_input_macs, 2700);
  EXPECT_EQ(c.bwd_weight_macs, 2700);
  EXPECT_EQ(c.bwd_weight_other_flops, 100);  // bias gradient: a sum over the 100 outputs
  EXPECT_TRUE(c.saves_input);
}

TEST(OpsConv2d, Dilation) {
  // [2, 9, 9], 3 kernels 3x3, dilation 2: effective 2*(3-1)+1 = 5, Ho = 9 - 5 + 1 = 5.
  Layer l = one_layer("[2, 9, 9]", "op = \"conv2d\"\nout_channels = 3\nkernel = 3\ndilation = 2");
  EXPECT_EQ(l.output, (Shape{3, 5, 5}));
  EXPECT_EQ(l.counts.macs, 1350);  // 3*5*5 = 75 outputs x 2*3*3 = 18
  EXPECT_EQ(l.counts.params, 57);  // 3*18 + 3
}

TEST(OpsConv2d, GroupsWithoutBias) {
  // [4, 6, 6], 8 kernels 3x3 padding 1, groups 2: each output sees 4/2 = 2 channels.
  Layer l = one_layer("[4, 6, 6]", "op = \"conv2d\"\nout_channels = 8\nkernel = 3\npadding = 1\ngroups = 2\nbias = false");
  EXPECT_EQ(l.output, (Shape{8, 6, 6}));
  EXPECT_EQ(l.counts.macs, 5184);  // 8*6*6 = 288 outputs x 2*3*3 = 18
  EXPECT_EQ(l.counts.params, 144);  // 8 x 18, no bias
  EXPECT_EQ(l.counts.flops, 10368);  // 2 x 5184, no bias adds
  EXPECT_EQ(l.counts.bwd_weight_other_flops, 0);
}

TEST(OpsConv2d, Depthwise) {
  // [8, 7, 7], groups = 8 = channels, 3x3 padding 1: one input channel per output.
  Layer l = one_layer("[8, 7, 7]", "op = \"conv2d\"\nout_channels = 8\nkernel = [3, 3]\npadding = 1\ngroups = 8");
  EXPECT_EQ(l.output, (Shape{8, 7, 7}));
  EXPECT_EQ(l.counts.macs, 3528);  // 8*7*7 = 392 outputs x 1*3*3
  EXPECT_EQ(l.counts.params, 80);  // 8*9 + 8
}

TEST(OpsConv2d, RectangularKernel) {
  // [1, 5, 5], one 1x3 kernel: output 5 x (5-3+1) = 5 x 3, 3 MACs each.
  Layer l = one_layer("[1, 5, 5]", "op = \"conv2d\"\nout_channels = 1\nkernel = [1, 3]");
  EXPECT_EQ(l.output, (Shape{1, 5, 3}));
  EXPECT_EQ(l.counts.macs, 45);
}

TEST(OpsConv2d, InputBytesCountThePositionsTheWindowsRead) {
  // ResNet-50's downsampling 1x1, stride 2 (DeepBench's conv_w56h56c256n16k128): output
  // 28 x 28, each window reads one pixel, so 256 x 28 x 28 = 200,704 of the 802,816 inputs.
  Layer pointwise = one_layer("[256, 56, 56]", "op = \"conv2d\"\nout_channels = 128\nkernel = 1\nstride = 2");
  EXPECT_EQ(pointwise.counts.input_elems, 802816);  // the tensor (activation memory, input gradient)
  EXPECT_EQ(pointwise.counts.unread_input_elems, 802816 - 200704);
  // 3x3, stride 2, padding 1 on 10: windows start at -1, 1, ..., 7 and reach 9: all read.
  Layer covering = one_layer("[3, 10, 10]", "op = \"conv2d\"\nout_channels = 4\nkernel = 3\nstride = 2\npadding = 1");
  EXPECT_EQ(covering.counts.unread_input_elems, 0);
  // 3x3, stride 2, no padding on 8: 3 windows per axis span positions 0..6; row and column 7 unread.
  Layer edge = one_layer("[1, 8, 8]", "op = \"conv2d\"\nout_channels = 1\nkernel = 3\nstride = 2");
  EXPECT_EQ(edge.counts.unread_input_elems, 64 - 49);
  // conv1d, kernel 2, stride 3, padding 1 on 10: out = (10 + 2 - 2) / 3 + 1 = 4 windows over the
  // padded positions {0,1}, {3,4}, {6,7}, {9,10}; input positions 0..9 are padded 1..10, so
  // inputs 0, 2, 3, 5, 6, 8, 9 are read (7), inputs 1, 4, 7 are not.
  Layer gaps = one_layer("[2, 10]", "op = \"conv1d\"\nout_channels = 1\nkernel = 2\nstride = 3\npadding = 1");
  EXPECT_EQ(gaps.output, (Shape{1, 4}));
  EXPECT_EQ(gaps.counts.unread_input_elems, 2 * 3);
}

TEST(OpsConvNd, Conv3dStridedOverHeightAndWidth) {
  // [2, 4, 6, 6], 3 kernels 3x3x3, stride [1, 2, 2], padding 1: Do = (4 + 2 - 3) / 1 + 1 = 4,
  // Ho = Wo = floor((6 + 2 - 3) / 2) + 1 = 3; 3 x 4 x 3 x 3 = 108 outputs, each reading
  // 2 x 27 = 54 inputs.
  Layer l = one_layer("[2, 4, 6, 6]", "op = \"conv3d\"\nout_channels = 3\nkernel = [3, 3, 3]\nstride = [1, 2, 2]\npadding = 1");
  EXPECT_EQ(l.output, (Shape{3, 4, 3, 3}));
  EXPECT_EQ(l.counts.macs, 5832);              // 108 x 54
  EXPECT_EQ(l.counts.params, 165);             // 3 x 54 weights + 3 biases
  EXPECT_EQ(l.counts.flops, 2 * 5832 + 108);   // + one bias add per output
  EXPECT_EQ(l.counts.gemm_positions, 36);      // 4 x 3 x 3 output positions
  EXPECT_EQ(l.counts.gemm_reduction, 54);
  EXPECT_EQ(l.op_class, OpClass::conv_kxk);
}

TEST(OpsConvNd, Conv1dGroupedWithoutBias) {
  // [4, 10], 8 kernels of 3 in 2 groups, stride 2: Lo = (10 - 3) / 2 + 1 = 4; each of
  // the 8 x 4 = 32 outputs reads 4 / 2 x 3 = 6 inputs.
  Layer l = one_layer("[4, 10]", "op = \"conv1d\"\nout_channels = 8\nkernel = 3\nstride = 2\ngroups = 2\nbias = false");
  EXPECT_EQ(l.output, (Shape{8, 4}));
  EXPECT_EQ(l.counts.macs, 192);   // 32 x 6
  EXPECT_EQ(l.counts.params, 48);  // 8 x 6
  EXPECT_EQ(l.counts.flops, 384);
}

TEST(OpsConvNd, PointwiseConv3dIsAOneByOne) {
  // torchvision r3d_18's downsample: 1x1x1 stride 2 on [64, 16, 56, 56] -> [128, 8, 28, 28].
  Layer l = one_layer("[64, 16, 56, 56]", "op = \"conv3d\"\nout_channels = 128\nkernel = 1\nstride = 2\nbias = false");
  EXPECT_EQ(l.output, (Shape{128, 8, 28, 28}));
  EXPECT_EQ(l.counts.macs, 51380224);  // 128 x 8 x 28 x 28 = 802,816 outputs x 64
  EXPECT_EQ(l.counts.params, 8192);    // 128 x 64
  EXPECT_EQ(l.op_class, OpClass::conv_1x1);
}

TEST(OpsConvNd, ConvTranspose3dDoublesEveryAxis) {
  // [2, 2, 3, 3], 4 kernels 2x2x2, stride 2: So = (S - 1) x 2 + (2 - 1) + 1 = 2S, so
  // [4, 4, 6, 6]; each of the 2 x 2 x 3 x 3 = 36 inputs is multiplied into 4 x 8 = 32 outputs.
  Layer l = one_layer("[2, 2, 3, 3]", "op = \"conv_transpose3d\"\nout_channels = 4\nkernel = 2\nstride = 2");
  EXPECT_EQ(l.output, (Shape{4, 4, 6, 6}));
  EXPECT_EQ(l.counts.macs, 1152);              // 36 x 32
  EXPECT_EQ(l.counts.params, 68);              // 2 x 32 weights + 4 biases
  EXPECT_EQ(l.counts.flops, 2 * 1152 + 576);   // + a bias add per output (4 x 4 x 6 x 6 = 576)
}

TEST(OpsConvNd, TheKernelHasOneSizePerSpatialAxis) {
  EXPECT_THROW(one_layer("[2, 4, 6, 6]", "op = \"conv3d\"\nout_channels = 3\nkernel = [3, 3]"), InputError);
  try {
    one_layer("[2, 6, 6]", "op = \"conv3d\"\nout_channels = 3\nkernel = 1");
    ADD_FAILURE() << "a conv3d of [C, H, W] was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("conv3d needs a [C, D, H, W] input, got 2x6x6"), std::string::npos) << e.what();
  }
  EXPECT_THROW(one_layer("[2, 6, 6]", "op = \"conv1d\"\nout_channels = 3\nkernel = 1"), InputError);
}

TEST(OpsConv2d, BadShapesAreLocatedErrors) {
  EXPECT_THROW(one_layer("[3, 8, 8]", "op = \"conv2d\"\nout_channels = 4\nkernel = 3\ngroups = 2"), InputError);
  EXPECT_THROW(one_layer("[3, 4, 4]", "op = \"conv2d\"\nout_channels = 4\nkernel = 5"), InputError);
  EXPECT_THROW(one_layer("[3, 4]", "op = \"conv2d\"\nout_channels = 4\nkernel = 1"), InputError);
  EXPECT_THROW(one_layer("[3, 8, 8]", "op = \"conv2d\"\nout_channels = 0\nkernel = 3"), InputError);
}

TEST(OpsLinear, OverTheLastDimension) {
  // [5, 6] (5 tokens of 6 features) -> 4 features: 5 rows x 6*4 weights.
  Layer l = one_layer("[5, 6]", "op = \"linear\"\nout_features = 4");
  EXPECT_EQ(l.output, (Shape{5, 4}));
  const LayerCounts& c = l.counts;
  EXPECT_EQ(c.macs, 120);             // 5*6*4
  EXPECT_EQ(c.params, 28);            // 6*4 + 4
  EXPECT_EQ(c.flops, 2 * 120 + 20);   // + 5*4 bias adds
  EXPECT_EQ(c.bwd_input_macs, 120);   // dX = dY W: 5*4*6
  EXPECT_EQ(c.bwd_weight_macs, 120);  // dW = dY^T X: 4*5*6
  EXPECT_EQ(c.bwd_weight_other_flops, 20);
  EXPECT_TRUE(c.saves_input);
}

TEST(OpsLinear, NoBiasAndTiedWeight) {
  Layer plain = one_layer("[6]", "op = \"linear\"\nout_features = 4\nbias = false");
  EXPECT_EQ(plain.counts.params, 24);
  EXPECT_EQ(plain.counts.flops, 48);
  // Tied to another layer of the same weight shape [4, 6]: the 24 weights are read but
  // not owned; the bias is owned.
  Model m = testing::model_of("[6]", R"(
[[layer]]
name = "a"
op = "linear"
out_features = 4
[[layer]]
name = "b"
op = "linear"
inputs = ["@input"]
out_features = 4
tied_to = "a"
)");
  EXPECT_EQ(m.layers[1].counts.params, 4);
  EXPECT_EQ(m.layers[1].counts.weight_elems, 28);
}

TEST(OpsLinear, DeclaredInFeaturesMustMatch) {
  EXPECT_NO_THROW(one_layer("[6]", "op = \"linear\"\nout_features = 4\nin_features = 6"));
  EXPECT_THROW(one_layer("[6]", "op = \"linear\"\nout_features = 4\nin_features = 5"), InputError);
}

}  // namespace
}  // namespace ridge
