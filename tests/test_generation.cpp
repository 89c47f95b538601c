// `ridge generate`: the summed decode steps against timing every step in full, and the
// report's relations (total = TTFT + decode, tokens/s) checked by hand.
#include <gtest/gtest.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/generation.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

TEST(Generation, SummedStepsEqualEveryStepTimedInFull) {
  Model pre = load_model("llama-3-8b", 100), dec = load_model("llama-3-8b", 1);
  HardwareSpec hw = load_hardware("a100");
  RunSettings s;
  s.dtype = DType::fp16;
  s.batch = 4;
  for (const HardwareModel* hm : hardware_models()) {
    GenerationResult g = simulate_generation(pre, dec, s, {100, 40}, hw, *hm);
    // By brute force: prefill, then 39 decode steps at contexts 100 .. 138.
    RunSettings p = s;
    p.phase = Phase::prefill;
    p.seq = 100;
    // The first token also pays the engine's fixed time per request ([efficiency] request_overhead).
    double ttft = derive(pre, analyze_costs(pre, p), hw, *hm).totals.timing.time_s + hw.request_overhead_s;
    double decode = 0, memory_bound = 0;
    for (int64_t c = 100; c < 139; ++c) {
      RunSettings d = s;
      d.phase = Phase::decode;
      d.context = c;
      RunResult t = derive(dec, analyze_costs(dec, d), hw, *hm);
      decode += t.totals.timing.time_s;
      memory_bound += t.memory_bound_share * t.totals.timing.time_s;
    }
    EXPECT_DOUBLE_EQ(g.ttft_s, ttft) << hm->name();
    EXPECT_NEAR(g.decode_s, decode, 1e-9 * decode) << hm->name();
    EXPECT_EQ(g.decode_steps, 39);
    EXPECT_NEAR(g.tpot_s, decode / 39, 1e-9 * decode);
    EXPECT_NEAR(g.total_s, ttft + decode, 1e-9 * decode);
    EXPECT_NEAR(g.tokens_per_s, 4 * 40 / (ttft + decode), 1e-6);
    EXPECT_NEAR(g.decode_memory_bound_share, memory_bound / decode, 1e-9);
    EXPECT_EQ(g.mean_context, 100 + 19);
    // The cache at the end: 139 tokens x 32 layers x 2 x 8 KV heads x 128 x 2 B x batch 4.
    EXPECT_EQ(g.kv_cache_bytes, 139LL * 32 * 2 * 8 * 128 * 2 * 4);
  }
}

TEST(Generation, SummedStepsAcrossASlidingWindowEqualEveryStepTimedInFull) {
  // Mistral-7B's window of 4096 fills at context 4095: steps at contexts 4090 .. 4109
  // cross it, where attention's work stops growing (issue #25). On a100-calibrated too,
  // whose classes read each layer's op class and GEMM shape.
  Model pre = load_model("mistral-7b", 4090), dec = load_model("mistral-7b", 1);
  RunSettings s;
  s.dtype = DType::fp16;
  s.batch = 2;
  for (const char* name : {"a100", "v100-calibrated"}) {
    HardwareSpec hw = load_hardware(name);
    for (const HardwareModel* hm : hardware_models()) {
      GenerationResult g = simulate_generation(pre, dec, s, {4090, 21}, hw, *hm);
      double decode = 0;
      for (int64_t c = 4090; c < 4110; ++c) {
        RunSettings d = s;
        d.phase = Phase::decode;
        d.context = c;
        decode += derive(dec, analyze_costs(dec, d), hw, *hm).totals.timing.time_s;
      }
      EXPECT_NEAR(g.decode_s, decode, 1e-9 * decode) << name << " " << hm->name();
    }
  }
}

TEST(Generation, PromptPlusGenerationPastMaxPositionsIsAnError) {
  // Llama-2 takes 4096 positions: a 4000-token prompt and 98 more tokens reach 4097.
  ridge_test::RidgeRun r = ridge_test::run_ridge("generate llama-2-7b --hw a100 --dtype fp16 --prompt 4000 --gen 98");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("max_positions = 4096"), std::string::npos) << r.err;
  r = ridge_test::run_ridge("generate llama-2-7b --hw a100 --dtype fp16 --prompt 4000 --gen 97");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("time to first token"), std::string::npos) << r.out;
  r = ridge_test::run_ridge("generate llama-2-7b --hw a100 --prompt 16 --gen 4 --format json");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* key : {"\"ttft_s\"", "\"tpot_s\"", "\"tokens_per_s\"", "\"decode_steps\": 3", "\"dtype\": \"fp16\""})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
}

// `--set model.NAME=V` reaches the model on one device as with --parallel (it used to be
// ignored there). Llama-2-70B's KV cache per token and layer: K and V, 8 KV heads x 128 x
// 2 B = 4,096 B; after a 16-token prompt and 4 tokens (3 decode steps) it holds 19
// tokens: 8 layers x 19 x 4,096 = 622,592 B, not the 80 layers' 6,225,920 B.
TEST(Generation, SetModelParamsApplyOnOneDevice) {
  ridge_test::RidgeRun r =
      ridge_test::run_ridge("generate llama-2-70b --hw h200 --prompt 16 --gen 4 --set model.layers=8 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"kv_cache_bytes\": 622592,"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ridge
