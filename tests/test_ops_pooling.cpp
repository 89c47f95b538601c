// Pooling against counts worked out by hand. A max over k elements is k-1
// comparisons; an average is k-1 adds + 1 divide = k FLOPs.
#include <gtest/gtest.h>

#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::one_layer;

TEST(OpsPooling, MaxPool) {
  // [2, 7, 7], 3x3 stride 2: Ho = (7-3)/2 + 1 = 3; 2*3*3 = 18 outputs of 9 elements.
  Layer l = one_layer("[2, 7, 7]", "op = \"max_pool2d\"\nkernel = 3\nstride = 2");
  EXPECT_EQ(l.output, (Shape{2, 3, 3}));
  EXPECT_EQ(l.counts.flops, 144);               // 18 x (9 - 1)
  EXPECT_EQ(l.counts.saved_aux_bytes, 144);     // 18 int64 argmax indices
  EXPECT_EQ(l.counts.bwd_input_other_flops, 18);  // one scatter per output
  EXPECT_EQ(l.counts.macs, 0);
}

TEST(OpsPooling, StrideDefaultsToKernel) {
  Layer l = one_layer("[1, 6, 6]", "op = \"max_pool2d\"\nkernel = 2");  // (6-2)/2 + 1 = 3
  EXPECT_EQ(l.output, (Shape{1, 3, 3}));
}

TEST(OpsPooling, CeilMode) {
  // [1, 8, 8], 3x3 stride 2: floor((8-3)/2) + 1 = 3, ceil((8-3)/2) + 1 = 4.
  EXPECT_EQ(one_layer("[1, 8, 8]", "op = \"max_pool2d\"\nkernel = 3\nstride = 2").output, (Shape{1, 3, 3}));
  EXPECT_EQ(one_layer("[1, 8, 8]", "op = \"max_pool2d\"\nkernel = 3\nstride = 2\nceil_mode = true").output,
            (Shape{1, 4, 4}));
  // [1, 5, 5], 3x3 stride 3 padding 1: ceil((5+2-3)/3) + 1 = 3, but the third window
  // would start at 2*3 = 6 >= 5 + 1, in the right padding, so PyTorch drops it: 2.
  EXPECT_EQ(
      one_layer("[1, 5, 5]", "op = \"max_pool2d\"\nkernel = 3\nstride = 3\npadding = 1\nceil_mode = true").output,
      (Shape{1, 2, 2}));
}

TEST(OpsPooling, AvgPool) {
  // [1, 4, 4], 2x2: 4 outputs, each 3 adds + 1 divide.
  Layer l = one_layer("[1, 4, 4]", "op = \"avg_pool2d\"\nkernel = 2");
  EXPECT_EQ(l.output, (Shape{1, 2, 2}));
  EXPECT_EQ(l.counts.flops, 16);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 16);
  EXPECT_TRUE(l.counts.saves_input);  // PyTorch's avg_pool2d backward keeps `self`
  EXPECT_EQ(l.counts.saved_aux_bytes, 0);  // no indices
}

TEST(OpsPooling, Adaptive) {
  // [1, 5, 5] to 3x3: cell i covers [floor(5i/3), ceil(5(i+1)/3)): [0,2), [1,4), [3,5),
  // windows 2, 3, 2 per axis, sum 7; over the grid 7 x 7 = 49 elements.
  Layer avg = one_layer("[1, 5, 5]", "op = \"adaptive_avg_pool2d\"\noutput_size = 3");
  EXPECT_EQ(avg.output, (Shape{1, 3, 3}));
  EXPECT_EQ(avg.counts.flops, 49);  // 49 adds-or-divides
  Layer mx = one_layer("[1, 5, 5]", "op = \"adaptive_max_pool2d\"\noutput_size = [3, 3]");
  EXPECT_EQ(mx.counts.flops, 40);  // 49 - 9 outputs
}

TEST(OpsPooling, GlobalAverage) {
  Layer l = one_layer("[3, 4, 4]", "op = \"global_avg_pool2d\"");
  EXPECT_EQ(l.output, (Shape{3, 1, 1}));
  EXPECT_EQ(l.counts.flops, 48);  // 3 x (15 adds + 1 divide)
}

TEST(OpsPooling, BadInputs) {
  EXPECT_THROW(one_layer("[1, 2, 2]", "op = \"max_pool2d\"\nkernel = 3"), InputError);  // window > input
  EXPECT_THROW(one_layer("[4, 4]", "op = \"max_pool2d\"\nkernel = 2"), InputError);     // not [C, H, W]
  EXPECT_THROW(one_layer("[1, 4, 4]", "op = \"max_pool2d\""), InputError);              // no kernel
}

}  // namespace
}  // namespace ridge
