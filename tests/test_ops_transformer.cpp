// softmax, embedding, matmul, einsum and the layout ops (transpose, reshape, concat, select)
// against counts worked out by hand.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::model_of;
using testing::one_layer;

TEST(OpsSoftmax, OverTheLastDimension) {
  // [3, 4]: 3 rows of D = 4; per row max 3 + subtract 4 + exp 4 + sum 3 + divide 4 = 18.
  Layer l = one_layer("[3, 4]", "op = \"softmax\"");
  EXPECT_EQ(l.output, (Shape{3, 4}));
  EXPECT_EQ(l.counts.flops, 54);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 45);  // per row 4 mul + 3 add + 4 sub + 4 mul = 15
  EXPECT_TRUE(l.counts.saves_output);
  EXPECT_EQ(l.counts.macs, 0);
}

TEST(OpsEmbedding, ReadsOnlyTheGatheredRows) {
  // 10 x 4 table, 3 ids per sample -> [3, 4].
  Model m = model_of("[3]", "[[layer]]\nname = \"e\"\nop = \"embedding\"\nnum_embeddings = 10\nembedding_dim = 4\n");
  const Layer& l = m.layers[0];
  EXPECT_EQ(l.output, (Shape{3, 4}));
  EXPECT_EQ(l.counts.params, 40);  // V x D
  EXPECT_EQ(l.counts.macs, 0);
  EXPECT_EQ(l.counts.flops, 0);
  EXPECT_EQ(l.counts.gathered_weight_elems, 12);  // 3 rows of 4
  RunSettings s;
  s.batch = 5;
  LayerCost c = analyze_costs(m, s).layers[0];
  EXPECT_EQ(c.params, 40);
  EXPECT_EQ(c.weight_bytes, 5 * 12 * 4);  // batch x 3 rows x 4 x fp32, not the 40-element table
  EXPECT_EQ(c.input_bytes, 5 * 3 * 4);    // the ids
  EXPECT_EQ(c.output_bytes, 5 * 12 * 4);
  s.phase = Phase::training;
  // The weight gradient scatter-adds 12 values per sample; no input gradient.
  EXPECT_EQ(analyze_costs(m, s).layers[0].backward_flops, 5 * 12);
  EXPECT_THROW(one_layer("[3]", "op = \"embedding\"\nnum_embeddings = 10"), InputError);
}

TEST(OpsMatmul, BatchedWithTransposedOperand) {
  // A = input [2, 3, 4]; B = linear(A) [2, 3, 5]; A^T B: [2, 4, 3] x [2, 3, 5] -> [2, 4, 5],
  // K = 3: 2 x 4 x 5 x 3 = 120 MACs.
  Model m = model_of("[2, 3, 4]", R"(
[[layer]]
name = "b"
op = "linear"
out_features = 5
[[layer]]
name = "p"
op = "matmul"
inputs = ["@input", "b"]
transpose_a = true
)");
  const Layer& l = m.layers.back();
  EXPECT_EQ(l.output, (Shape{2, 4, 5}));
  EXPECT_EQ(l.counts.macs, 120);
  EXPECT_EQ(l.counts.flops, 240);
  EXPECT_EQ(l.counts.input_elems, 24 + 30);
  EXPECT_EQ(l.counts.output_elems, 40);
  EXPECT_EQ(l.counts.bwd_input_macs, 240);  // dA and dB, 120 each
  EXPECT_EQ(l.counts.bwd_weight_macs, 0);
  EXPECT_EQ(l.counts.params, 0);
  EXPECT_TRUE(l.counts.saves_input);
}

TEST(OpsMatmul, QueryTimesKeyTransposed) {
  // Q = K = [2, 3, 4] (2 heads, 3 tokens, 4 dims): Q K^T -> [2, 3, 3], 2*3*3*4 = 72 MACs.
  Layer l = model_of("[2, 3, 4]", R"(
[[layer]]
name = "k"
op = "relu"
[[layer]]
name = "s"
op = "matmul"
inputs = ["@input", "k"]
transpose_b = true
)").layers.back();
  EXPECT_EQ(l.output, (Shape{2, 3, 3}));
  EXPECT_EQ(l.counts.macs, 72);
}

TEST(OpsMatmul, ShapeMismatches) {
  const std::string two = "[[layer]]\nname = \"k\"\nop = \"relu\"\n[[layer]]\nname = \"s\"\nop = \"matmul\"\n"
                          "inputs = [\"@input\", \"k\"]\n";
  EXPECT_THROW(model_of("[2, 3, 4]", two), InputError);  // [3,4] x [3,4]: K 4 vs 3
  EXPECT_NO_THROW(model_of("[2, 4, 4]", two));
  EXPECT_THROW(model_of("[4]", two), InputError);  // rank 1
  // Leading dimensions broadcast as numpy's: [2, 3, 4] . [3, 4]^T is [2, 3, 3], 2 x 3 x 3 x 4
  // = 72 MACs; [3, 4, 4] and [2, 4, 4] (3 against 2) do not broadcast.
  const Layer l = model_of("[2, 3, 4]", "[[layer]]\nname = \"k\"\nop = \"select\"\nindex = 0\n"
                                        "[[layer]]\nname = \"s\"\nop = \"matmul\"\ninputs = [\"@input\", \"k\"]\n"
                                        "transpose_b = true\n").layers.back();
  EXPECT_EQ(l.output, (Shape{2, 3, 3}));
  EXPECT_EQ(l.counts.macs, 72);
  EXPECT_THROW(model_of("[3, 4, 4]", "[[layer]]\nname = \"k\"\nop = \"slice\"\naxes = [0]\nstarts = [0]\nends = [2]\n"
                                     "[[layer]]\nname = \"s\"\nop = \"matmul\"\ninputs = [\"@input\", \"k\"]\n"),
               InputError);
}

TEST(OpsEinsum, ARelativePositionProductCountsEveryLetter) {
  // MViT's decomposed relative position, per sample: q [h 2, w 3, c 4] (the input) by a
  // learned R [h 2, k 5, c 4] ("hwc,hkc->hwk"): h a batch letter, c contracted, w and k
  // free. Output [2, 3, 5]; MACs = h x w x c x k = 2 x 3 x 4 x 5 = 120, each output element
  // a sum over c = 4 (30 x 4); R's 40 elements are parameters.
  Model m = model_of("[2, 3, 4]", R"(
[[layer]]
name = "r"
op = "parameter"
shape = [2, 5, 4]
[[layer]]
name = "e"
op = "einsum"
inputs = ["@input", "r"]
equation = "hwc,hkc->hwk"
)");
  const Layer& l = m.layers.back();
  EXPECT_EQ(l.output, (Shape{2, 3, 5}));
  EXPECT_EQ(l.counts.macs, 120);
  EXPECT_EQ(l.counts.flops, 240);
  EXPECT_EQ(l.counts.input_elems, 24 + 40);
  EXPECT_EQ(l.counts.output_elems, 30);
  EXPECT_EQ(l.counts.bwd_input_macs, 240);  // each operand's gradient, 120 each
  EXPECT_TRUE(l.counts.saves_input);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.params, 40);
}

TEST(OpsEinsum, MalformedEquationsAndShapesAreRefused) {
  const std::string with_r = "[[layer]]\nname = \"r\"\nop = \"parameter\"\nshape = [2, 5, 4]\n"
                             "[[layer]]\nname = \"e\"\nop = \"einsum\"\ninputs = [\"@input\", \"r\"]\nequation = ";
  EXPECT_NO_THROW(model_of("[2, 3, 4]", with_r + "\"hwc,hkc->hwk\"\n"));
  for (const char* bad : {"\"hwc,hkc\"",            // no output
                          "\"...c,hkc->...k\"",     // broadcast axes
                          "\"hhc,hkc->hk\"",        // a diagonal
                          "\"hwc,hkc->hwkz\"",      // an output letter in neither operand
                          "\"hwc,hkc->hk\"",        // w summed in operand 1 alone
                          "\"hw1,hk1->hwk\"",       // not a letter
                          "\"hwc,hkc,c->hwk\""}) {  // three operands
    EXPECT_THROW(model_of("[2, 3, 4]", with_r + bad + "\n"), InputError) << bad;
  }
  // The input's c is 4, R's is 4, but its h is 2 against the input's 3 here; and a rank
  // that is not the term's.
  EXPECT_THROW(model_of("[3, 3, 4]", with_r + "\"hwc,hkc->hwk\"\n"), InputError);
  EXPECT_THROW(model_of("[2, 3, 4, 1]", with_r + "\"hwc,hkc->hwk\"\n"), InputError);
}

TEST(OpsTranspose, PermutesAndMovesEveryElement) {
  Layer l = one_layer("[2, 3, 4]", "op = \"transpose\"\nperm = [2, 0, 1]");
  EXPECT_EQ(l.output, (Shape{4, 2, 3}));
  EXPECT_EQ(l.counts.input_elems, 24);
  EXPECT_EQ(l.counts.output_elems, 24);
  EXPECT_EQ(l.counts.flops, 0);
  EXPECT_FALSE(l.counts.is_view);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"transpose\"\nperm = [0, 0, 1]"), InputError);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"transpose\"\nperm = [0, 1, 3]"), InputError);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"transpose\"\nperm = [1, 0]"), InputError);
}

TEST(OpsReshape, InfersOneDimensionAndIsAView) {
  Layer l = one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [4, -1]");  // 24 / 4 = 6
  EXPECT_EQ(l.output, (Shape{4, 6}));
  EXPECT_TRUE(l.counts.is_view);
  EXPECT_EQ(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [6, 2, 2]").output, (Shape{6, 2, 2}));
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [5, -1]"), InputError);  // 5 does not divide 24
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [5, 5]"), InputError);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [-1, -1]"), InputError);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [0, 24]"), InputError);
  EXPECT_THROW(one_layer("[2, 3, 4]", "op = \"reshape\"\nshape = [-2, -12]"), InputError);
}

TEST(OpsConcat, JoinsAlongAnAxis) {
  // [2, 3] and linear -> [2, 5], joined on the last axis: [2, 8], 16 elements read and written.
  const std::string body = "[[layer]]\nname = \"b\"\nop = \"linear\"\nout_features = 5\n"
                           "[[layer]]\nname = \"c\"\nop = \"concat\"\ninputs = [\"@input\", \"b\"]\n";
  Layer l = model_of("[2, 3]", body + "axis = -1\n").layers.back();
  EXPECT_EQ(l.output, (Shape{2, 8}));
  EXPECT_EQ(l.counts.input_elems, 16);
  EXPECT_EQ(l.counts.output_elems, 16);
  EXPECT_EQ(l.counts.flops, 0);
  EXPECT_EQ(model_of("[2, 3]", body + "axis = 1\n").layers.back().output, (Shape{2, 8}));
  EXPECT_THROW(model_of("[2, 3]", body + "axis = 0\n"), InputError);  // 3 vs 5 off the axis
  EXPECT_THROW(model_of("[2, 3]", body + "axis = 2\n"), InputError);
}

TEST(OpsSelect, DropsTheAxis) {
  Layer l = one_layer("[4, 6]", "op = \"select\"\naxis = 0\nindex = 0");
  EXPECT_EQ(l.output, (Shape{6}));
  EXPECT_TRUE(l.counts.is_view);
  EXPECT_EQ(one_layer("[4, 6]", "op = \"select\"\naxis = 1\nindex = -1").output, (Shape{4}));
  EXPECT_THROW(one_layer("[4, 6]", "op = \"select\"\nindex = 4"), InputError);
  EXPECT_THROW(one_layer("[4, 6]", "op = \"select\"\naxis = 2\nindex = 0"), InputError);
}

}  // namespace
}  // namespace ridge
