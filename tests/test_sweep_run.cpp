// The sweep driver: the vectorised batch timing equals time_layer layer by layer on
// the whole zoo, [[vary]] values reach the timing in the hand-computed ratios, and
// points that cannot run are rows with a status.
#include <gtest/gtest.h>

#include <cmath>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/views/sweep_report.hpp"
#include "sim/engine/sweep_run.hpp"
#include "sim/engine/result.hpp"

namespace ridge {
namespace {

void expect_rel(double a, double b, const std::string& what) {
  double scale = std::max(std::fabs(a), std::fabs(b));
  EXPECT_LE(std::fabs(a - b), 1e-12 * scale) << what << ": " << a << " vs " << b;
}

// Three levels so that hierarchical places streams in all of them: DRAM, a 40 MiB
// cache and a 256 KiB scratchpad; with a host link and launch cost.
HardwareSpec three_levels() {
  HardwareSpec hw = load_hardware("a100");
  hw.id = "three-levels";
  hw.memory.push_back({"SPM", 256.0 * 1024, 20e12});
  hw.compute_efficiency = 0.8;
  hw.memory_efficiency = 0.9;
  return hw;
}

TEST(SweepBatchTiming, VectorisedEqualsPerLayerOnTheZoo) {
  std::vector<HardwareSpec> chips = {three_levels()};
  for (const std::string& name : shipped_hardware_names()) chips.push_back(load_hardware(name));
  size_t compared = 0;
  for (const std::string& name : zoo_names()) {
    Model model = load_model(name);
    for (Phase phase : {Phase::inference, Phase::training})
      for (int64_t batch : {1, 64})
        for (DataPlacement on : {DataPlacement::device, DataPlacement::host}) {
          RunSettings s;
          s.batch = batch;
          s.phase = phase;
          s.data_on = on;
          CostAnalysis costs = analyze_costs(model, s);
          LayerWorkArrays work = to_arrays(layer_work(model, costs));
          for (const HardwareSpec& hw : chips)
            for (const HardwareModel* m : hardware_models()) {
              if (on == DataPlacement::host && !hw.link) continue;  // an input error (a host with no link)
              LayerTimingArrays fast, slow;
              TimingSums a = m->time_layers(work, hw, s.dtype, fast);
              TimingSums b = time_layers_one_by_one(*m, work, hw, s.dtype, slow);
              std::string what = name + " on " + hw.id + " (" + std::string(m->name()) + ")";
              ASSERT_EQ(fast.time_s.size(), work.size());
              for (Eigen::Index i = 0; i < work.size(); ++i) {
                expect_rel(fast.compute_s[i], slow.compute_s[i], what + " compute");
                expect_rel(fast.memory_s[i], slow.memory_s[i], what + " memory");
                expect_rel(fast.link_s[i], slow.link_s[i], what + " link");
                expect_rel(fast.overhead_s[i], slow.overhead_s[i], what + " launch");
                expect_rel(fast.time_s[i], slow.time_s[i], what + " time");
                EXPECT_EQ(fast.bound_level[i], slow.bound_level[i]) << what << " layer " << i;
              }
              // And the sums against the analyze path (derive).
              RunResult run = derive(model, costs, hw, *m);
              const LayerTiming& t = run.totals.timing;
              expect_rel(a.time_s, t.time_s, what + " step");
              expect_rel(a.compute_s, t.compute_s, what + " compute sum");
              expect_rel(a.memory_s, t.memory_s, what + " memory sum");
              expect_rel(a.link_s, t.link_s, what + " link sum");
              expect_rel(a.memory_bound_s, run.memory_bound_share * t.time_s, what + " memory-bound time");
              expect_rel(a.time_s, b.time_s, what + " step, one by one");
              ++compared;
            }
        }
  }
  EXPECT_GT(compared, 0u);
}

SweepResult run(const std::string& text, unsigned jobs = 1, SweepPlan* out_plan = nullptr) {
  SweepPlan plan = plan_sweep(parse_sweep(text, "s.toml"));
  SweepResult r = run_sweep(plan, {jobs, false, nullptr, nullptr});
  if (out_plan) *out_plan = std::move(plan);
  return r;
}

TEST(SweepVary, BandwidthScalesMemoryTime) {
  // roofline on v100: every layer's bytes come over the HBM2, so each layer's memory
  // time is bytes / bandwidth and doubling the bandwidth halves the summed memory time.
  SweepResult r = run(R"(
models = ["alexnet"]
hardware = ["v100"]
[[vary]]
key = "memory.HBM2.bandwidth"
values = ["900 GB/s", "1.8 TB/s", "3.6 TB/s"]
)");
  ASSERT_EQ(r.points.size(), 3u);
  for (const auto& p : r.points) ASSERT_TRUE(p.ok()) << p.status_text();
  expect_rel(r.points[0].sums.memory_s, r.points[0].bytes / 900e9, "memory time at 900 GB/s");
  expect_rel(r.points[1].sums.memory_s / r.points[0].sums.memory_s, 900.0 / 1800.0, "1.8 TB/s vs 900 GB/s");
  expect_rel(r.points[2].sums.memory_s / r.points[0].sums.memory_s, 900.0 / 3600.0, "3.6 TB/s vs 900 GB/s");
  // Compute does not move.
  EXPECT_EQ(r.points[0].sums.compute_s, r.points[2].sums.compute_s);
}

TEST(SweepVary, EveryValueOfEveryVaryIsApplied) {
  // Two [[vary]] tables: fp32 peak x launch cost; the last varies fastest.
  SweepResult r = run(R"(
models = ["alexnet"]
hardware = ["v100"]
[[vary]]
key = "compute.fp32"
values = ["15.7 TFLOPS", "31.4 TFLOPS"]
[[vary]]
key = "overhead.kernel_launch"
values = ["5 us", "0 us"]
)");
  ASSERT_EQ(r.points.size(), 4u);
  // 31.4 / 15.7 = 2: compute time halves.
  expect_rel(r.points[2].sums.compute_s / r.points[0].sums.compute_s, 0.5, "compute at twice the peak");
  // Launch cost: kernels x 5 us, then none. AlexNet's 5 convs, 3 linears, ReLUs, pools,
  // dropouts: overhead_s / 5 us is a whole number of kernels.
  double kernels = r.points[0].sums.overhead_s / 5e-6;
  EXPECT_NEAR(kernels, std::round(kernels), 1e-9);
  EXPECT_GT(kernels, 8);
  EXPECT_EQ(r.points[1].sums.overhead_s, 0.0);
  EXPECT_EQ(r.points[3].sums.overhead_s, 0.0);
}

TEST(SweepRun, UnsupportedDtypeIsARowWithAStatus) {
  SweepPlan plan;
  SweepResult r = run("models = [\"alexnet\"]\nhardware = [\"v100\", \"a100\"]\ndtype = [\"fp32\", \"bf16\"]\n", 1, &plan);
  ASSERT_EQ(r.points.size(), 4u);  // v100 fp32, v100 bf16, a100 fp32, a100 bf16
  EXPECT_TRUE(r.points[0].ok());
  EXPECT_EQ(r.points[1].status, PointStatus::unsupported);
  EXPECT_EQ(r.points[1].status_text(), "unsupported: v100 has no bf16 peak");
  EXPECT_TRUE(r.points[2].ok());
  EXPECT_TRUE(r.points[3].ok());
  std::ostringstream csv;
  write_sweep(plan, r, false, OutputFormat::csv, ColumnChoice{}, csv);
  EXPECT_NE(csv.str().find("alexnet,v100,NVIDIA V100 SXM2 16 GB,roofline,inference,bf16,adam,1,unsupported: v100 has no bf16 peak,,,,"),
            std::string::npos);
}

TEST(SweepRun, PointThatDoesNotFitIsARowWithAStatus) {
  // mlp, training, Adam, fp32: model part 131,410 x 16 B = 2,102,560 B; peak per sample
  // 6,400 B (5,600 B kept + two 400 B activation gradients, at hidden.3.relu's backward).
  // A V100 cut to 10 MB keeps 95% usable: 9,500,000 B. Batch 1155: 2,102,560 + 1155 x
  // 6,400 = 9,494,560 B fits; batch 1156: 9,500,960 B does not.
  SweepResult r = run("models = [\"mlp\"]\nhardware = [\"v100\"]\nphase = [\"training\"]\nbatch = [1155, 1156]\n"
                      "[[vary]]\nkey = \"memory.HBM2.capacity\"\nvalues = [\"10 MB\"]\n",
                      1);
  ASSERT_EQ(r.points.size(), 2u);
  EXPECT_TRUE(r.points[0].ok());
  EXPECT_EQ(r.points[0].memory.peak_bytes, 9'494'560.0);
  EXPECT_EQ(r.points[0].memory.fits, true);
  EXPECT_EQ(r.points[1].memory.peak_bytes, 9'500'960.0);
  EXPECT_EQ(r.points[1].memory.fits, false);
  EXPECT_EQ(r.points[1].status, PointStatus::does_not_fit) << r.points[1].status_text();
}

TEST(SweepRun, SameResultForAnyNumberOfThreads) {
  const std::string text = "models = [\"alexnet\", \"gpt2\"]\nhardware = [\"v100\", \"a100\"]\nbatch = [1, 2, 4, 8]\n"
                           "phase = [\"inference\", \"training\"]\n";
  SweepResult one = run(text, 1), three = run(text, 3);
  ASSERT_EQ(one.points.size(), three.points.size());
  for (size_t i = 0; i < one.points.size(); ++i) EXPECT_EQ(one.points[i].sums.time_s, three.points[i].sums.time_s);
}

TEST(SweepRun, CancelStopsBeforeTheWork) {
  SweepPlan plan = plan_sweep(parse_sweep("models = [\"alexnet\"]\nhardware = [\"v100\"]\nbatch = [1, 2]\n", "s.toml"));
  std::atomic<bool> cancel{true};
  SweepResult r = run_sweep(plan, {2, false, &cancel, nullptr});
  EXPECT_TRUE(r.cancelled);
}

}  // namespace
}  // namespace ridge
