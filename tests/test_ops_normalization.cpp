// batchnorm, local response norm and layernorm against counts worked out by hand.
#include <gtest/gtest.h>

#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::one_layer;

TEST(OpsBatchnorm, Counts) {
  // [4, 3, 3]: 36 elements, 4 channels.
  Layer l = one_layer("[4, 3, 3]", "op = \"batchnorm\"");
  const LayerCounts& c = l.counts;
  EXPECT_EQ(c.params, 8);                   // gamma, beta per channel
  EXPECT_EQ(c.flops, 72);                   // 2 per element (scale and shift)
  EXPECT_EQ(c.bwd_input_other_flops, 216);  // 6 per element
  EXPECT_EQ(c.bwd_weight_other_flops, 108);  // 3 per element
  EXPECT_EQ(c.saved_aux_bytes, 0);           // per-step statistics are not per-sample aux (see the op)
  EXPECT_EQ(one_layer("[4, 3, 3]", "op = \"batchnorm\"\naffine = false").counts.params, 0);
  EXPECT_THROW(one_layer("[4, 3, 3]", "op = \"batchnorm\"\nnum_features = 5"), InputError);
}

TEST(OpsBatchnorm, OverOneAndThreeSpatialAxes) {
  // BatchNorm1d on [6, 10] and BatchNorm3d on [4, 2, 3, 3]: the channels are dim 0 either way.
  Layer b1 = one_layer("[6, 10]", "op = \"batchnorm\"");
  EXPECT_EQ(b1.counts.params, 12);  // 2 x 6 channels
  EXPECT_EQ(b1.counts.flops, 120);  // 2 x 60 elements
  Layer b3 = one_layer("[4, 2, 3, 3]", "op = \"batchnorm\"");
  EXPECT_EQ(b3.counts.params, 8);
  EXPECT_EQ(b3.counts.flops, 144);  // 2 x 72 elements
}

TEST(OpsLocalResponseNorm, Counts) {
  // size 5: per element 5 squares + 4 adds + 2 (k + alpha/n * sum) + power + divide = 13.
  Layer l = one_layer("[6, 2, 2]", "op = \"local_response_norm\"\nsize = 5");
  EXPECT_EQ(l.counts.flops, 24 * 13);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 2 * 24 * 13);
}

TEST(OpsLayernorm, Counts) {
  // [3, 4]: 3 rows of D = 4. Per row 5D + 2 = 22 (mean 4, centre 4, variance 8,
  // eps + rsqrt 2, normalise 4), then gamma and beta 2 per element: 3*22 + 12*2 = 90.
  Layer l = one_layer("[3, 4]", "op = \"layernorm\"\neps = 1e-12");
  const LayerCounts& c = l.counts;
  EXPECT_EQ(l.output, (Shape{3, 4}));
  EXPECT_EQ(c.params, 8);  // 2D
  EXPECT_EQ(c.weight_elems, 8);
  EXPECT_EQ(c.flops, 90);
  EXPECT_EQ(c.bwd_input_other_flops, 120);  // 10 per element
  EXPECT_EQ(c.bwd_weight_other_flops, 36);  // 3 per element
  EXPECT_EQ(c.saved_aux_bytes, 24);         // 3 rows x (mean, rstd) x 4 B
  EXPECT_TRUE(c.saves_input);
  // Without beta: params D, flops 3*22 + 12 = 78; without affine: 66 and no weight gradient.
  Layer no_bias = one_layer("[3, 4]", "op = \"layernorm\"\nbias = false");
  EXPECT_EQ(no_bias.counts.params, 4);
  EXPECT_EQ(no_bias.counts.flops, 78);
  Layer plain = one_layer("[3, 4]", "op = \"layernorm\"\nelementwise_affine = false");
  EXPECT_EQ(plain.counts.params, 0);
  EXPECT_EQ(plain.counts.flops, 66);
  EXPECT_EQ(plain.counts.bwd_input_other_flops, 108);  // 9 per element
  EXPECT_EQ(plain.counts.bwd_weight_other_flops, 0);
}

TEST(OpsLayernorm, BadValues) {
  EXPECT_THROW(one_layer("[3, 4]", "op = \"layernorm\"\nnormalized_shape = 3"), InputError);
  EXPECT_THROW(one_layer("[3, 4]", "op = \"layernorm\"\neps = 0"), InputError);
}

}  // namespace
}  // namespace ridge
