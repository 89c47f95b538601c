// Mixture of experts: the moe op's counts, the expected number of experts a step's
// tokens touch, and the zoo's mixtral-8x7b against its published parameter counts, all
// worked out by hand.
#include <gtest/gtest.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/model_query.hpp"
#include "sim/workload/busiest_expert_rank.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/ops/ops.hpp"
#include "tests/model_text.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

using testing::model_of;

// x [3, 4] (3 tokens, hidden 4), a router to 4 experts, top 2, experts of I = 5.
std::string moe_layers(const std::string& extra = "", int top_k = 2) {
  return R"(
[[layer]]
name = "router"
op = "linear"
out_features = 4
bias = false
[[layer]]
name = "experts"
op = "moe"
inputs = ["@input", "router"]
num_experts = 4
intermediate_size = 5
top_k = )" + std::to_string(top_k) + "\n" + extra;
}

TEST(OpsMoe, CountsPerToken) {
  // One expert: gate, up [5, 4] and down [4, 5] = 3 x 4 x 5 = 60 weights; 4 experts 240.
  // Per token, k = 2, E = 4, h = 4, I = 5:
  //   macs  2 x 60 = 120
  //   flops 2 x 120 + softmax 5x4-2 = 18 + top-k 2 x 3 = 6 + renormalise 3 + gated
  //         activation 6 x 2 x 5 = 60 + weighted sum 3 x 4 = 12: 339
  //   input  E + 4k + 2kh + 3kI = 4 + 8 + 16 + 30 = 58
  //   output 3k + 3kI + kh + h  = 6 + 30 + 8 + 4  = 48
  Model m = model_of("[3, 4]", moe_layers());
  const Layer& l = m.layers.back();
  EXPECT_EQ(l.output, (Shape{3, 4}));
  EXPECT_EQ(l.counts.params, 240);
  EXPECT_EQ(l.counts.macs, 3 * 120);
  EXPECT_EQ(l.counts.flops, 3 * 339);
  EXPECT_EQ(l.counts.input_elems, 3 * 58);
  EXPECT_EQ(l.counts.output_elems, 3 * 48);
  EXPECT_EQ(l.counts.kernels, 6);
  // Active per token: the router's 16 and 2 of the 4 experts, 120.
  CostAnalysis a = analyze_costs(m, RunSettings{});
  EXPECT_EQ(a.totals.params, 16 + 240);
  EXPECT_EQ(a.totals.active_params, 16 + 120);
}

TEST(OpsMoe, ExpectedExpertsTouched) {
  // E (1 - (1 - k/E)^T). One token reads exactly its k experts.
  EXPECT_DOUBLE_EQ(ops::expected_experts_touched(8, 2, 1), 2.0);
  // Four tokens, 2 of 8: 8 (1 - (3/4)^4) = 8 x 175/256 = 5.46875.
  EXPECT_NEAR(ops::expected_experts_touched(8, 2, 4), 5.46875, 1e-12);
  // A prefill of 1024 tokens touches all 8 ((3/4)^1024 is about 1e-128).
  EXPECT_DOUBLE_EQ(ops::expected_experts_touched(8, 2, 1024), 8.0);
  // k = E: every expert, from the first token.
  EXPECT_DOUBLE_EQ(ops::expected_experts_touched(4, 4, 1), 4.0);
  EXPECT_EQ(ops::expected_experts_touched(8, 2, 0), 0.0);
}

TEST(OpsMoe, WeightsReadAreTheExpertsTheStepTouches) {
  // The 3-token model at fp32: batch 1 is T = 3 tokens, 4 (1 - (1/2)^3) = 3.5 experts of
  // 60 weights x 4 B = 840 B, + the router's 16 x 4 = 64 B. Batch 2, T = 6:
  // 4 (1 - 1/64) = 3.9375 experts, 945 B + 64 B.
  Model m = model_of("[3, 4]", moe_layers());
  RunSettings s;
  EXPECT_EQ(analyze_costs(m, s).layers.back().weight_bytes, 840);
  s.batch = 2;
  EXPECT_EQ(analyze_costs(m, s).layers.back().weight_bytes, 945);
  EXPECT_EQ(analyze_costs(m, s).totals.weight_bytes, 945 + 64);
}

TEST(OpsMoe, BadInput) {
  EXPECT_THROW(model_of("[3, 4]", moe_layers() + "[[layer]]\nname = \"y\"\nop = \"moe\"\ninputs = [\"@input\", \"router\"]\n"
                                                 "num_experts = 8\ntop_k = 2\nintermediate_size = 5\n"),
               InputError);  // the router gives 4 logits, not 8
  try {
    model_of("[3, 4]", moe_layers("", 5));
    FAIL() << "top_k = 5 of 4 experts";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("top_k"), std::string::npos) << e.what();
  }
}

TEST(ZooMoe, MixtralPublishedParameterCounts) {
  // Mixtral-8x7B: 46,702,792,704 parameters, the count of mistralai/Mixtral-8x7B-v0.1's
  // weights (its Hugging Face model card: "46.7B params"; Mistral AI, "Mixtral of
  // experts", 2023: "46.7B total parameters but only uses 12.9B parameters per token").
  // By hand from its config.json (hidden 4096, intermediate 14336, 32 layers, 32 heads,
  // 8 KV heads of 128, 8 experts, top 2, vocab 32000, untied lm_head, rmsnorm):
  //   embeddings and lm_head 2 x 32000 x 4096             =    262,144,000
  //   per layer: q, o 2 x 4096^2 + k, v 2 x 4096 x 1024    =     41,943,040
  //              router 4096 x 8                           =         32,768
  //              experts 8 x 3 x 4096 x 14336              =  1,409,286,144
  //              two rmsnorms                              =          8,192
  //              together 1,451,270,144, x 32              = 46,440,644,608
  //   final norm                                           =          4,096
  //   total                                                = 46,702,792,704
  // Active per token: 6 of the 8 experts idle, 6 x 176,160,768 x 32 = 33,822,867,456
  // fewer: 12,879,925,248 (the published 12.9B).
  Model m = load_model("mixtral-8x7b");
  CostAnalysis a = analyze_costs(m, RunSettings{});
  EXPECT_EQ(a.totals.params, 46'702'792'704);
  EXPECT_EQ(a.totals.active_params, 12'879'925'248);
  // MACs per token: router 32,768 + 2 experts x 176,160,768 = 352,354,304 per layer.
  Model one = load_model("mixtral-8x7b", 1);
  CostAnalysis d = analyze_costs(one, RunSettings{});
  EXPECT_EQ(d.layers[one.find("layers.0.router")].macs + d.layers[one.find("layers.0.experts")].macs, 352'354'304);
}

TEST(ZooMoe, MixtralDecodeReadsTwoExpertsPrefillAllEight) {
  // Decode, batch 1, fp16, context 1024: the one token reads its 2 experts per layer,
  // 2 x 176,160,768 x 2 B = 704,643,072 B. The whole step reads the active parameters
  // less the embedding table plus the one row looked up:
  // (12,879,925,248 - 131,072,000 + 4,096) x 2 B = 25,497,714,688 B.
  Model one = load_model("mixtral-8x7b", 1);
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 1024;
  s.dtype = DType::fp16;
  CostAnalysis d = analyze_costs(one, s);
  EXPECT_EQ(d.layers[one.find("layers.0.experts")].weight_bytes, 704'643'072);
  EXPECT_EQ(d.totals.weight_bytes, 25'497'714'688);
  // KV cache as Mistral-7B's (8 KV heads): 1025 tokens x 2 x 8 x 128 x 2 B per layer.
  EXPECT_EQ(d.totals.kv_bytes, 32LL * 1025 * 4096);
  // int4 expert weights: one expert's 176,160,768 weights at 4 bits + one fp16 scale per
  // 128 = 88,080,384 + 2,752,512 B; two of them 181,665,792 B.
  RunSettings q = s;
  q.weight_format = WeightFormat::int4;
  EXPECT_EQ(analyze_costs(one, q).layers[one.find("layers.0.experts")].weight_bytes, 181'665'792);
  // Batch 4 (T = 4 tokens): 5.46875 experts of 352,321,536 B = 1,926,758,400 B.
  s.batch = 4;
  EXPECT_EQ(analyze_costs(one, s).layers[one.find("layers.0.experts")].weight_bytes, 1'926'758'400);
  // Prefill of 1024 tokens: all 8, 8 x 352,321,536 = 2,818,572,288 B.
  Model pre = load_model("mixtral-8x7b", 1024);
  RunSettings p;
  p.phase = Phase::prefill;
  p.dtype = DType::fp16;
  EXPECT_EQ(analyze_costs(pre, p).layers[pre.find("layers.0.experts")].weight_bytes, 2'818'572'288);
}

TEST(ZooMoe, TheBusiestExpertRankComputesImbalanceTimesTheMeanRanksPairs) {
  // One of 8 expert-parallel ranks of Mixtral (one expert a layer), a decode step at batch
  // 1, fp16. Uniform: the rank's expert receives 8 ranks x 1 token x 2 / 8 = 2 token-expert
  // pairs, 2 x 176,160,768 = 352,321,536 MACs, and is read unless all 8 tokens miss it:
  // (1 - (6/8)^8) x 352,321,536 B = 21 x (16,777,216 - 1,679,616) = 317,049,600 B. The
  // busiest rank at imbalance 1.5 receives 1.5 x 2 = 3 pairs, 528,482,304 MACs, each token
  // choosing its expert with probability 1.5 x 2/8: (1 - (5/8)^8) x 352,321,536 =
  // 21 x (16,777,216 - 390,625) = 344,118,411 B.
  Model rank = load_model("mixtral-8x7b", {{"ep", "8", {}}}, {}, 1);
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 127;
  s.dtype = DType::fp16;
  const size_t experts = rank.find("layers.0.experts");
  const CostAnalysis uniform = analyze_costs(rank, s);
  EXPECT_EQ(uniform.layers[experts].macs, 352'321'536);
  EXPECT_EQ(uniform.layers[experts].weight_bytes, 317'049'600);
  const CostAnalysis busiest = busiest_expert_rank(uniform, rank, s, 1.5);
  EXPECT_EQ(busiest.layers[experts].macs, 528'482'304);
  EXPECT_EQ(busiest.layers[experts].weight_bytes, 344'118'411);
  // Layers without experts are the uniform rank's; the totals gain the 32 layers' differences.
  const size_t attention = rank.find("layers.0.attn");
  EXPECT_EQ(busiest.layers[attention].flops, uniform.layers[attention].flops);
  EXPECT_EQ(busiest.totals.macs - uniform.totals.macs, 32LL * 176'160'768);
  EXPECT_EQ(busiest.totals.weight_bytes - uniform.totals.weight_bytes, 32LL * (344'118'411 - 317'049'600));
  // Uniform routing (1) changes nothing.
  EXPECT_EQ(busiest_expert_rank(uniform, rank, s, 1.0).totals.weight_bytes, uniform.totals.weight_bytes);
}

TEST(ZooMoe, MixtralExpertsTurnComputeBoundAtAFourTimesLargerBatch) {
  // Decode on the h200 (fp16 989.4 TFLOP/s, HBM3e 4.8 TB/s), context 4096: the experts
  // layer is the largest of op class linear (2 experts x 352,321,536 B at batch 1, against
  // lm_head's 262,144,000 B). Per token it computes F = 704,827,447 FLOPs (2 x 352,321,536
  // MACs + 184,375: softmax 38, top-k 14, renormalise 3, gated activation 6 x 2 x 14336,
  // weighted sum 3 x 4096) and moves A = (102,416 + 98,310) x 2 = 401,452 B of
  // activations; once b is large every expert is read, W = 8 x 352,321,536 B. Compute-
  // bound when b F / 989.4e12 >= (W + b A) / 4.8e12: b >= W / (F x 4.8 / 989.4 - A)
  // = 2,818,572,288 / 3,017,959 = 933.93, so batch 934 (the dense lm_head needs 219).
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 4096;
  s.dtype = DType::fp16;
  HardwareSpec hw = load_hardware("h200");
  hw.drop_efficiency();  // the datasheet roofline (--efficiency none), worked by hand above
  ModelQuery q = query_model(load_model("mixtral-8x7b", 1), s, hw, find_hardware_model("roofline"));
  ASSERT_TRUE(q.biggest_linear.has_value());
  EXPECT_EQ(q.biggest_linear->layer.name, "layers.0.experts");
  EXPECT_EQ(q.biggest_linear->layer.work.flops, 704'827'447);
  ASSERT_TRUE(q.biggest_linear->compute_bound_at_batch.has_value());
  EXPECT_EQ(*q.biggest_linear->compute_bound_at_batch, 934);
}

TEST(ZooMoe, MixtralMemoryHoldsEveryExpert) {
  // ridge memory mixtral-8x7b --phase decode: all 46,702,792,704 parameters resident,
  // x 2 B (fp16) = 93,405,585,408 B, though a decode step reads only 2 experts.
  ridge_test::RidgeRun r = ridge_test::run_ridge("memory mixtral-8x7b --hw h200 --phase decode --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"parameters_bytes\": 93405585408"), std::string::npos) << r.out;
  ridge_test::RidgeRun text = ridge_test::run_ridge("memory mixtral-8x7b --hw h200 --phase decode");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("every expert is resident: 46.70G params, though a token uses 12.88G"), std::string::npos)
      << text.out;
  // The analyze report names both counts.
  ridge_test::RidgeRun t = ridge_test::run_ridge("analyze mixtral-8x7b --format json");
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("\"active_params\": 12879925248"), std::string::npos);
  EXPECT_NE(t.out.find("\"params\": 46702792704"), std::string::npos);
}

}  // namespace
}  // namespace ridge
