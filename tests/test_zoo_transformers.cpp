// The transformer zoo models against published parameter counts and forward MACs
// derived by hand from the architecture.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

int64_t total_params(const Model& m) {
  int64_t p = 0;
  for (const Layer& l : m.layers) p += l.counts.params;
  return p;
}

TEST(ZooTransformers, BertBaseParametersMatchThePublishedCount) {
  // bert-base-uncased with its pooler: 109,482,240 parameters (the count
  // transformers' BertModel.from_pretrained("bert-base-uncased") reports). By hand:
  //   embeddings 30522*768 + 512*768 + 2*768 + LayerNorm 2*768     = 23,837,184
  //   per layer  q,k,v,o 4*(768*768 + 768) + FFN 768*3072 + 3072 + 3072*768 + 768
  //              + 2 LayerNorms 2*(2*768)                          =  7,087,872
  //   pooler     768*768 + 768                                     =    590,592
  //   23,837,184 + 12 * 7,087,872 + 590,592                        = 109,482,240
  Model m = load_model("bert-base");
  EXPECT_EQ(total_params(m), 109'482'240);
  EXPECT_EQ(m.input, (Shape{128}));
  EXPECT_EQ(m.layers.back().output, (Shape{768}));  // pooled [CLS] vector
  EXPECT_EQ(m.layers[m.find("encoder.11.output_norm")].output, (Shape{128, 768}));
}

TEST(ZooTransformers, BertBaseForwardMacs) {
  // d = 768, S = 128, 12 layers. Per layer: the six linears (q, k, v, o: 4*S*d*d;
  // FFN 768->3072->768: 2*S*d*4d) = 12*S*d^2 = 905,969,664; attention Q.K^T over 12
  // heads of 64: 12*S*S*64 = S^2*d, and weights.V the same: 2*S^2*d = 25,165,824.
  // Layer: 931,135,488; x 12 = 11,173,625,856. Pooler: one token, d*d = 589,824.
  // Total 11,174,215,680. Embedding lookups, norms, softmax: no MACs.
  Model m = load_model("bert-base");
  CostAnalysis c = analyze_costs(m, RunSettings{});
  EXPECT_EQ(c.totals.macs, 11'174'215'680);
  // One fused attention layer per block: Q.K^T and weights.V, 12 x 128 x 128 x 64 each.
  EXPECT_EQ(c.layers[m.find("encoder.0.attn")].macs, 2 * 12LL * 128 * 128 * 64);
}

TEST(ZooTransformers, Gpt2ParametersMatchThePublishedCount) {
  // GPT-2 small, Hugging Face "gpt2": 124,439,808 parameters (lm_head tied to wte). By hand:
  //   wte 50257*768 = 38,597,376; wpe 1024*768 = 786,432
  //   per block  ln_1, ln_2 2*(2*768) + c_attn 768*2304 + 2304 + c_proj 768*768 + 768
  //              + c_fc 768*3072 + 3072 + mlp c_proj 3072*768 + 768  = 7,087,872
  //   ln_f 2*768 = 1,536; lm_head 0 (its weight is wte's)
  //   38,597,376 + 786,432 + 12 * 7,087,872 + 1,536                 = 124,439,808
  Model m = load_model("gpt2");
  EXPECT_EQ(total_params(m), 124'439'808);
  const Layer& head = m.layers[m.find("lm_head")];
  EXPECT_EQ(head.output, (Shape{1024, 50257}));
  EXPECT_EQ(head.counts.params, 0);
  EXPECT_EQ(head.counts.weight_elems, 768LL * 50257);  // read every pass though not owned
}

TEST(ZooTransformers, Gpt2ForwardMacs) {
  // d = 768, S = 1024, V = 50257, 12 blocks. Per block: linears 12*S*d^2 =
  // 7,247,757,312 (q, k, v, proj 4*S*d^2 + MLP 2*S*d*4d); attention Q.K^T and
  // weights.V over 12 heads of 64 for the S(S+1)/2 = 524,800 causal pairs a
  // FlashAttention kernel computes (the masked half skipped): 2*12*64*524,800 =
  // 806,092,800. Block 8,053,850,112, x 12 = 96,646,201,344. lm_head S*d*V =
  // 39,523,713,024. Total 136,169,914,368.
  Model m = load_model("gpt2");
  RunSettings s;
  CostAnalysis c = analyze_costs(m, s);
  EXPECT_EQ(c.totals.macs, 136'169'914'368);
  EXPECT_EQ(c.layers[m.find("lm_head")].macs, 39'523'713'024);
  // The token lookup reads 1024 gathered rows of 768, not the 50257-row table.
  EXPECT_EQ(c.layers[m.find("wte")].weight_bytes, 1024LL * 768 * 4);
  s.batch = 2;
  EXPECT_EQ(analyze_costs(m, s).totals.macs, 2 * 136'169'914'368LL);
}

}  // namespace
}  // namespace ridge
