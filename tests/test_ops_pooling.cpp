// Pooling (1-, 2- and 3-D) and resizing against counts worked out by hand. A max over k elements is k-1
// comparisons; an average is k-1 adds + 1 divide = k FLOPs; only the window's taps
// inside the input count (PyTorch's CPU kernels clip each window to the input).
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/base/floor_sum.hpp"
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

TEST(OpsPooling, PaddedWindowsCountTheirTapsInsideTheInput) {
  // [1, 4, 4], 3x3 stride 1 padding 1: 4 x 4 outputs. Along an axis the windows
  // [-1, 1], [0, 2], [1, 3], [2, 4] hold 2, 3, 3, 2 input rows: 10. Over the grid
  // 10 x 10 = 100 taps inside, against 16 x 9 = 144 with the padding.
  Layer mx = one_layer("[1, 4, 4]", "op = \"max_pool2d\"\nkernel = 3\nstride = 1\npadding = 1");
  EXPECT_EQ(mx.output, (Shape{1, 4, 4}));
  EXPECT_EQ(mx.counts.flops, 84);  // 100 - 16 outputs
  Layer avg = one_layer("[1, 4, 4]", "op = \"avg_pool2d\"\nkernel = 3\nstride = 1\npadding = 1");
  EXPECT_EQ(avg.counts.flops, 100);  // 84 adds + 16 divides
  EXPECT_EQ(avg.counts.bwd_input_other_flops, 100);  // the gradient spread over the same taps
}

TEST(OpsPooling, CeilModeWindowsStopAtTheInputsEnd) {
  // [2, 8, 8], 3x3 stride 2, ceil mode: 4 x 4 outputs; along an axis the windows start
  // at 0, 2, 4, 6 and the last covers 6, 7 and the missing 8: 3 + 3 + 3 + 2 = 11.
  Layer l = one_layer("[2, 8, 8]", "op = \"max_pool2d\"\nkernel = 3\nstride = 2\nceil_mode = true");
  EXPECT_EQ(l.counts.flops, 2 * (11 * 11 - 16));  // 210, not 2 x 16 x 8 = 256
}

TEST(OpsPooling, GoogLeNetInceptionPool) {
  // torchvision googlenet, inception5a's branch 4: MaxPool2d(3, stride 1, padding 1,
  // ceil_mode) on [832, 7, 7]. Per axis 2 + 5 x 3 + 2 = 19 taps; 832 x (19^2 - 49) =
  // 259,584 comparisons, against 832 x 49 x 8 = 326,144 counting the padding.
  Layer l = one_layer("[832, 7, 7]", "op = \"max_pool2d\"\nkernel = 3\nstride = 1\npadding = 1\nceil_mode = true");
  EXPECT_EQ(l.output, (Shape{832, 7, 7}));
  EXPECT_EQ(l.counts.flops, 259584);
}

TEST(OpsPooling, DilatedWindowWithNoTapInside) {
  // [1, 1, 1], kernel 2, dilation 2, padding 1: one window, taps at -1 and 1, neither
  // inside: PyTorch returns -inf there, having compared nothing.
  Layer l = one_layer("[1, 1, 1]", "op = \"max_pool2d\"\nkernel = 2\ndilation = 2\npadding = 1");
  EXPECT_EQ(l.output, (Shape{1, 1, 1}));
  EXPECT_EQ(l.counts.flops, 0);
}

TEST(OpsPooling, MaxPool3d) {
  // [2, 4, 4, 4], 2x2x2 windows, stride = kernel: [2, 2, 2, 2], 16 outputs of 8 taps.
  Layer l = one_layer("[2, 4, 4, 4]", "op = \"max_pool3d\"\nkernel = 2");
  EXPECT_EQ(l.output, (Shape{2, 2, 2, 2}));
  EXPECT_EQ(l.counts.flops, 112);            // 16 x (8 - 1)
  EXPECT_EQ(l.counts.saved_aux_bytes, 128);  // 16 int64 argmax indices
}

TEST(OpsPooling, AvgPool1dWithPadding) {
  // [3, 5], kernel 3 stride 1 padding 1: 5 outputs whose windows [-1, 1], [0, 2], [1, 3],
  // [2, 4], [3, 5] hold 2, 3, 3, 3, 2 inputs: 13 per channel.
  Layer l = one_layer("[3, 5]", "op = \"avg_pool1d\"\nkernel = 3\nstride = 1\npadding = 1");
  EXPECT_EQ(l.output, (Shape{3, 5}));
  EXPECT_EQ(l.counts.flops, 39);  // 3 x 13
}

TEST(OpsPooling, AdaptiveAndGlobalOver3dAnd1d) {
  // To one cell every input is added once: 2 x 3 x 4 x 5 = 120 adds and divides.
  Layer a = one_layer("[2, 3, 4, 5]", "op = \"adaptive_avg_pool3d\"\noutput_size = 1");
  EXPECT_EQ(a.output, (Shape{2, 1, 1, 1}));
  EXPECT_EQ(a.counts.flops, 120);
  Layer g = one_layer("[2, 3, 4, 5]", "op = \"global_avg_pool3d\"");
  EXPECT_EQ(g.output, (Shape{2, 1, 1, 1}));
  EXPECT_EQ(g.counts.flops, 120);
  Layer g1 = one_layer("[4, 7]", "op = \"global_avg_pool1d\"");
  EXPECT_EQ(g1.output, (Shape{4, 1}));
  EXPECT_EQ(g1.counts.flops, 28);
  // [1, 4, 6, 6] to [2, 3, 3]: per axis the windows of 4 -> 2 cover 2 + 2 = 4, of 6 -> 3
  // cover 2 + 2 + 2 = 6; 4 x 6 x 6 = 144 taps (every input once), 18 outputs.
  Layer m = one_layer("[1, 4, 6, 6]", "op = \"adaptive_max_pool3d\"\noutput_size = [2, 3, 3]");
  EXPECT_EQ(m.output, (Shape{1, 2, 3, 3}));
  EXPECT_EQ(m.counts.flops, 144 - 18);
}

TEST(OpsResize, LinearBlendsTwoToTheRankNeighbours) {
  // Bilinear: 4 multiplies + 3 adds per output; trilinear 8 + 7; linear 2 + 1.
  Layer r2 = one_layer("[2, 3, 4]", "op = \"resize\"\nsize = [6, 8]\nmode = \"linear\"");
  EXPECT_EQ(r2.output, (Shape{2, 6, 8}));
  EXPECT_EQ(r2.counts.flops, 7 * 96);
  Layer r3 = one_layer("[2, 2, 3, 4]", "op = \"resize\"\nsize = [4, 6, 8]\nmode = \"linear\"");
  EXPECT_EQ(r3.output, (Shape{2, 4, 6, 8}));
  EXPECT_EQ(r3.counts.flops, 15 * 384);  // 2 x 4 x 6 x 8 = 384 outputs
  Layer r1 = one_layer("[3, 4]", "op = \"resize\"\nsize = 8\nmode = \"linear\"");
  EXPECT_EQ(r1.output, (Shape{3, 8}));
  EXPECT_EQ(r1.counts.flops, 3 * 24);
  EXPECT_EQ(one_layer("[2, 2, 3, 4]", "op = \"resize\"\nsize = [4, 6, 8]").counts.flops, 0);  // nearest: copies
}

// Taps inside the input, enumerated window by window: the reference for the closed form.
int64_t taps_inside_by_enumeration(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t out) {
  int64_t n = 0;
  for (int64_t o = 0; o < out; ++o)
    for (int64_t j = 0; j < k; ++j) n += (o * s - p + j * d >= 0 && o * s - p + j * d < in);
  return n;
}

TEST(OpsPooling, TapsInsideAgreeWithEnumeration) {
  // Every 1-D window on a [1, 1, W] input for small W, kernel, stride, padding and
  // dilation: avg_pool (no dilation) counts the taps inside; a max pool with every
  // window non-empty counts them less its outputs.
  int checked = 0;
  for (int64_t in = 1; in <= 9; ++in)
    for (int64_t k = 1; k <= 5; ++k)
      for (int64_t s = 1; s <= 4; ++s)
        for (int64_t p = 0; p <= k / 2; ++p)
          for (int64_t d = 1; d <= 3; ++d)
            for (bool ceil : {false, true}) {
              if (d * (k - 1) + 1 > in + 2 * p) continue;  // window larger than the padded input
              std::string attrs = "op = \"max_pool2d\"\nkernel = [1, " + std::to_string(k) + "]\nstride = [1, " +
                                  std::to_string(s) + "]\npadding = [0, " + std::to_string(p) + "]\ndilation = [1, " +
                                  std::to_string(d) + "]\nceil_mode = " + (ceil ? "true" : "false");
              Layer l = one_layer("[1, 1, " + std::to_string(in) + "]", attrs);
              int64_t out = l.output[2], inside = taps_inside_by_enumeration(in, k, s, p, d, out), windows = 0;
              for (int64_t o = 0; o < out; ++o) windows += taps_inside_by_enumeration(in, k, s, p - o * s, d, 1) > 0;
              EXPECT_EQ(l.counts.flops, inside - windows) << attrs << " on " << in;
              ++checked;
            }
  EXPECT_GT(checked, 1000);
}

TEST(OpsPooling, KernelAsLongAsTheInputIsCountedWithoutWalkingIt) {
  // W = 2^40, kernel 2^40, padding and stride 2^39: windows start at -2^39, 0 and 2^39,
  // holding 2^39, 2^40 and 2^39 taps inside: 2^41, less 3 outputs.
  const std::string n = std::to_string(int64_t{1} << 40), half = std::to_string(int64_t{1} << 39);
  Layer l = one_layer("[1, 1, " + n + "]", "op = \"max_pool2d\"\nkernel = [1, " + n + "]\nstride = [1, " + half +
                                               "]\npadding = [0, " + half + "]");
  EXPECT_EQ(l.output, (Shape{1, 1, 3}));
  EXPECT_EQ(l.counts.flops, (int64_t{1} << 41) - 3);
}

TEST(FloorSum, AgreesWithTheLoop) {
  for (int64_t n = 0; n <= 12; ++n)
    for (int64_t m = 1; m <= 9; ++m)
      for (int64_t a = 0; a <= 20; ++a)
        for (int64_t b = 0; b <= 20; ++b) {
          int64_t loop = 0;
          for (int64_t i = 0; i < n; ++i) loop += (a * i + b) / m;
          ASSERT_EQ(floor_sum(n, m, a, b), loop) << n << " " << m << " " << a << " " << b;
        }
}

TEST(FloorSum, LongSumsAndOverflow) {
  // sum_{i < 2^31} floor(i / 2) = 2 x (0 + 1 + ... + (2^30 - 1)) = 2^30 (2^30 - 1).
  EXPECT_EQ(floor_sum(int64_t{1} << 31, 2, 1, 0), (int64_t{1} << 30) * ((int64_t{1} << 30) - 1));
  // n = 2^40 terms of 2^30 each: 2^70, past 2^63.
  EXPECT_THROW(floor_sum(int64_t{1} << 40, 1, 0, int64_t{1} << 30), CountOverflow);
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
