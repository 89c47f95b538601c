// Decoder LLMs: the zoo's published parameter counts, the KV cache stream in prefill and
// decode, and the decode / prefill bounds on an A100, all against numbers worked out by
// hand.
#include <gtest/gtest.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/engine/memory_result.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

int64_t total_params(const Model& m) {
  int64_t p = 0;
  for (const Layer& l : m.layers) p += l.counts.params;
  return p;
}

RunSettings decode_at(int64_t context, DType dtype = DType::fp16) {
  RunSettings s;
  s.phase = Phase::decode;
  s.context = context;
  s.dtype = dtype;
  return s;
}

TEST(ZooLlm, PublishedParameterCounts) {
  // Llama-2-7B: 6,738,415,616, the count of meta-llama/Llama-2-7b-hf's weights
  // (transformers' model.num_parameters()). By hand: embeddings and lm_head 2 x 32000 x
  // 4096 = 262,144,000; per layer q, k, v, o 4 x 4096^2 = 67,108,864, MLP 3 x 4096 x
  // 11008 = 135,266,304, two norms 8,192: 202,383,360 x 32 = 6,476,267,520; final norm 4,096.
  EXPECT_EQ(total_params(load_model("llama-2-7b")), 6'738'415'616);
  // Llama-3-8B: 8,030,261,248 (meta-llama/Meta-Llama-3-8B, num_parameters()). Embeddings
  // and lm_head 2 x 128256 x 4096 = 1,050,673,152; per layer q, o 2 x 4096^2 + k, v
  // 2 x 4096 x 1024 = 41,943,040, MLP 3 x 4096 x 14336 = 176,160,768, norms 8,192:
  // 218,112,000 x 32 = 6,979,584,000; final norm 4,096.
  EXPECT_EQ(total_params(load_model("llama-3-8b")), 8'030'261'248);
  // Mistral-7B v0.1: 7,241,732,096 (mistralai/Mistral-7B-v0.1, num_parameters()): the
  // Llama-3-8B layers with a 32000 vocabulary: 262,144,000 + 6,979,584,000 + 4,096.
  EXPECT_EQ(total_params(load_model("mistral-7b")), 7'241'732'096);
  // Llama-2-7B's MACs at its file's 1024 tokens: the linear layers' 6,607,077,376
  // weights (all parameters but the embedding table and the 65 norms) once per token,
  // 6,765,647,233,024; attention 2 x 32 heads x 128 x the 1024 x 1025 / 2 causal pairs
  // a FlashAttention kernel computes, x 32 layers = 137,573,171,200.
  EXPECT_EQ(analyze_costs(load_model("llama-2-7b"), RunSettings{}).totals.macs, 6'903'220'404'224);
}

TEST(LlmPhases, GroupedQueryKvCacheIsKvHeadsOverHeadsOfMultiHead) {
  // Decode at context 1024, batch 1, fp16: each attention layer reads 1024 cached tokens
  // and writes 1 new one, 2 x kv_heads x 128 x 2 B each. Llama-2 (32 KV heads):
  // 1025 x 16,384 = 16,793,600 B; Llama-3 (8 KV heads): 1025 x 4,096 = 4,198,400 B.
  Model mha = load_model("llama-2-7b", 1), gqa = load_model("llama-3-8b", 1);
  CostAnalysis a = analyze_costs(mha, decode_at(1024)), b = analyze_costs(gqa, decode_at(1024));
  const LayerCost& la = a.layers[mha.find("layers.0.attn")];
  const LayerCost& lb = b.layers[gqa.find("layers.0.attn")];
  EXPECT_EQ(la.kv_bytes, 16'793'600);
  EXPECT_EQ(lb.kv_bytes, 4'198'400);
  EXPECT_EQ(lb.kv_bytes * 32, la.kv_bytes * 8);  // kv_heads / heads = 8 / 32
  EXPECT_EQ(a.totals.kv_bytes, 32 * 16'793'600);
  // Only attention layers touch the cache; --kv-dtype fp8 halves it.
  EXPECT_EQ(a.layers[mha.find("layers.0.q_proj")].kv_bytes, 0);
  RunSettings fp8 = decode_at(1024);
  fp8.kv_dtype = DType::fp8;
  EXPECT_EQ(analyze_costs(mha, fp8).totals.kv_bytes, 32 * 16'793'600 / 2);
}

TEST(LlmPhases, PrefillWritesTheCacheForEveryPromptToken) {
  // Prefill of 512 tokens, batch 2: 512 x 2 x 32 x 128 x 2 B x 2 sequences = 16,777,216 B
  // per layer, nothing read.
  RunSettings s;
  s.phase = Phase::prefill;
  s.seq = 512;
  s.batch = 2;
  s.dtype = DType::fp16;
  Model m = load_model("llama-2-7b", 512);
  CostAnalysis c = analyze_costs(m, s);
  EXPECT_EQ(c.layers[m.find("layers.3.attn")].kv_bytes, 16'777'216);
  // The q projection of 512 tokens: 512 x 4096 x 4096 MACs per sequence.
  EXPECT_EQ(c.layers[m.find("layers.3.q_proj")].macs, 2LL * 512 * 4096 * 4096);
}

TEST(LlmPhases, Llama2DecodeOnA100IsWeightsPlusKvOverBandwidth) {
  // Decode, batch 1, context 1024, fp16 on an A100 (2039 GB/s, 312 TFLOP/s, 5 us per
  // launch, no efficiency factors). Bytes that must cross HBM per token, by hand:
  //   weights: all 6,738,415,616 parameters but the embedding table, of which one row is
  //   read: (6,738,415,616 - 32000 x 4096 + 4096) x 2 B = 13,214,695,424 B;
  //   KV cache: 32 layers x 16,793,600 B = 537,395,200 B.
  // (13,214,695,424 + 537,395,200) / 2039 GB/s = 6.7445 ms, plus 15 kernels per layer x
  // 32 + embedding, final norm and lm_head = 483 launches x 5 us = 2.415 ms.
  Model m = load_model("llama-2-7b", 1);
  HardwareSpec hw = load_hardware("a100");
  hw.drop_efficiency();  // the datasheet roofline (--efficiency none)
  RunResult t = derive(m, analyze_costs(m, decode_at(1024)), hw, find_hardware_model("roofline"));
  const double bytes = 13'214'695'424.0 + 537'395'200.0;
  const double expected = bytes / 2039e9 + 483 * 5e-6;
  EXPECT_NEAR(t.totals.timing.time_s, expected, 0.05 * expected);
  EXPECT_NEAR(t.totals.timing.overhead_s, 483 * 5e-6, 1e-12);
  for (size_t i = 0; i < m.layers.size(); ++i)
    if (m.layers[i].op == "linear") {
      EXPECT_TRUE(t.layers[i].timing.memory_bound()) << m.layers[i].name;
    }
}

TEST(LlmPhases, Llama2PrefillOnA100IsComputeBoundInTheLinears) {
  // 1024 tokens: a 4096 x 4096 projection does 2 x 1024 x 4096^2 FLOPs over 2 x (4096^2 +
  // 2 x 1024 x 4096) B: 683 FLOP/B, above the A100's fp16 ridge of 312e12 / 2039e9 = 153.
  RunSettings s;
  s.phase = Phase::prefill;
  s.seq = 1024;
  s.dtype = DType::fp16;
  Model m = load_model("llama-2-7b", 1024);
  HardwareSpec hw = load_hardware("a100");
  RunResult t = derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline"));
  for (size_t i = 0; i < m.layers.size(); ++i)
    if (m.layers[i].op == "linear" && m.layers[i].name != "lm_head") {
      EXPECT_FALSE(t.layers[i].timing.memory_bound()) << m.layers[i].name;
    }
  // lm_head computes the last token's logits only (issue #25): one row, 2 x 4096 x 32000
  // FLOPs over its 262 MB of weights, 1 FLOP/B: memory-bound.
  EXPECT_TRUE(t.layers[static_cast<size_t>(m.find("lm_head"))].timing.memory_bound());
}

TEST(LlmPhases, BothHardwareModelsTimeTheKvStreamVectorisedAsOneByOne) {
  Model m = load_model("llama-3-8b", 1);
  HardwareSpec hw = load_hardware("a100");
  LayerWorkArrays work = to_arrays(layer_work(m, analyze_costs(m, decode_at(3000))));
  ASSERT_GT(work.kv_bytes.sum(), 0.0);
  for (const HardwareModel* hm : hardware_models()) {
    LayerTimingArrays fast, slow;
    TimingSums a = hm->time_layers(work, hw, DType::fp16, fast);
    TimingSums b = time_layers_one_by_one(*hm, work, hw, DType::fp16, slow);
    EXPECT_NEAR(a.time_s, b.time_s, 1e-12) << hm->name();
    EXPECT_TRUE((fast.bound_level == slow.bound_level).all()) << hm->name();
  }
}

TEST(LlmPhases, BadInputIsOneLocatedLine) {
  // A context past max_positions (4096 for Llama-2) points at the model file's key.
  ridge_test::RidgeRun r = ridge_test::run_ridge("analyze llama-2-7b --phase decode --context 4096");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("llama-2-7b.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("max_positions = 4096 (got 4097)"), std::string::npos) << r.err;
  r = ridge_test::run_ridge("analyze alexnet --phase decode --context 16");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no attention layer"), std::string::npos) << r.err;
  r = ridge_test::run_ridge("analyze llama-2-7b --phase decode");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("needs --context"), std::string::npos) << r.err;
  r = ridge_test::run_ridge("analyze llama-2-7b --phase prefill --seq 16 --kv-dtype fp64");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--kv-dtype"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ridge

namespace ridge {
namespace {

TEST(LlmMemory, DecodeHoldsWeightsAndTheKvCache) {
  // Llama-3-8B, fp16, decode at context 8191 (the cache holds 8192 tokens after the
  // step): per token 32 layers x 2 x 8 KV heads x 128 x 2 B = 131,072 B, so
  // 8192 x 131,072 = 1,073,741,824 B per sequence; weights 8,030,261,248 x 2 B.
  Model m = load_model("llama-3-8b", 1);
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 8191;
  s.dtype = DType::fp16;
  s.batch = 2;
  MemoryFootprint f = memory_footprint(m, s, CheckpointPolicy{});
  EXPECT_EQ(f.kv_bytes_per_token, 131'072);
  EXPECT_EQ(f.kv_cache_tokens, 8192);
  EXPECT_EQ(f.kv_cache_bytes(), 2LL * 1'073'741'824);
  EXPECT_EQ(f.parameters_bytes, 16'060'522'496);
  EXPECT_EQ(f.peak_bytes(), f.model_bytes() + 2 * (f.activations_per_sample + 1'073'741'824));
  // int4 weights: linear layers at 4 bits + one fp16 scale per 128 weights, i.e.
  // 0.5 + 2/128 B per weight; the embedding table, lm_head (issue #25: kept in 16 bit
  // unless asked) and the norms stay fp16.
  s.weight_format = WeightFormat::int4;
  int64_t linear = 8'030'261'248 - 2 * 128'256LL * 4096 - 65 * 4096;  // less the embedding, lm_head and the 65 norms
  EXPECT_EQ(memory_footprint(m, s, CheckpointPolicy{}).parameters_bytes,
            linear / 2 + linear / 128 * 2 + (2 * 128'256LL * 4096 + 65 * 4096) * 2);
}

TEST(LlmMemory, LargestBatchAndLongestContextOnAnL4) {
  // ridge memory llama-3-8b --hw l4 --phase decode (fp16 by default in decode): the whole
  // 8192-token window at batch 1 and the largest batch at that context; the longest
  // context is the model's limit when the cache of one sequence fits.
  ridge_test::RidgeRun r = ridge_test::run_ridge("memory llama-3-8b --hw l4 --phase decode --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"kv_cache_tokens\": 8192"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"max_context\": 8191"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"parameters_bytes\": 16060522496"), std::string::npos) << r.out;  // 2 B per parameter
  // At batch 8 the cache of 8 sequences no longer fits beside 16.06 GB of weights: the
  // longest context is what the rest of the usable memory holds, and it verifies.
  HardwareSpec hw = load_hardware("l4");
  Model m = load_model("llama-3-8b", 1);
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 1024;
  s.dtype = DType::fp16;
  s.batch = 8;
  MemoryReport rep = analyze_memory(m, s, CheckpointPolicy{}, &hw, &find_hardware_model("roofline"));
  ASSERT_TRUE(rep.fit->max_context.has_value());
  int64_t longest = *rep.fit->max_context;
  EXPECT_LT(longest, 8191);
  s.context = longest;
  EXPECT_LE(memory_footprint(m, s, CheckpointPolicy{}).peak_bytes(), rep.fit->capacity_bytes);
  s.context = longest + 1;
  EXPECT_GT(memory_footprint(m, s, CheckpointPolicy{}).peak_bytes(), rep.fit->capacity_bytes);
}

}  // namespace
}  // namespace ridge

#include "sim/engine/sweep_run.hpp"

namespace ridge {
namespace {

TEST(LlmSweep, DecodePointsEqualAnalyzeAtTheirContext) {
  SweepPlan plan = plan_sweep(parse_sweep(R"(models = ["llama-3-8b"]
hardware = ["a100"]
dtype = ["fp16"]
phase = ["decode"]
batch = [1, 64]
context = [512, 7000, 9000]
)", "s.toml"));
  ASSERT_EQ(plan.point_count(), 6u);
  SweepResult r = run_sweep(plan, {1, false, nullptr, nullptr});
  Model m = load_model("llama-3-8b", 1);
  HardwareSpec hw = load_hardware("a100");
  for (size_t i = 0; i < plan.point_count(); ++i) {
    SweepCoords c = plan.coords(i);
    SCOPED_TRACE("batch " + std::to_string(c.batch) + " context " + std::to_string(c.context));
    if (c.context == 9000) {  // past max_positions = 8192
      EXPECT_FALSE(r.points[i].ok());
      EXPECT_NE(r.points[i].status_text().find("max_positions"), std::string::npos) << r.points[i].status_text();
      continue;
    }
    RunSettings s;
    s.phase = Phase::decode;
    s.dtype = DType::fp16;
    s.batch = c.batch;
    s.context = c.context;
    RunResult one = derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline"));
    ASSERT_TRUE(r.points[i].ok()) << r.points[i].status_text();
    EXPECT_NEAR(r.points[i].sums.time_s, one.totals.timing.time_s, 1e-12);
  }
  // Decode needs its contexts, and is the only phase of such a sweep.
  EXPECT_THROW(parse_sweep("models = [\"gpt2\"]\nhardware = [\"a100\"]\nphase = [\"decode\"]\n", "s.toml"), InputError);
  EXPECT_THROW(parse_sweep("models = [\"gpt2\"]\nhardware = [\"a100\"]\nphase = [\"decode\", \"inference\"]\ncontext = [1]\n",
                           "s.toml"),
               InputError);
  EXPECT_THROW(parse_sweep("models = [\"gpt2\"]\nhardware = [\"a100\"]\ncontext = [1]\n", "s.toml"), InputError);
}

TEST(LlmSweep, PrefillSeqListEqualsAnalyzeAtEachLength) {
  // A sweep over the prompt length: each model is read at each seq, on models with and
  // without a [params] seq; past llama-2-7b's max_positions = 4096 the point is an error.
  SweepPlan plan = plan_sweep(parse_sweep(R"(models = ["llama-2-7b", "mixtral-8x7b"]
hardware = ["h200"]
dtype = ["fp16"]
phase = ["prefill"]
seq = [128, 2048, 5000]
batch = [1, 4]
)", "s.toml"));
  ASSERT_EQ(plan.point_count(), 12u);
  SweepResult r = run_sweep(plan, {1, false, nullptr, nullptr});
  HardwareSpec hw = load_hardware("h200");
  for (size_t i = 0; i < plan.point_count(); ++i) {
    SweepCoords c = plan.coords(i);
    const std::string name = plan.file.models[c.model].text;
    SCOPED_TRACE(name + " seq " + std::to_string(c.seq) + " batch " + std::to_string(c.batch));
    if (name == "llama-2-7b" && c.seq == 5000) {
      EXPECT_NE(r.points[i].status_text().find("max_positions"), std::string::npos) << r.points[i].status_text();
      continue;
    }
    Model m = load_model(name, c.seq);
    RunSettings s;
    s.phase = Phase::prefill;
    s.dtype = DType::fp16;
    s.batch = c.batch;
    s.seq = c.seq;
    RunResult one = derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline"));
    ASSERT_TRUE(r.points[i].ok()) << r.points[i].status_text();
    EXPECT_EQ(r.points[i].flops, one.totals.work.flops);
    EXPECT_NEAR(r.points[i].sums.time_s, one.totals.timing.time_s, 1e-12);
  }
  // Prefill FLOPs grow with the prompt: llama-2-7b at 128 tokens, batch 1, by hand the
  // linear MACs 6,607,077,376 per token, less lm_head's 4096 x 32000 = 131,072,000 (it
  // computes the last token's logits only), x 128, lm_head once, and attention 2 x 32 x
  // 128 x (128 x 129 / 2) x 32 layers = 2,164,260,864: MACs 831,224,020,992 (FLOPs are
  // 2 x MACs and the rest).
  Model m128 = load_model("llama-2-7b", 128);
  RunSettings s;
  s.phase = Phase::prefill;
  s.dtype = DType::fp16;
  EXPECT_EQ(analyze_costs(m128, s).totals.macs, 6'476'005'376LL * 128 + 131'072'000 + 2'164'260'864);
  EXPECT_EQ(r.points[plan.index(0, 0, 0, 0)].flops, analyze_costs(m128, s).totals.flops);
  // The same sweep through [[vary]] key = "model.seq" on mixtral (a [params] model) gives
  // the same points as its seq list.
  SweepPlan vary = plan_sweep(parse_sweep(R"(models = ["mixtral-8x7b"]
hardware = ["h200"]
dtype = ["fp16"]
phase = ["prefill"]
batch = [1, 4]
[[vary]]
key = "model.seq"
values = [128, 2048, 5000]
)", "v.toml"));
  SweepResult rv = run_sweep(vary, {1, false, nullptr, nullptr});
  for (size_t i = 0; i < vary.point_count(); ++i) {
    ASSERT_TRUE(rv.points[i].ok()) << rv.points[i].status_text();
    EXPECT_EQ(rv.points[i].sums.time_s, r.points[6 + i].sums.time_s) << i;  // mixtral's six points, in the same order
  }
}

}  // namespace
}  // namespace ridge

namespace ridge {
namespace {

TEST(LlmWeights, QuantizedLinearWeightsCountTheirGroupScales) {
  // q_proj of Llama-2-7B: 4096 x 4096 = 16,777,216 weights. int4: half a byte each
  // (8,388,608 B) + one fp16 scale per 128 (131,072 x 2 = 262,144 B) = 8,650,752 B;
  // int8: 16,777,216 + 262,144 = 17,039,360 B. The embedding row stays fp16.
  Model m = load_model("llama-2-7b", 1);
  RunSettings s = decode_at(100);
  s.weight_format = WeightFormat::int4;
  CostAnalysis c = analyze_costs(m, s);
  EXPECT_EQ(c.layers[m.find("layers.0.q_proj")].weight_bytes, 8'650'752);
  EXPECT_EQ(c.layers[m.find("embed_tokens")].weight_bytes, 4096 * 2);
  s.weight_format = WeightFormat::int8;
  EXPECT_EQ(analyze_costs(m, s).layers[m.find("layers.0.q_proj")].weight_bytes, 17'039'360);
  // fp8 weights on a device without fp8 math (a V100): W8A16 kernels widen them to fp16
  // in registers and compute in fp16 (issue #25), so they move int8's bytes.
  ridge_test::RidgeRun r = ridge_test::run_ridge("analyze llama-2-7b --hw v100 --dtype fp16 --phase decode --context 8 "
                                                 "--weight-dtype fp8 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"weight_bytes\": 17039360,"), std::string::npos);
  // Groups of 32: 16,777,216 / 32 = 524,288 scales x 2 B = 1,048,576 B beside the int4 weights.
  s.weight_format = WeightFormat::int4;
  s.weight_group = 32;
  EXPECT_EQ(analyze_costs(m, s).layers[m.find("layers.0.q_proj")].weight_bytes, 8'388'608 + 1'048'576);
  // lm_head (4096 x 32000) stays fp16 unless asked: 262,144,000 B; int4 with groups of 32:
  // 65,536,000 + 4,096,000 x 2 = 73,728,000 B.
  EXPECT_EQ(analyze_costs(m, s).layers[m.find("lm_head")].weight_bytes, 262'144'000);
  s.quantize_lm_head = true;
  EXPECT_EQ(analyze_costs(m, s).layers[m.find("lm_head")].weight_bytes, 73'728'000);
}

TEST(LlmBound, LaunchOverheadIsItsOwnBound) {
  // A residual add of one token in decode moves 3 x 4096 x 2 B = 24.6 KB: 12 ns at
  // 2039 GB/s against a 5 us launch, so it is bound `overhead`; with --overhead graph
  // (one launch per step, charged to the first layer) it is memory-bound again.
  Model m = load_model("llama-2-7b", 1);
  HardwareSpec hw = load_hardware("a100");
  RunSettings s = decode_at(1024);
  RunResult kernel = derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline"));
  EXPECT_EQ(kernel.layers[m.find("layers.0.residual_1")].bound.label, "overhead");
  EXPECT_EQ(kernel.layers[m.find("layers.0.down_proj")].bound.label, "memory:HBM2e");  // 44 us > 5 us
  s.overhead = LaunchOverhead::per_step;
  RunResult graph = derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline"));
  EXPECT_EQ(graph.layers[m.find("layers.0.residual_1")].bound.label, "memory:HBM2e");
  EXPECT_NEAR(graph.totals.timing.overhead_s, 5e-6, 1e-15);  // one launch for the whole step
  s.overhead = LaunchOverhead::none;
  EXPECT_EQ(derive(m, analyze_costs(m, s), hw, find_hardware_model("roofline")).totals.timing.overhead_s, 0.0);
}

TEST(LlmMemory, NoContextWhenTheWeightsAloneDoNotFit) {
  // Mixtral-8x7B's 46,702,792,704 fp16 parameters are 93.41 GB; an A100 80 GB holds
  // 85.90 GB less 5 % reserve = 81.60 GB: no context fits, not "0 cached tokens".
  ridge_test::RidgeRun json = ridge_test::run_ridge("memory mixtral-8x7b --hw a100 --phase decode --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"fits\": false"), std::string::npos) << json.out;
  EXPECT_EQ(json.out.find("max_context"), std::string::npos) << json.out;
  ridge_test::RidgeRun text = ridge_test::run_ridge("memory mixtral-8x7b --hw a100 --phase decode --timeline");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("no context fits at batch 1"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("longest context"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace ridge
