// Serving a mixture of experts with expert parallelism (generate --parallel dp=E,ep=E)
// and serving on a system at the device's own roofs, against numbers worked out by hand
// from Mixtral 8x7B's published shape and the dgx-a100 descriptor.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/run_ridge.hpp"

namespace {

// Mixtral 8x7B (Jiang et al. 2024; Hugging Face config): 32 layers, hidden 4096, 8
// experts of SwiGLU ffn 14336 (3 x 4096 x 14336 = 176,160,768 parameters each), top-2;
// the dense rest (embedding, lm_head, attention, router, norms) 1,605,636,096 parameters
// (tests/test_parallel_experts_context.cpp derives it).
constexpr double kExpert = 3.0 * 4096 * 14336;
constexpr double kDense = 2 * 32000.0 * 4096 + 32 * 41984000.0 + 4096;

nlohmann::json run_json(const std::string& args) {
  auto r = ridge_test::run_ridge(args + " --format json");
  EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// The weight bytes the first MoE layer reads (-1 when the report has no such layer).
double first_experts_weight_bytes(const nlohmann::json& j) {
  for (const auto& layer : j["layers"])
    if (layer["name"] == "layers.0.experts") return layer["weight_bytes"].get<double>();
  return -1;
}

// dgx-a100's NVLink: 1 us a step, 300 GB/s x 0.78 = 234 GB/s achievable. An all-to-all of
// B bytes a device over 8 GPUs in one node: 7 steps + 7/8 of B over the link
// (sim/parallel/collectives.hpp).
double a2a_8(double bytes) { return 7 * 1e-6 + bytes * 7 / 8 / 234e9; }

TEST(ExpertParallelServing, OneRanksWeightsAreTheDensePartAndOneEighthOfTheExperts) {
  // At ep 8 a device holds one expert of each of the 32 MoE layers: 1,605,636,096 +
  // 32 x 176,160,768 = 7,242,780,672 parameters, against 46,702,792,704 at ep 1.
  nlohmann::json one = run_json("analyze mixtral-8x7b --set model.ep=8 --phase decode --context 127");
  nlohmann::json all = run_json("analyze mixtral-8x7b --phase decode --context 127");
  EXPECT_EQ(one["totals"]["params"].get<double>(), kDense + 32 * kExpert);
  EXPECT_EQ(all["totals"]["params"].get<double>(), kDense + 32 * 8 * kExpert);
  // A decode step at batch 1: the device's one expert receives the tokens of all 8 ranks,
  // 8 tokens each routed to 2 of the 8 experts, so it is read unless all 8 miss it:
  // 1 - (6/8)^8 = 0.8998870849609375 of 176,160,768 x 2 B = 317,049,600 B a layer
  // (against 8 (1 - (6/8)^1) = 2 experts, 704,643,072 B, for one device holding all 8).
  EXPECT_EQ(first_experts_weight_bytes(one), 317049600.0);
  EXPECT_EQ(first_experts_weight_bytes(all), 2 * kExpert * 2);
}

TEST(ExpertParallelServing, Mixtral8x7bAtEp8OnDgxA100ByHand) {
  // dp 8, ep 8, batch 4 a rank, fp16, prompt 128, 3 tokens. A decode step's dispatch holds
  // 4 tokens x 4096 x 2 B x top-2 = 65,536 B a device: 7 us + 65,536 x 7/8 / 234e9 s =
  // 7.2451 us; dispatch and combine in each of 32 layers, 64 a step. The prefill's hold
  // 4 x 128 tokens: 8,388,608 B, 7 us + 31.37 us. tp 1: no all-reduces.
  nlohmann::json j = run_json("generate mixtral-8x7b --system dgx-a100 --parallel dp=8,ep=8 --batch 4 --prompt 128 --gen 3");
  const nlohmann::json& p = j["parallel"];
  EXPECT_EQ(p["ep"], 8);
  EXPECT_EQ(p["decode_all_to_all_bytes"].get<double>(), 65536.0);
  EXPECT_NEAR(p["decode_all_to_all_s"].get<double>(), a2a_8(65536), 1e-15);
  EXPECT_NEAR(p["decode_step_communication_s"].get<double>(), 64 * a2a_8(65536), 1e-12);
  EXPECT_NEAR(p["prefill_communication_s"].get<double>(), 64 * a2a_8(8388608), 1e-12);
  // --gpus names the same 8 devices.
  nlohmann::json g = run_json("generate mixtral-8x7b --system dgx-a100 --gpus 8 --parallel dp=8,ep=8 --batch 4 --prompt 128 --gen 3");
  EXPECT_EQ(g["tpot_s"], j["tpot_s"]);
}

TEST(ExpertParallelServing, ImbalanceTimesTheBusiestRankByHand) {
  // --expert-imbalance 1.5: the rank timed receives 1.5 x the mean's token-expert pairs, so
  // a decode step's dispatch holds 1.5 x 65,536 = 98,304 B: 7 us + 98,304 x 7/8 / 234e9 s.
  nlohmann::json j = run_json("generate mixtral-8x7b --system dgx-a100 --parallel dp=8,ep=8 --batch 4 --prompt 128 --gen 3 "
                              "--expert-imbalance 1.5");
  const nlohmann::json& p = j["parallel"];
  EXPECT_EQ(p["expert_imbalance"].get<double>(), 1.5);
  EXPECT_EQ(p["decode_all_to_all_bytes"].get<double>(), 98304.0);
  EXPECT_NEAR(p["decode_step_communication_s"].get<double>(), 64 * a2a_8(98304), 1e-12);
  EXPECT_NEAR(p["prefill_communication_s"].get<double>(), 64 * a2a_8(1.5 * 8388608), 1e-12);
  // Its expert GEMMs are 1.5 x the uniform rank's, so every token takes longer.
  nlohmann::json uniform = run_json("generate mixtral-8x7b --system dgx-a100 --parallel dp=8,ep=8 --batch 4 --prompt 128 --gen 3");
  EXPECT_GT(j["tpot_s"].get<double>(), uniform["tpot_s"].get<double>() + 64 * (a2a_8(98304) - a2a_8(65536)));
  EXPECT_EQ(uniform["parallel"]["expert_imbalance"].get<double>(), 1.0);
  // The bound and the plans without experts go through the plan checks analyze and plan use.
  for (auto [args, message] :
       {std::pair<const char*, const char*>{"mixtral-8x7b --parallel dp=8,ep=8 --expert-imbalance 4.5",
                                            "--expert-imbalance 4.50 is more than routing allows at ep=8"},
        {"mixtral-8x7b --parallel dp=8,ep=8 --expert-imbalance 0.5", "--expert-imbalance must be at least 1"},
        {"llama-2-70b --parallel tp=8 --expert-imbalance 1.5", "--expert-imbalance needs ep > 1"}}) {
    auto r = ridge_test::run_ridge(std::string("generate ") + args + " --prompt 8 --gen 2");
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
  }
}

TEST(ExpertParallelServing, TpWithEpIsRefusedNamingThePlansThatServe) {
  // tp 2 x ep 4 is 8 devices; the hint names the two serving plans of 8 devices, and both run.
  auto r = ridge_test::run_ridge("generate mixtral-8x7b --system dgx-a100 --parallel tp=2,dp=4,ep=4 --prompt 8 --gen 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("generate serves tp=T[,pp=P] (each rank a tp share of every expert) or dp=E,ep=E[,pp=P]"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("hint: on the same 8 devices a stage: --parallel tp=8 or --parallel dp=8,ep=8 "), std::string::npos)
      << r.err;
  for (const char* plan : {"tp=8", "dp=8,ep=8"})
    EXPECT_EQ(ridge_test::run_ridge(std::string("generate mixtral-8x7b --system dgx-a100 --parallel ") + plan + " --prompt 8 --gen 2").status, 0)
        << plan;
}

TEST(ExpertParallelServing, TheFitCheckHoldsOneRanksExperts) {
  // 46.7e9 parameters x 2 B = 93.4 GB do not fit one A100's 80 GB; at ep 8 a device
  // holds 7,242,780,672 x 2 B = 14.5 GB and fits.
  auto r = ridge_test::run_ridge("generate mixtral-8x7b --system dgx-a100 --parallel tp=1 --prompt 128 --gen 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("does not fit"), std::string::npos) << r.err;
  r = ridge_test::run_ridge("generate mixtral-8x7b --system dgx-a100 --parallel dp=8,ep=8 --prompt 128 --gen 2");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(ExpertParallelServing, PlansItCannotServeAreInputErrors) {
  // The serving plan goes through the training plans' checks (sim/parallel/plan_check.cpp)
  // besides its own (sim/cli/cmd_generate.cpp, rows of tests/test_input_error_table.cpp).
  for (auto [args, message] : {std::pair<const char*, const char*>{"llama-2-70b --parallel tp=3", "plan for 'llama-2-70b': tp=3 does not divide the 64 attention heads"},
                               {"llama-2-70b --parallel tp=8,pp=3", "plan for 'llama-2-70b': pp=3 does not divide the 80 layers"},
                               {"llama-2-70b --parallel tp=8,pp=80 --system pcie-l4x8", "the plan takes 640 devices, more than the 8 of system 'pcie-l4x8'"},
                               {"llama-2-7b --parallel dp=2,ep=2", "plan for 'llama-2-7b': ep=2 needs a mixture-of-experts model"},
                               {"mixtral-8x7b --parallel dp=3,ep=3", "plan for 'mixtral-8x7b': ep=3 does not divide the 8 experts"},
                               {"mixtral-8x7b --parallel dp=4,ep=8", "with ep=8 generate needs dp=8 (got dp=4)"}}) {
    auto r = ridge_test::run_ridge(std::string("generate ") + args + " --prompt 8 --gen 2");
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
  }
}

TEST(SystemServing, RunsAtTheDevicesOwnRoofsNotTheTrainingFit) {
  // dgx-a100's [efficiency] (compute 0.7327, memory 0.6332) and dgx1-v100's (0.3453,
  // 0.6498) are fitted on Megatron-LM training; serving on them must time the device as
  // --hw does (its descriptor's achievable roofs), so tp 1 on the system is the single
  // device, number for number.
  for (auto [system_name, device_name] : {std::pair<const char*, const char*>{"dgx-a100", "a100"}, {"dgx1-v100", "v100"}})
    for (const char* efficiency : {"calibrated", "none"}) {
      const std::string e = std::string(" --efficiency ") + efficiency;
      nlohmann::json system =
          run_json(std::string("generate llama-2-7b --system ") + system_name + " --parallel tp=1 --prompt 128 --gen 16" + e);
      nlohmann::json device = run_json(std::string("generate llama-2-7b --hw ") + device_name + " --prompt 128 --gen 16" + e);
      for (const char* key : {"ttft_s", "tpot_s", "total_time_s", "kv_cache_bytes"})
        EXPECT_EQ(system[key], device[key]) << system_name << " " << key << e;
    }
}

}  // namespace
