// Expert parallelism (ep) of a mixture of experts and context parallelism (cp), each
// against numbers worked out by hand here from the published model shapes: per-device
// expert parameters, all-to-all and K/V all-gather bytes and times, activation memory,
// and the plan search, sweeps and bad plans.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/parallel/system_reader.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

// Mixtral 8x7B (Jiang et al. 2024; Hugging Face config): 32 layers, hidden 4096, 8
// experts of SwiGLU ffn 14336 (gate, up, down: 3 x 4096 x 14336 = 176,160,768 each),
// top-2, vocabulary 32000, 32 heads, 8 key/value heads of 128.
constexpr double kExpert = 3.0 * 4096 * 14336;      // 176,160,768
constexpr double kExperts = 32 * 8 * kExpert;       // 45,097,156,608 in all
// The rest: embedding and lm_head 2 x 32000 x 4096, per layer q 4096^2 + k, v 2 x 4096 x
// 1024 + o 4096^2 + router 4096 x 8 + 2 norms x 4096 = 41,984,000, final norm 4096.
constexpr double kDense = 2 * 32000.0 * 4096 + 32 * 41984000.0 + 4096;  // 1,605,636,096

nlohmann::json run_json(const std::string& args) {
  auto r = ridge_test::run_ridge(args + " --format json");
  EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// The collective rows of `group` and `op`.
std::vector<nlohmann::json> rows(const nlohmann::json& j, const std::string& group, const std::string& op) {
  std::vector<nlohmann::json> out;
  for (const auto& c : j["collectives"])
    if (c["group"] == group && c["op"] == op) out.push_back(c);
  return out;
}

TEST(ExpertParallel, Mixtral8x7bAtEp8OnDgxH100ByHand) {
  EXPECT_EQ(kExperts + kDense, 46702792704.0);  // models/mixtral-8x7b.toml's published total
  // dp 8, ep 8: each device holds 1 of the 8 experts of each of 32 layers.
  nlohmann::json j = run_json("memory mixtral-8x7b --system dgx-h100 --parallel dp=8,ep=8");
  const double experts_per_device = 32 * kExpert;  // 5,637,144,576
  EXPECT_EQ(j["memory"]["expert_params_per_device"].get<double>(), experts_per_device);
  EXPECT_EQ(j["memory"]["weights_bytes"].get<double>(), 2 * (kDense + experts_per_device));     // 14,485,561,344
  EXPECT_EQ(j["memory"]["gradients_bytes"].get<double>(), 2 * (kDense + experts_per_device));
  EXPECT_EQ(j["memory"]["optimizer_bytes"].get<double>(), 12 * (kDense + experts_per_device));  // 86,913,368,064
  // Dispatch and combine: the rank's 1024 tokens x 4096 x top-2 x 2 B = 16,777,216 B, of
  // which 7/8 leave the device over NVLink 4 (450 GB/s x 0.8, 1 us a step, 7 steps):
  // 7 us + 14,680,064 / 360e9 s = 47.777 us; 2 a layer x 32 layers each way.
  auto a2a = rows(j, "ep", "all_to_all");
  ASSERT_EQ(a2a.size(), 2u);
  for (const auto& c : a2a) {
    EXPECT_EQ(c["bytes"].get<double>(), 16777216.0);
    EXPECT_EQ(c["group_size"], 8);
    EXPECT_EQ(c["link"], "scale_up");
    EXPECT_EQ(c["count"].get<double>(), 64.0);
    EXPECT_NEAR(c["time_s"].get<double>(), 7e-6 + 16777216.0 * 7 / 8 / 360e9, 1e-12);
  }
  EXPECT_NEAR(j["totals"]["ep_communication_s"].get<double>(), 128 * (7e-6 + 16777216.0 * 7 / 8 / 360e9), 1e-9);
  // The dense gradients all-reduce over the 8 data-parallel ranks; each expert lives on
  // one device only, so no expert gradient is reduced.
  auto dense = rows(j, "dp", "all_reduce");
  ASSERT_EQ(dense.size(), 1u);
  EXPECT_EQ(dense[0]["bytes"].get<double>(), 2 * kDense);
  EXPECT_TRUE(rows(j, "edp", "all_reduce").empty());
}

// --expert-imbalance F (issue #24): the busiest expert rank gets F times the mean rank's
// token-expert pairs, so its expert GEMMs take F times as long and its all-to-alls move
// F times the bytes. Worked on made-up layer times: a Mixtral-shaped layer whose forward
// takes 10 ms, 4 of them in the MoE op, and whose backward takes 20 ms, 8 in the MoE op.
TEST(ExpertParallel, ImbalanceScalesTheBusiestRanksExpertTimeByHand) {
  using namespace ridge;
  const SystemSpec sys = load_system("dgx-h100");
  const TransformerParams shape{32, 4096, 32, 1024, 8, 8, 2};
  ShardedLayers layers;
  layers.block.forward_s = 10e-3;
  layers.block.backward_s = 20e-3;
  layers.block.expert_forward_s = 4e-3;
  layers.block.expert_backward_s = 8e-3;
  ParallelPlan plan;
  plan.dp = 8;
  plan.ep = 8;
  auto stage = [&](double imbalance, Recompute r) {
    plan.expert_imbalance = imbalance;
    plan.recompute = r;
    return estimate_training("m", sys, plan, shape, layers, layers);
  };
  // Uniform: 32 layers x 10 ms forward, 32 x 20 ms backward.
  TrainingEstimate uniform = stage(1.0, Recompute::none);
  EXPECT_NEAR(uniform.stage_forward_s, 32 * 10e-3, 1e-12);
  EXPECT_NEAR(uniform.stage_backward_s, 32 * 20e-3, 1e-12);
  // F = 1.5: forward 32 x (10 + 0.5 x 4) = 384 ms, backward 32 x (20 + 0.5 x 8) = 768 ms;
  // full recomputation re-runs the slowed forward: 32 x (24 + 12) = 1,152 ms.
  TrainingEstimate busy = stage(1.5, Recompute::none);
  EXPECT_NEAR(busy.stage_forward_s, 0.384, 1e-12);
  EXPECT_NEAR(busy.stage_backward_s, 0.768, 1e-12);
  EXPECT_NEAR(stage(1.5, Recompute::full).stage_backward_s, 1.152, 1e-12);
  // The all-to-alls: the rank's 1024 tokens x 4096 x top-2 x 2 B = 16,777,216 B, x 1.5.
  for (const CollectiveRow& r : busy.collectives) {
    if (r.group == "ep") {
      EXPECT_EQ(r.cost.bytes, 1.5 * 16777216.0);
    }
  }
}

TEST(ExpertParallel, ImbalanceOnTheCommandLineByHand) {
  // Mixtral at dp 8, ep 8 on dgx-h100 with F = 1.5: a dispatch is 1.5 x 16,777,216 =
  // 25,165,824 B, 7/8 of it over NVLink 4: 7 us + 22,020,096 / 360e9 s = 68.17 us.
  nlohmann::json one = run_json("analyze mixtral-8x7b --system dgx-h100 --parallel dp=8,ep=8");
  nlohmann::json j = run_json("analyze mixtral-8x7b --system dgx-h100 --parallel dp=8,ep=8 --expert-imbalance 1.5");
  EXPECT_EQ(j["plan"]["expert_imbalance"].get<double>(), 1.5);
  auto a2a = rows(j, "ep", "all_to_all");
  ASSERT_EQ(a2a.size(), 2u);
  for (const auto& c : a2a) {
    EXPECT_EQ(c["bytes"].get<double>(), 25165824.0);
    EXPECT_NEAR(c["time_s"].get<double>(), 7e-6 + 25165824.0 * 7 / 8 / 360e9, 1e-12);
  }
  // The slower expert GEMMs make the iteration longer and the MFU lower; the model's
  // FLOPs stay (the other ranks idle rather than compute more).
  EXPECT_GT(j["totals"]["stage_forward_s"].get<double>(), one["totals"]["stage_forward_s"].get<double>());
  EXPECT_LT(j["totals"]["mfu"].get<double>(), one["totals"]["mfu"].get<double>());
  EXPECT_EQ(j["totals"]["model_flops"], one["totals"]["model_flops"]);
  // Bad imbalances are plan errors (exit 2): below 1; above 1 without ep; above what top-2
  // routing allows at ep 8: each rank holds 1 expert a layer, so it receives each token
  // at most once: 8 x min(2, 8 / 8) / 2 = 4 times the mean.
  struct Bad {
    const char* args;
    const char* message;
  } bad[] = {
      {"--parallel dp=8,ep=8 --expert-imbalance 0.5", "--expert-imbalance must be at least 1"},
      {"--parallel dp=8 --expert-imbalance 1.5", "--expert-imbalance needs ep > 1"},
      {"--parallel dp=8,ep=8 --expert-imbalance 4.5", "is more than routing allows at ep=8: ep x min(top_k, experts / ep) / top_k = 4.00"},
  };
  for (const Bad& b : bad) {
    auto r = ridge_test::run_ridge(std::string("analyze mixtral-8x7b --system dgx-h100 ") + b.args);
    EXPECT_EQ(r.status, 2) << b.args;
    EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
  }
  EXPECT_EQ(ridge_test::run_ridge("analyze mixtral-8x7b --system dgx-h100 --parallel dp=8,ep=8 --expert-imbalance 4").status, 0);
  // Without a plan the option is refused, as every plan option is.
  EXPECT_EQ(ridge_test::run_ridge("analyze mixtral-8x7b --expert-imbalance 2").status, 2);
}

TEST(ExpertParallel, ExpertGradientsReduceOverTheRanksHoldingTheSameExperts) {
  // dp 8, ep 2: 4 experts a layer per device; the experts' gradients all-reduce over the
  // 8 / 2 = 4 devices that hold the same 4; ZeRO 1 shards their optimizer state 4 ways,
  // the dense optimizer state 8 ways.
  nlohmann::json j = run_json("memory mixtral-8x7b --system dgx-h100 --parallel dp=8,ep=2 --zero 1");
  const double experts_per_device = kExperts / 2;  // 22,548,578,304
  EXPECT_EQ(j["memory"]["expert_params_per_device"].get<double>(), experts_per_device);
  EXPECT_EQ(j["memory"]["optimizer_bytes"].get<double>(), 12 * (kDense / 8 + experts_per_device / 4));
  auto edp = rows(j, "edp", "reduce_scatter");
  ASSERT_EQ(edp.size(), 1u);
  EXPECT_EQ(edp[0]["group_size"], 4);
  EXPECT_EQ(edp[0]["bytes"].get<double>(), 2 * experts_per_device);
  // With tp 2 (sequence parallel, which Megatron-LM requires with ep) and ep 4 over dp 4:
  // each expert's ffn splits 2 ways, 8 / 4 experts a device: 32 x 2 x 3 x 4096 x 7168.
  j = run_json("memory mixtral-8x7b --system dgx-h100 --parallel tp=2,dp=4,ep=4 --sequence-parallel");
  EXPECT_EQ(j["memory"]["expert_params_per_device"].get<double>(), 32 * 2 * 3 * 4096.0 * 7168);
  // A rank's tokens are 1024 / 2 under sequence parallelism: 512 x 4096 x 2 x 2 B.
  auto a2a = rows(j, "ep", "all_to_all");
  ASSERT_FALSE(a2a.empty());
  EXPECT_EQ(a2a[0]["bytes"].get<double>(), 8388608.0);
  EXPECT_EQ(a2a[0]["group_size"], 4);
}

TEST(ContextParallel, Gpt3AtCp2ByHand) {
  // GPT-3 175B (s 2048, h 12288, 96 heads, 96 layers), tp 8, cp 2, one microbatch of 1.
  // Korthikanti et al. 2022, tensor parallel, no recomputation: sbh (10 + 24/t + 5as/(ht))
  // = sbh (10 + 3 + 10) = 23 x 2048 x 12288 = 578,813,952 B a layer, split over cp = 2;
  // the one microbatch holds all 96 layers.
  nlohmann::json one = run_json("memory gpt3 --system dgx-a100 --parallel tp=8");
  nlohmann::json two = run_json("memory gpt3 --system dgx-a100 --parallel tp=8,cp=2");
  EXPECT_EQ(one["memory"]["activations_bytes"].get<double>(), 96 * 23 * 2048 * 12288.0);
  EXPECT_EQ(two["memory"]["activations_bytes"].get<double>(), 96 * 23 * 2048 * 12288.0 / 2);
  // The cp group: ranks 8 apart, so the two are in two DGX nodes. K and V of the whole
  // sequence for one rank's 12 heads: 2 x 2048 x 12288 / 8 x 2 B = 12,582,912 B,
  // gathered once a layer forward, again backward, and their gradients reduce-scattered.
  auto ag = rows(two, "cp", "all_gather");
  ASSERT_EQ(ag.size(), 2u);
  for (const auto& c : ag) {
    EXPECT_EQ(c["bytes"].get<double>(), 12582912.0);
    EXPECT_EQ(c["group_size"], 2);
    EXPECT_EQ(c["link"], "scale_out");
    EXPECT_EQ(c["count"].get<double>(), 96.0);
  }
  auto rs = rows(two, "cp", "reduce_scatter");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0]["count"].get<double>(), 96.0);
  // A two-device all-gather over InfiniBand (25 GB/s x 0.96 = 24 GB/s) through NCCL's
  // network protocols: one ring step moving half, 6,291,456 B; with one rank a node NCCL
  // takes the tree's network hop, plus the 6.76 us network device latency (x2 for Simple):
  //   LL      11.6 + 6.6 + (5.0 + 6.76)    = 29.96 us + 6,291,456 / 12e9     = 554.25 us
  //   LL128   11.6 + 14 + (8.5 + 6.76)     = 40.86 us + 6,291,456 / 22.08e9  = 325.80 us
  //   Simple  11.6 + 8.4 + (14 + 2 x 6.76) = 47.52 us + 6,291,456 / 24e9     = 309.664 us  <- taken
  EXPECT_NEAR(ag[0]["time_s"].get<double>(), 47.52e-6 + 12582912.0 / 2 / 24e9, 1e-12);
  EXPECT_NEAR(ag[0]["time_s"].get<double>(), 309.664e-6, 1e-12);
  // The model's FLOPs do not change; the devices double.
  EXPECT_EQ(two["totals"]["model_flops"], one["totals"]["model_flops"]);
  EXPECT_EQ(two["totals"]["devices"], 16);
  // Each rank runs half the tokens, its attention half of the causal work: about half
  // the forward time (GEMM efficiency at half the rows keeps it from being exactly half).
  double ratio = two["totals"]["stage_forward_s"].get<double>() / one["totals"]["stage_forward_s"].get<double>();
  EXPECT_GT(ratio, 0.5);
  EXPECT_LT(ratio, 0.6);
}

TEST(ContextParallel, ZeroShardsOverDataTimesContextRanks) {
  // ZeRO 1 shards the optimizer state over dp x cp = 2 (Megatron-LM's distributed
  // optimizer spans the data- and context-parallel ranks).
  nlohmann::json one = run_json("memory gpt3 --system dgx-a100 --parallel tp=8 --zero 1");
  nlohmann::json two = run_json("memory gpt3 --system dgx-a100 --parallel tp=8,cp=2 --zero 1");
  EXPECT_EQ(two["memory"]["optimizer_bytes"].get<double>(), one["memory"]["optimizer_bytes"].get<double>() / 2);
  EXPECT_EQ(two["memory"]["weights_bytes"], one["memory"]["weights_bytes"]);
}

TEST(ExpertParallel, PlanSearchCoversEpAndCp) {
  // Mixtral needs 16 B x 46.7 G = 747 GB of weights and Adam state: on 16 H100s the plans
  // that fit shard it; the search tries every ep that divides dp x cp.
  auto r = ridge_test::run_ridge("plan mixtral-8x7b --system dgx-h100 --gpus 16 --global-batch 16 --top 50 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["do_not_divide"]["ep does not divide the experts"].get<int64_t>(), 0);  // ep = 16
  bool expert_parallel = false;
  for (const auto& e : j["best"]) expert_parallel |= e["plan"]["ep"].get<int64_t>() > 1;
  EXPECT_TRUE(expert_parallel);
  // A dense model is never given ep > 1.
  r = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 64 --global-batch 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  for (const auto& e : j["best"]) EXPECT_EQ(e["plan"]["ep"], 1);
}

TEST(ContextParallel, PlanSearchCountsTheCpPlansByHand) {
  // GPT-3 on 2 devices, global batch 2 (numbered as plan_search.cpp enumerates them):
  //   tp 1 pp 1 cp 1 dp 2: microbatch 1; ZeRO 0-3; 3 recomputes             = 12
  //   tp 1 pp 1 cp 2 dp 1: microbatch 1, 2; ZeRO 0-3 (dp x cp = 2); 3       = 24
  //   tp 1 pp 2 cp 1 dp 1: microbatch 1, 2; interleave: the 10 divisors of 48; 3 = 60
  //   tp 2 pp 1 cp 1 dp 1: microbatch 1, 2; sequence parallel or not; 3    = 12
  auto r = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 2 --global-batch 2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["considered"], 108);
}

// The ep and cp plans that cannot run (ep not dividing the experts or dp x cp, cp not
// splitting the sequence, ...) each have a row of their own in
// tests/test_input_error_table.cpp (InputErrorTable.PlanChecksEachWithAHint).

class ExpertSweep : public ridge_test::FolderTest {
 protected:
  // The points of `ridge sweep --format json` over `text` (written as s.toml).
  nlohmann::json points_of(const std::string& text) {
    write("s.toml", text);
    auto sweep = ridge_test::run_ridge("sweep " + at("s.toml") + " --format json");
    EXPECT_EQ(sweep.status, 0) << sweep.err;
    return sweep.status == 0 ? nlohmann::json::parse(sweep.out)["points"] : nlohmann::json::array();
  }
};

TEST_F(ExpertSweep, SweepPointsEqualTheAnalyzeRun) {
  nlohmann::json points = points_of("models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\ngpus = [16]\n"
                                    "[parallel]\nzero = 1\n[[vary]]\nkey = \"parallel.ep\"\nvalues = [2, 8]\n");
  ASSERT_EQ(points.size(), 2u);
  const char* single[2] = {"dp=16,ep=2", "dp=16,ep=8"};
  for (size_t i = 0; i < 2; ++i) {
    nlohmann::json one = run_json(std::string("analyze mixtral-8x7b --system dgx-h100 --zero 1 --parallel ") + single[i]);
    EXPECT_EQ(points[i]["plan"], one["plan"]) << single[i];
    EXPECT_EQ(points[i]["totals"]["iteration_time_s"], one["totals"]["iteration_time_s"]) << single[i];
    EXPECT_EQ(points[i]["totals"]["memory_per_device_bytes"], one["totals"]["memory_per_device_bytes"]) << single[i];
  }
  // A bad value is an error where it was written (line 5), exit 2.
  write("bad.toml", "models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\ngpus = [16]\n[parallel]\nep = 0\n");
  auto bad = ridge_test::run_ridge("sweep " + at("bad.toml"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.toml:5:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("parallel.ep must be an integer from 1"), std::string::npos) << bad.err;
}

TEST_F(ExpertSweep, ImbalanceInASweepEqualsTheAnalyzeRun) {
  // expert_imbalance as a [parallel] list and ep as a [[vary]] key: rows vary the later
  // key (expert_imbalance) fastest. With ep = 1 an imbalance above 1 cannot be (every rank
  // holds every expert), so that row's status says why, as --expert-imbalance does.
  nlohmann::json points = points_of("models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\n[parallel]\ndp = 8\n"
                                    "expert_imbalance = [1, 1.5]\n[[vary]]\nkey = \"parallel.ep\"\nvalues = [1, 8]\n");
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0]["status"], "ok");
  EXPECT_NE(points[1]["status"].get<std::string>().find("--expert-imbalance needs ep > 1"), std::string::npos);
  const char* single[2] = {"--parallel dp=8,ep=8", "--parallel dp=8,ep=8 --expert-imbalance 1.5"};
  for (size_t i = 0; i < 2; ++i) {
    nlohmann::json one = run_json(std::string("analyze mixtral-8x7b --system dgx-h100 ") + single[i]);
    EXPECT_EQ(points[2 + i]["status"], "ok");
    EXPECT_EQ(points[2 + i]["plan"], one["plan"]) << single[i];
    EXPECT_EQ(points[2 + i]["totals"], one["totals"]) << single[i];
  }
  EXPECT_EQ(points[3]["plan"]["expert_imbalance"].get<double>(), 1.5);
  // The CSV carries it as a column.
  auto csv = ridge_test::run_ridge("sweep " + at("s.toml") + " --quiet");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find(",overlap,expert_imbalance,status,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find(",true,1.5,ok,"), std::string::npos) << csv.out;
  // A value below 1 is an error where it was written (line 5), exit 2, no output.
  write("bad.toml", "models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\n[parallel]\ndp = 8\nexpert_imbalance = 0.9\n");
  auto bad = ridge_test::run_ridge("sweep " + at("bad.toml"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_NE(bad.err.find("bad.toml:5:"), std::string::npos) << bad.err;
  // A float is read as written: an integer key refuses 2.0 (not taken as 2), and a [[vary]]
  // value that is no number is an error where it was written (line 6).
  write("bad.toml", "models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\n[parallel]\ndp = 2.0\n");
  bad = ridge_test::run_ridge("sweep " + at("bad.toml"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.toml:4:6: sweep: parallel.dp must be an integer from 1 to 2147483647 (got '2.0')"), std::string::npos) << bad.err;
  write("bad.toml", "models = [\"mixtral-8x7b\"]\nsystem = [\"dgx-h100\"]\n[parallel]\ndp = 8\n[[vary]]\n"
                    "key = \"parallel.expert_imbalance\"\nvalues = [1, \"x\"]\n");
  bad = ridge_test::run_ridge("sweep " + at("bad.toml"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.toml:7:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("(got 'x')"), std::string::npos) << bad.err;
}

TEST(ExpertParallel, PlanSearchTakesTheImbalanceForEveryPlanWithEp) {
  // --expert-imbalance 1.5 applies to the plans with ep > 1 (those with ep = 1 route
  // nothing between ranks); the best such plan is the one `analyze` gives with the same
  // settings, imbalance included. Uniform routing ranks an ep plan first (above); at 1.5
  // the busiest rank's expert GEMMs slow the ep plans down, so a longer list is read.
  nlohmann::json j = run_json("plan mixtral-8x7b --system dgx-h100 --gpus 16 --global-batch 16 --top 400 --expert-imbalance 1.5");
  bool expert_parallel = false;
  for (const auto& e : j["best"]) {
    const bool ep = e["plan"]["ep"].get<int64_t>() > 1;
    expert_parallel |= ep;
    EXPECT_EQ(e["plan"]["expert_imbalance"].get<double>(), ep ? 1.5 : 1.0);
  }
  EXPECT_TRUE(expert_parallel);
  for (const auto& e : j["best"]) {
    if (e["plan"]["ep"].get<int64_t>() == 1) continue;
    const auto& p = e["plan"];
    auto n = [&](const char* k) { return std::to_string(p[k].get<int64_t>()); };
    std::string args = "analyze mixtral-8x7b --system dgx-h100 --parallel tp=" + n("tp") + ",pp=" + n("pp") + ",dp=" + n("dp") +
                       ",cp=" + n("cp") + ",ep=" + n("ep") + " --global-batch 16 --microbatch " + n("microbatch") + " --zero " +
                       n("zero") + " --recompute " + p["recompute"].get<std::string>() + " --interleave " + n("interleave") +
                       (p["sequence_parallel"].get<bool>() ? " --sequence-parallel" : "") + " --expert-imbalance 1.5";
    EXPECT_EQ(run_json(args)["totals"], e["totals"]) << args;
    break;
  }
}

}  // namespace
