// Parallel sweeps (a sweep file with `system`): each point must equal the single
// `ridge analyze --parallel` run with the same settings (run through the real binary),
// dp follows from gpus by hand, the bubble is the hand-computed 1F1B figure of
// docs/guide/many-gpus.md's worked example, plans that do not divide are rows with a
// status, and bad values are located errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/base/error.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/parallel/parallel_sweep.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

using ridge::InputError;
using ridge::parse_sweep;
using ridge::run_parallel_sweep;

const char* kHead = "models = [\"gpt3\"]\nsystem = [\"dgx-a100\"]\ngpus = [64]\n";

TEST(ParallelSweep, RowsVaryTheLastKeyFastestAndDeriveDpFromGpus) {
  // [[vary]] parallel.tp is listed after pp but tp comes first in row order.
  auto sweep = run_parallel_sweep(parse_sweep(std::string(kHead) +
                                                  "[parallel]\npp = [4, 8]\nglobal_batch = 64\n"
                                                  "[[vary]]\nkey = \"parallel.tp\"\nvalues = [4, 8]\n",
                                              "in.toml"));
  ASSERT_EQ(sweep.points.size(), 4u);
  // By hand: dp = 64 / (tp x pp).
  const int64_t expect[4][3] = {{4, 4, 4}, {4, 8, 2}, {8, 4, 2}, {8, 8, 1}};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(sweep.points[i].plan.tp, expect[i][0]);
    EXPECT_EQ(sweep.points[i].plan.pp, expect[i][1]);
    EXPECT_EQ(sweep.points[i].plan.dp, expect[i][2]);
    EXPECT_EQ(sweep.points[i].status, "ok");
    ASSERT_TRUE(sweep.points[i].estimate);
  }
  // tp 8, pp 8, dp 1, global batch 64: m = 64 microbatches, 1F1B idles (p-1)/(m+p-1) =
  // 7/71 = 9.86% of the pipeline's compute slots (many-gpus.md, worked example; the
  // stage-to-stage sends come on top).
  auto slot_share = [](const ridge::TrainingEstimate& e) { return e.bubble_s / (e.pipeline_s - e.pp_comm_s); };
  EXPECT_NEAR(slot_share(*sweep.points[3].estimate), 7.0 / 71.0, 1e-12);
  // tp 4, pp 8, dp 2: m = 64 / 2 = 32, 7/39.
  EXPECT_NEAR(slot_share(*sweep.points[1].estimate), 7.0 / 39.0, 1e-12);
}

TEST(ParallelSweep, PlansThatDoNotDivideAreRowsWithAStatus) {
  auto sweep = run_parallel_sweep(parse_sweep(std::string(kHead) + "[parallel]\ntp = [3, 16]\npp = 1\n", "in.toml"));
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.points[0].status, "invalid plan: tp x pp x cp = 3 does not divide gpus 64");
  // tp 16 divides 64 (dp 4), the 96 heads (6 each) and hidden 12288 (768 each): it runs.
  EXPECT_EQ(sweep.points[1].status, "ok");
  EXPECT_EQ(sweep.points[1].plan.dp, 4);
  auto mismatch = run_parallel_sweep(parse_sweep(std::string(kHead) + "[parallel]\ntp = 8\npp = 8\ndp = 2\n", "in.toml"));
  EXPECT_EQ(mismatch.points[0].status, "invalid plan: gpus 64 is not tp x pp x dp x cp = 128");
  auto heads = run_parallel_sweep(parse_sweep("models = [\"gpt3\"]\nsystem = [\"dgx-a100\"]\n[parallel]\ntp = 5\n", "in.toml"));
  EXPECT_EQ(heads.points[0].status, "invalid plan: tp=5 does not divide the 96 attention heads");
}

TEST(ParallelSweep, ACnnRunsDataParallelOnlyAndOtherPlanKeysAreAStatus) {
  auto sweep = run_parallel_sweep(parse_sweep("models = [\"resnet50\"]\nsystem = [\"dgx1-v100\"]\n[parallel]\n"
                                              "global_batch = 256\n[[vary]]\nkey = \"parallel.dp\"\nvalues = [1, 8]\n",
                                              "in.toml"));
  ASSERT_EQ(sweep.points.size(), 2u);
  for (const auto& p : sweep.points) {
    ASSERT_EQ(p.status, "ok");
    ASSERT_TRUE(p.data_parallel);
    EXPECT_FALSE(p.estimate);
  }
  const ridge::DataParallelEstimate& one = *sweep.points[0].data_parallel;
  const ridge::DataParallelEstimate& eight = *sweep.points[1].data_parallel;
  // dp 1: one device runs the whole batch of 256 and reduces nothing.
  EXPECT_EQ(one.settings.batch, 256);
  EXPECT_TRUE(one.collectives.empty());
  EXPECT_EQ(one.iteration_time_s, one.step_s);
  // dp 8: 32 samples per replica and one all-reduce of the fp32 gradients, 4 B x params
  // (25,557,032 for resnet50, torchvision's count) = 102,228,128 B (test_parallel.cpp
  // checks its time by hand).
  EXPECT_EQ(eight.settings.batch, 32);
  ASSERT_EQ(eight.collectives.size(), 1u);
  EXPECT_EQ(eight.collectives[0].cost.bytes, 102228128.0);
  EXPECT_EQ(eight.collectives[0].cost.group_size, 8);
  EXPECT_DOUBLE_EQ(eight.samples_per_s, 256 / eight.iteration_time_s);
  auto sharded = run_parallel_sweep(parse_sweep("models = [\"resnet50\"]\nsystem = [\"dgx1-v100\"]\n[parallel]\n"
                                                "tp = 2\n", "in.toml"));
  EXPECT_EQ(sharded.points[0].status,
            "invalid plan: the model has no [params] to shard, so only dp, global_batch and overlap apply");
  auto too_many = run_parallel_sweep(parse_sweep("models = [\"resnet50\"]\nsystem = [\"dgx1-v100\"]\n[parallel]\n"
                                                 "dp = 16\nglobal_batch = 256\n", "in.toml"));
  EXPECT_EQ(too_many.points[0].status, "invalid plan: dp 16 is more than the 8 devices of dgx1-v100");
}

// The line of the error a sweep text raises when run.
int64_t error_line(const std::string& text) {
  try {
    run_parallel_sweep(parse_sweep(text, "in.toml"));
  } catch (const InputError& e) {
    return e.where().line;
  }
  return -1;
}

TEST(ParallelSweep, BadValuesAreErrorsWhereTheyWereWritten) {
  EXPECT_EQ(error_line(std::string(kHead) + "[parallel]\nzero = [1, 5]\n"), 5);
  EXPECT_EQ(error_line(std::string(kHead) + "[parallel]\n\nrecompute = \"fast\"\n"), 6);
  EXPECT_EQ(error_line(std::string(kHead) + "[parallel]\ntp = 0\n"), 5);
  EXPECT_EQ(error_line(std::string(kHead) + "[parallel]\nsequence_parallel = \"yes\"\n"), 5);
  EXPECT_EQ(error_line("models = [\"gpt3\"]\nsystem = [\"dgx-z\"]\n"), 2);
  EXPECT_EQ(error_line(std::string(kHead) + "hardware = [\"a100\"]\n"), 4);
  EXPECT_EQ(error_line(std::string(kHead) + "[parallel]\ntp = 2\n[[vary]]\nkey = \"parallel.tp\"\nvalues = [4]\n"), 7);
}

// `ridge sweep` against `ridge analyze --parallel`, both through the binary: every
// total of every point must be the single run's, to the last digit JSON carries.
class ParallelSweepCli : public ridge_test::FolderTest {};

TEST_F(ParallelSweepCli, EachPointEqualsTheSingleAnalyzeRun) {
  write("s.toml", std::string(kHead) +
                      "[parallel]\ntp = [4, 8]\npp = 8\nglobal_batch = 64\nzero = 1\nrecompute = \"selective\"\n"
                      "sequence_parallel = true\n");
  auto sweep = ridge_test::run_ridge("sweep " + at("s.toml") + " --format json");
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  nlohmann::json points = nlohmann::json::parse(sweep.out)["points"];
  ASSERT_EQ(points.size(), 2u);
  const char* single[2] = {"tp=4,pp=8,dp=2", "tp=8,pp=8,dp=1"};
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(single[i]);
    auto one = ridge_test::run_ridge(std::string("analyze gpt3 --system dgx-a100 --parallel ") + single[i] +
                                     " --global-batch 64 --zero 1 --recompute selective --sequence-parallel --format json");
    ASSERT_EQ(one.status, 0) << one.err;
    nlohmann::json expected = nlohmann::json::parse(one.out);
    EXPECT_EQ(points[i]["status"], "ok");
    EXPECT_EQ(points[i]["plan"], expected["plan"]);
    for (const char* key : {"iteration_time_s", "tokens_per_s", "mfu", "hfu", "bubble_share", "communication_time_s",
                            "memory_per_device_bytes", "fits"})
      EXPECT_EQ(points[i]["totals"][key], expected["totals"][key]) << key;
  }
}

TEST_F(ParallelSweepCli, EachCnnPointEqualsTheSingleDataParallelAnalyzeRun) {
  write("s.toml", "models = [\"resnet50\"]\nsystem = [\"dgx1-v100\"]\n[parallel]\nglobal_batch = 256\ndp = [2, 8]\n");
  auto sweep = ridge_test::run_ridge("sweep " + at("s.toml") + " --format json");
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  EXPECT_NE(sweep.err.find("resnet50 on dgx1-v100: fastest plan that fits: dp8 (data parallel)"), std::string::npos) << sweep.err;
  nlohmann::json points = nlohmann::json::parse(sweep.out)["points"];
  ASSERT_EQ(points.size(), 2u);
  const char* dp[2] = {"2", "8"};
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(dp[i]);
    auto one = ridge_test::run_ridge(std::string("analyze resnet50 --system dgx1-v100 --parallel dp=") + dp[i] +
                                     " --global-batch 256 --format json");
    ASSERT_EQ(one.status, 0) << one.err;
    nlohmann::json expected = nlohmann::json::parse(one.out);
    EXPECT_EQ(points[i]["status"], "ok");
    EXPECT_EQ(points[i]["plan"], expected["plan"]);
    EXPECT_EQ(points[i]["totals"], expected["totals"]);
  }
  auto csv = ridge_test::run_ridge("sweep " + at("s.toml") + " --quiet");
  ASSERT_EQ(csv.status, 0) << csv.err;
  // tokens_per_s is empty for a CNN; samples_per_s is given.
  std::string row = csv.out.substr(csv.out.find('\n') + 1);
  EXPECT_EQ(row.substr(0, row.find(",ok,") + 4), "resnet50,dgx1-v100,2,1,1,2,1,1,false,1,256,0,none,1,true,1,ok,") << row;
}

TEST_F(ParallelSweepCli, CsvHasTheTotalsColumnsAndSingleDeviceOptionsAreRefused) {
  write("s.toml", std::string(kHead) + "[parallel]\ntp = 8\npp = 8\n");
  auto csv = ridge_test::run_ridge("sweep " + at("s.toml"));
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "model,system,gpus,tp,pp,dp,cp,ep,sequence_parallel,microbatch,global_batch,zero,recompute,interleave,overlap,"
            "expert_imbalance,status,iteration_time_s,tokens_per_s,samples_per_s,mfu,hfu,bubble_share,communication_time_s,memory_per_device_bytes,fits");
  EXPECT_NE(csv.err.find("gpt3 on dgx-a100: "), std::string::npos) << csv.err;
  auto per_layer = ridge_test::run_ridge("sweep " + at("s.toml") + " --per-layer");
  EXPECT_EQ(per_layer.status, 2);
  EXPECT_NE(per_layer.err.find("--per-layer does not apply to a parallel sweep"), std::string::npos) << per_layer.err;
}

}  // namespace
