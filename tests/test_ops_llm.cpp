// The decoder-LLM ops (rmsnorm, rotary, swiglu / geglu, attention) against counts worked
// out by hand from the formulas their files state.
#include <gtest/gtest.h>

#include "sim/workload/ops/ops.hpp"
#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::model_of;
using testing::one_layer;

TEST(OpsRmsnorm, CountsPerRow) {
  // [3, 4]: 3 rows of D = 4; per row 4D + 2 = 18 FLOPs; gamma only: 4 parameters.
  Layer l = one_layer("[3, 4]", "op = \"rmsnorm\"\neps = 1e-6");
  EXPECT_EQ(l.output, (Shape{3, 4}));
  EXPECT_EQ(l.counts.params, 4);
  EXPECT_EQ(l.counts.flops, 54);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 7 * 12);
  EXPECT_EQ(l.counts.saved_aux_bytes, 3 * 4);
  Layer bare = one_layer("[3, 4]", "op = \"rmsnorm\"\nelementwise_affine = false");
  EXPECT_EQ(bare.counts.params, 0);
  EXPECT_EQ(bare.counts.flops, 3 * (3 * 4 + 2));
}

TEST(OpsRotary, RotatesPairsAndReadsTheTable) {
  // [3, 8] = 3 tokens of 2 heads of 4: 24 elements x 3 FLOPs; reads cos and sin, 2 + 2
  // per position: 3 x 4 = 12 more input elements.
  Layer l = one_layer("[3, 8]", "op = \"rotary\"\nhead_dim = 4");
  EXPECT_EQ(l.counts.flops, 72);
  EXPECT_EQ(l.counts.input_elems, 24 + 12);
  EXPECT_EQ(l.counts.output_elems, 24);
  EXPECT_EQ(l.counts.params, 0);
  EXPECT_THROW(one_layer("[3, 8]", "op = \"rotary\"\nhead_dim = 3"), InputError);  // odd
  EXPECT_THROW(one_layer("[3, 10]", "op = \"rotary\"\nhead_dim = 4"), InputError);  // not whole heads
}

TEST(OpsGated, SwigluAndGeglu) {
  // gate and up [2, 5] -> [2, 5]: 10 elements x (activation 5 + multiply 1).
  for (const char* op : {"swiglu", "geglu"}) {
    Model m = model_of("[2, 3]", std::string(R"(
[[layer]]
name = "gate"
op = "linear"
out_features = 5
[[layer]]
name = "up"
op = "linear"
inputs = ["@input"]
out_features = 5
[[layer]]
name = "act"
op = ")") + op + R"("
inputs = ["gate", "up"]
)");
    const Layer& l = m.layers.back();
    EXPECT_EQ(l.output, (Shape{2, 5})) << op;
    EXPECT_EQ(l.counts.flops, 60) << op;
    EXPECT_EQ(l.op_class, OpClass::elementwise) << op;  // calibrated with the other elementwise kernels
    EXPECT_EQ(l.counts.input_elems, 20) << op;
    EXPECT_EQ(l.counts.output_elems, 10) << op;
    EXPECT_EQ(l.counts.bwd_input_other_flops, 130) << op;
  }
}

// q = the input [4, 8] (2 heads of 4); k and v [4, 4]: one shared K/V head (MQA).
std::string attention_model(const std::string& attrs) {
  return R"(
[[layer]]
name = "k"
op = "linear"
out_features = 4
[[layer]]
name = "v"
op = "linear"
inputs = ["@input"]
out_features = 4
[[layer]]
name = "attn"
op = "attention"
inputs = ["@input", "k", "v"]
heads = 2
kv_heads = 1
)" + attrs + "\n";
}

TEST(OpsAttention, UnfusedCausalCountsTheMaskedPairs) {
  // S = T = 4: P = 16 pairs per head, 32 in all. MACs 2 x d x 32 = 256. Other FLOPs:
  // 6 x 32 - 2 x heads x S = 176, plus the mask added to all 32 scores = 208.
  // Scores: 2 heads x 16 = 32 elements, written and read twice (scores, probabilities).
  Model m = model_of("[4, 8]", attention_model(""));
  const LayerCounts& c = m.layers.back().counts;
  EXPECT_EQ(m.layers.back().output, (Shape{4, 8}));
  EXPECT_EQ(c.macs, 256);
  EXPECT_EQ(m.layers.back().op_class, OpClass::attention);
  EXPECT_EQ(c.flops, 2 * 256 + 208);
  EXPECT_EQ(c.input_elems, 32 + 16 + 16 + 2 * 32);  // q, k, v, scores and probabilities
  EXPECT_EQ(c.output_elems, 32 + 2 * 32);
  EXPECT_EQ(c.kernels, 3);
  EXPECT_EQ(c.kv_elems_per_token, 2 * 1 * 4);
  EXPECT_EQ(c.params, 0);
}

TEST(OpsAttention, FusedSkippingTheMaskedHalf) {
  // Causal with skipping: P = S(S+1)/2 = 10 per head, 20 in all. MACs 2 x 4 x 20 = 160;
  // other 6 x 20 - 16 = 104. One kernel, no scores in memory.
  Model m = model_of("[4, 8]", attention_model("attention = \"fused\"\nskip_masked = true"));
  const LayerCounts& c = m.layers.back().counts;
  EXPECT_EQ(c.macs, 160);
  EXPECT_EQ(c.flops, 320 + 104);
  EXPECT_EQ(c.input_elems, 32 + 16 + 16);
  EXPECT_EQ(c.output_elems, 32);
  EXPECT_EQ(c.kernels, 1);
}

TEST(OpsAttention, DecodeAttendsToTheCache) {
  // One query token, 9 cached: T = 10 keys, P = 10 per head, 20 in all; fused, causal,
  // nothing above the diagonal to skip. MACs 2 x 4 x 20 = 160; other 6 x 20 - 2 x 2 x 1
  // + the mask 20 = 136.
  AttentionShape s;
  s.heads = 2;
  s.kv_heads = 1;
  s.head_dim = 4;
  s.queries = 1;
  s.fused = true;
  LayerCounts c = ops::attention_counts(s, 9);
  EXPECT_EQ(c.macs, 160);
  EXPECT_EQ(c.flops, 320 + 136);
  EXPECT_EQ(c.input_elems, 8 + 4 + 4);
}

TEST(OpsAttention, BadShapesAndHeads) {
  try {
    model_of("[4, 12]", R"(
[[layer]]
name = "attn"
op = "attention"
inputs = ["@input", "@input", "@input"]
heads = 4
kv_heads = 3
)");
    FAIL() << "kv_heads = 3 does not divide heads = 4";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kv_heads"), std::string::npos) << e.what();
  }
  EXPECT_THROW(model_of("[4, 8]", attention_model("skip_masked = true")), InputError);  // unfused cannot skip
  EXPECT_THROW(model_of("[4, 8]", attention_model("attention = \"flash\"")), InputError);
}

}  // namespace
}  // namespace ridge
