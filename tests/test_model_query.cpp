// `ridge query MODEL` without --layer: is decode bandwidth-limited for the model as a
// whole. Llama-2-7B decode on the shipped a100 (fp16 312 TFLOP/s, HBM2e 2.039 TB/s,
// 5 us per kernel launch), every figure worked out by hand in the comments.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/model_query.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

ModelQuery llama_decode(LaunchOverhead overhead = LaunchOverhead::per_kernel) {
  RunSettings s;
  s.phase = Phase::decode;
  s.context = 1024;
  s.dtype = DType::fp16;
  s.overhead = overhead;
  HardwareSpec hw = load_hardware("a100");
  hw.drop_efficiency();  // the datasheet roofline (--efficiency none), which the figures below work by hand
  return query_model(load_model("llama-2-7b", 1), s, hw, find_hardware_model("roofline"));
}

// Bytes of one decode step at batch 1, context 1024, fp16, by hand:
//   weights: every parameter but the 32000 x 4096 embedding table, plus the one row
//     looked up: (6,738,415,616 - 131,072,000 + 4,096) x 2 B = 13,214,695,424 B;
//   KV cache: 32 layers x 1025 tokens (1024 read, 1 written) x 2 x 32 heads x 128 x 2 B
//     = 537,395,200 B;
//   activations, elements read + written per layer: rmsnorms 2 x (4096 + 4096); q, k,
//     v, o 4 x (4096 + 4096); rotary 2 x (4096 + 128 table + 4096); attention q + new k, v
//     12288 in, 4096 out; residuals 2 x (8192 + 4096); gate, up 2 x (4096 + 11008);
//     swiglu 22016 + 11008; down 11008 + 4096: 185,088 x 32 = 5,922,816; embedding 1 id
//     + 4096, final norm 8192, lm_head 4096 + 32000: 5,971,201 elements x 2 B
//     = 11,942,402 B.
constexpr double kWeights = 13'214'695'424, kKv = 537'395'200, kAct = 11'942'402;
constexpr double kBytes = kWeights + kKv + kAct;  // 13,764,033,026 B
constexpr double kBw = 2.039e12;

TEST(ModelQuery, Llama2DecodeIsBandwidthLimited) {
  ModelQuery q = llama_decode();
  EXPECT_TRUE(q.bandwidth_limited);
  EXPECT_EQ(q.tokens, 1);
  EXPECT_EQ(q.weight_bytes_per_token, kWeights);
  EXPECT_EQ(q.kv_bytes_per_token, kKv);
  EXPECT_EQ(q.activation_bytes_per_token, kAct);
  // Step: every byte over HBM2e (each layer's memory time outlasts its compute) plus
  // 483 launches (15 kernels per layer x 32 + embedding, norm, lm_head) x 5 us.
  const double step = kBytes / kBw + 483 * 5e-6;  // 9.165384 ms
  EXPECT_NEAR(q.run.totals.timing.time_s, step, 1e-9);
  EXPECT_EQ(q.run.totals.work.kernels, 483);
  // Memory-bound: the 7 linears and the attention of each layer, and lm_head: 257
  // layers. The others (embedding, 65 rmsnorms, 64 rotaries, 64 residual adds, 32
  // swiglus) are bound by their launch; their bytes: embedding 8,192 + 8,194; rmsnorm
  // (4096 + 4096 + 4096 weights) x 2 B x 65 = 1,597,440; rotary 16,640 x 64 = 1,064,960;
  // add 24,576 x 64 = 1,572,864; swiglu 66,048 x 32 = 2,113,536: 6,365,186 B.
  const double memory_bound_s = (kBytes - 6'365'186) / kBw + 257 * 5e-6;  // 8.032262 ms
  EXPECT_NEAR(q.memory_share, memory_bound_s / step, 1e-9);                // 87.64 %
  EXPECT_NEAR(q.overhead_share, 1 - memory_bound_s / step, 1e-9);
  EXPECT_EQ(q.compute_share, 0);
  // Achieved HBM2e bandwidth over the step: 13.764 GB / 9.165 ms = 1.5017 TB/s of 2.039.
  ASSERT_EQ(q.levels[0].name, "HBM2e");
  EXPECT_NEAR(q.levels[0].achieved_Bps, kBytes / step, 1);
  EXPECT_EQ(q.levels[0].peak_Bps, kBw);
  // With one launch per step (a CUDA graph) the step is 6.7504 ms + 5 us and HBM2e runs
  // at 13.764 GB / 6.7554 ms = 2.0375 TB/s, 99.9 % of its peak.
  ModelQuery graph = llama_decode(LaunchOverhead::per_step);
  EXPECT_NEAR(graph.levels[0].achieved_Bps, kBytes / (kBytes / kBw + 5e-6), 1);
  EXPECT_NEAR(graph.memory_share, 1.0, 1e-3);
}

TEST(ModelQuery, LargestLinearFlipsAtTheBatchItsIntensityReachesTheRidge) {
  // lm_head, N = 32000 outputs, K = 4096 inputs, is the largest linear (262,144,000 B).
  // At batch b, fp16: compute 2bNK / 312e12, memory (2NK + 2b(N + K)) / 2.039e12. It is
  // compute-bound once b (NK r - (N + K)) >= NK with r = 2.039 / 312 = 0.0065353:
  // 131,072,000 / (856,591.6 - 36,096) = 159.75, so batch 160.
  ModelQuery q = llama_decode();
  ASSERT_TRUE(q.biggest_linear.has_value());
  EXPECT_EQ(q.biggest_linear->layer.name, "lm_head");
  EXPECT_EQ(q.biggest_linear->layer.work.weight_bytes, 262'144'000);
  ASSERT_TRUE(q.biggest_linear->compute_bound_at_batch.has_value());
  EXPECT_EQ(*q.biggest_linear->compute_bound_at_batch, 160);
}

TEST(ModelQuery, CliAnswersInWordsAndJson) {
  const std::string cmd = "query llama-2-7b --hw a100 --dtype fp16 --phase decode --context 1024 --efficiency none";
  ridge_test::RidgeRun t = ridge_test::run_ridge(cmd);
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("Yes, decode at context 1024 is bandwidth-limited for the model as a whole: 87.6%"),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("KV cache 537.4 MB"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("The KV cache stream: 537.4 MB per step"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("lm_head (262.1 MB of weights), turns compute-bound at batch 160"), std::string::npos) << t.out;
  ridge_test::RidgeRun j = ridge_test::run_ridge(cmd + " --format json");
  ASSERT_EQ(j.status, 0) << j.err;
  nlohmann::json v = nlohmann::json::parse(j.out);
  EXPECT_EQ(v["bandwidth_limited"], true);
  EXPECT_EQ(v["bytes_per_token"]["weights"].get<double>(), kWeights);
  EXPECT_EQ(v["bytes_per_token"]["kv"].get<double>(), kKv);
  EXPECT_EQ(v["bytes_per_token"]["activations"].get<double>(), kAct);
  EXPECT_EQ(v["largest_linear"]["compute_bound_at_batch"], 160);
  // Prefill of the same 1024 tokens is compute-bound in the linears: not bandwidth-limited.
  ridge_test::RidgeRun p = ridge_test::run_ridge("query llama-2-7b --hw a100 --dtype fp16 --phase prefill --seq 1024");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.out.find("No, prefill of 1024 tokens is not bandwidth-limited"), std::string::npos) << p.out;
}

}  // namespace
}  // namespace ridge
