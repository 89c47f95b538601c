// `ridge plot layers|roofline --parallel`: the collectives' link bytes and FLOPs by hand
// (nccl-tests' bus-bandwidth factors), the link roofs at the system descriptors'
// bandwidth x efficiency, the gradient all-reduce of resnet50 on a DGX-1 as a bar and
// a point with the time computed by hand, collectives without FLOPs placed where
// roofline_plot.hpp says, and a transformer's layers plot adding up to the iteration time
// `ridge analyze --parallel` prints.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "plots/layers_plot.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/cli/plot_parallel.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/parallel/collective_intensity.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using Rows = std::vector<std::vector<std::string>>;

plots::PlotStyle png() {
  plots::PlotStyle s;
  s.format = plots::ImageFormat::png;
  return s;
}

// The options of `--system SYSTEM --parallel PARALLEL --global-batch B [--sequence-parallel] [--set ...]`.
std::pair<cli::ParallelOptionValues, cli::HardwareOptionValues> plan_options(const std::string& system, const std::string& parallel,
                                                                             int64_t global_batch, bool sequence_parallel,
                                                                             std::vector<std::string> sets) {
  cli::ParallelOptionValues v;
  v.system = system;
  v.parallel = parallel;
  v.global_batch = global_batch;
  v.sequence_parallel = sequence_parallel;
  cli::HardwareOptionValues hw;
  hw.sets = std::move(sets);
  return {v, hw};
}

cli::ParallelPlot plot_input(const std::string& model, const std::string& system, const std::string& parallel,
                             int64_t global_batch, bool sequence_parallel = false, std::vector<std::string> sets = {}) {
  auto [v, hw] = plan_options(system, parallel, global_batch, sequence_parallel, std::move(sets));
  return cli::parallel_plot(model, v, hw, cli::RunOptionValues{}, boost::program_options::variables_map{});
}

// The roofline .dat of a single-device figure: blocks 0-7 are the hardware's (run roof,
// other roofs, DRAM, other diagonals, ridges, points, labels, drops).
std::vector<Rows> roofline_blocks(const cli::ParallelPlot& p) {
  plots::RooflineRequest req{&p.model, p.settings, {p.run}, 8, true, p.plan, p.link_roofs, p.collectives};
  return test::data_blocks(plots::roofline_plot(req, png(), "r").files[1].content);
}

// The points block's rows of collectives (layer index -1).
Rows collective_points(const std::vector<Rows>& blocks) {
  Rows out;
  for (size_t i = 1; i < blocks.at(5).size(); ++i)
    if (blocks[5][i].at(5) == "-1") out.push_back(blocks[5][i]);
  return out;
}

TEST(CollectiveIntensity, LinkBytesAndFlopsByHand) {
  // 1 MiB of bf16 (524,288 elements) over 8 devices.
  CollectiveCost c;
  c.bytes = 1048576;
  c.group_size = 8;
  c.op = CollectiveOp::all_reduce;
  EXPECT_DOUBLE_EQ(collective_link_bytes(c), 1048576.0 * 2 * 7 / 8);  // 1,835,008 B
  EXPECT_DOUBLE_EQ(collective_flops(c, 2), 524288.0 * 7 / 8);        // 458,752 additions
  EXPECT_DOUBLE_EQ(collective_flops(c, 2) / collective_link_bytes(c), 0.25);
  c.op = CollectiveOp::reduce_scatter;
  EXPECT_DOUBLE_EQ(collective_link_bytes(c), 1048576.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(collective_flops(c, 2) / collective_link_bytes(c), 0.5);
  c.op = CollectiveOp::all_gather;
  EXPECT_DOUBLE_EQ(collective_link_bytes(c), 1048576.0 * 7 / 8);
  EXPECT_EQ(collective_flops(c, 2), 0);
  c.op = CollectiveOp::send_recv;
  EXPECT_DOUBLE_EQ(collective_link_bytes(c), 1048576.0);
  EXPECT_EQ(collective_flops(c, 2), 0);
  c.op = CollectiveOp::all_reduce;
  c.group_size = 1;  // a group of one moves nothing
  EXPECT_EQ(collective_link_bytes(c), 0);
}

// resnet50 data parallel over the 8 V100s of a DGX-1 (configs/systems/dgx1-v100.toml:
// NVLink 2 at 150 GB/s x 0.8 = 120 GB/s). The gradients are fp32: 25,557,032 params x 4 B
// = 102,228,128 B; a ring all-reduce of 2 (8-1) = 14 steps through NCCL's Simple protocol
// (the one taken at this size, as in ParallelDataParallel.Resnet50OnEightV100sByHand):
// 11.6 + 8.4 + 14 x 3.4 = 67.6 us plus 102,228,128 x 2 x 7/8 / 120e9 s = 1.490826 ms,
// 1.558427 ms in all.
TEST(PlotParallel, DataParallelResnet50OnADgx1ByHand) {
  cli::ParallelPlot p = plot_input("resnet50", "dgx1-v100", "dp=8", 256);
  EXPECT_EQ(p.plan, "dp8");
  EXPECT_EQ(p.settings.batch, 32);
  const double bytes = 102228128, time = 67.6e-6 + bytes * 2 * 7 / 8 / 120e9;
  ASSERT_EQ(p.collectives.size(), 1u);
  EXPECT_NEAR(p.collectives[0].time_s, time, 1e-12);
  ASSERT_EQ(p.link_roofs.size(), 1u);
  EXPECT_EQ(p.link_roofs[0].label, "NVLink 2 hybrid cube-mesh 120 GB/s");
  EXPECT_DOUBLE_EQ(p.link_roofs[0].bandwidth_Bps, 120e9);

  // The layers plot: the all-reduce is a bar of its own, all link time, bound link:scale_up.
  plots::LayersRequest lreq{&p.model, p.settings, p.run, plots::LayerGrouping::none, 25, p.plan, p.collectives};
  const Rows bars = test::data_blocks(plots::layers_plot(lreq, png(), "l").files[1].content).at(0);
  size_t found = 0;
  for (const auto& row : bars) {
    if (row.at(7) != "dp all_reduce step (scale_up)") continue;
    ++found;
    EXPECT_NEAR(std::stod(row[3]), time, 1e-9);  // link_time_s
    EXPECT_NEAR(std::stod(row[5]), time, 1e-9);  // time_s
    EXPECT_EQ(row[1], "0");                       // no compute
    EXPECT_EQ(row[6], "3");                       // link-bound
    EXPECT_EQ(row[9], "link:scale_up");
  }
  EXPECT_EQ(found, 1u);

  // The roofline: the link diagonal is the last of the nearer-level diagonals, at 120 GB/s;
  // the all-reduce's point at 1 / (2 x 4 B) = 0.125 FLOP/B and y = its additions
  // (25,557,032 x 7/8) over its time.
  const std::vector<Rows> blocks = roofline_blocks(p);
  const Rows& diagonals = blocks.at(3);
  ASSERT_GE(diagonals.size(), 2u);
  const auto& end = diagonals.back();
  EXPECT_NEAR(std::stod(end.at(1)) / std::stod(end.at(0)), 120e9, 120e9 * 1e-5);
  const Rows points = collective_points(blocks);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(std::stod(points[0].at(0)), 0.125, 1e-9);
  EXPECT_NEAR(std::stod(points[0].at(1)), 25557032.0 * 7 / 8 / time, 1e-5 * 25557032.0 * 7 / 8 / time);
  EXPECT_EQ(points[0].at(6), "link:scale_up");
}

// GPT-3's shape cut to 2 layers, tp 8 with sequence parallelism on a DGX A100
// (configs/systems/dgx-a100.toml: NVLink 3 at 300 GB/s x 0.78 = 234 GB/s): its
// reduce-scatters sit at 1 / 2 B = 0.5 FLOP/B, its all-gathers (no FLOPs) at half the
// smallest intensity of the rest, below the link diagonal by the share of the link
// they attain.
TEST(PlotParallel, TensorParallelLinkRoofAndGathersByHand) {
  cli::ParallelPlot p = plot_input("gpt3", "dgx-a100", "tp=8", 1, true, {"model.layers=2"});
  ASSERT_EQ(p.link_roofs.size(), 1u);
  EXPECT_EQ(p.link_roofs[0].label, "NVLink 3 / NVSwitch 234 GB/s");
  EXPECT_DOUBLE_EQ(p.link_roofs[0].bandwidth_Bps, 234e9);
  const std::vector<Rows> blocks = roofline_blocks(p);
  const Rows points = collective_points(blocks);
  size_t scatters = 0, gathers = 0;
  double smallest_rest = 1e300, gather_x = 0;
  for (size_t i = 1; i < blocks.at(5).size(); ++i)
    if (blocks[5][i].at(7).find("0 FLOP/B") == std::string::npos)
      smallest_rest = std::min(smallest_rest, std::stod(blocks[5][i].at(0)));
  for (const auto& row : points) {
    const double x = std::stod(row.at(0)), y = std::stod(row.at(1));
    EXPECT_EQ(row.at(6), "link:scale_up");
    if (row.at(7).find("reduce_scatter") != std::string::npos) {
      ++scatters;
      EXPECT_NEAR(x, 0.5, 1e-12);
    }
    if (row.at(7).find("all_gather") != std::string::npos) {
      ++gathers;
      EXPECT_NE(row.at(7).find("0 FLOP/B"), std::string::npos);
      gather_x = x;
      EXPECT_LT(y, x * 234e9);  // under the link's diagonal
    }
  }
  EXPECT_GT(scatters, 0u);
  EXPECT_GT(gathers, 0u);
  EXPECT_NEAR(gather_x, smallest_rest / 2, 1e-9 * smallest_rest);
}

// The bars block of `p`'s layers plot (every part its own bar: --group none, no "other").
Rows layer_bars(const cli::ParallelPlot& p) {
  plots::LayersRequest req{&p.model, p.settings, p.run, plots::LayerGrouping::none, 100000, p.plan, {}, p.iteration,
                           p.microbatches};
  return test::data_blocks(plots::layers_plot(req, png(), "l").files[1].content).at(0);
}

// The bar named `name` (its row), failing when there is none.
std::vector<std::string> bar(const Rows& bars, const std::string& name) {
  for (const auto& row : bars)
    if (row.size() > 7 && row[7] == name) return row;
  ADD_FAILURE() << "no bar '" << name << "'";
  return std::vector<std::string>(12, "0");
}

double summed_time(const Rows& bars) {
  double sum = 0;
  for (const auto& row : bars) sum += std::stod(row.at(5));
  return sum;
}

// MODEL cut to `layers` layers on a DGX A100: the bars of its layers plot (--group none)
// and what `ridge analyze` prints with the same options, checking that the bars add up
// to the iteration time.
std::pair<Rows, TrainingEstimate> bars_and_iteration(const std::string& model, const std::string& parallel,
                                                     int64_t global_batch, int layers, double expert_imbalance = 1) {
  const std::vector<std::string> sets = {"model.layers=" + std::to_string(layers)};
  auto [v, hw] = plan_options("dgx-a100", parallel, global_batch, false, sets);
  v.expert_imbalance = expert_imbalance;
  const Rows bars = layer_bars(cli::parallel_plot(model, v, hw, cli::RunOptionValues{}, boost::program_options::variables_map{}));
  const TrainingEstimate e = cli::run_parallel_plan(model, v, hw).estimate;
  EXPECT_NEAR(summed_time(bars), e.iteration_time_s, 1e-9 * e.iteration_time_s);
  return {bars, e};
}

// Mixtral 8x7B cut to 2 layers, dp 8 and ep 8 on one DGX A100 node, global batch 8 (one
// microbatch of 1 per rank). The layers plot drew one microbatch's single-device
// training step of the whole rank (87.8 ms, Adam over all 8 experts' weights) where
// `analyze` says 35.82 ms. Now its bars are the iteration's parts and add up to it.
// The optimizer step, by hand: the device updates its dense parameters, per layer
// q, o 4096 x 4096 + k, v 4096 x 1024 + 2 norms of 4096 + the router 4096 x 8 =
// 41,984,000, x 2 layers, + embedding and lm_head 32,000 x 4,096 each + the final norm
// 4,096 = 346,116,096, and its expert (1 of 8 a layer) 3 x 4,096 x 14,336 = 176,160,768
// a layer, 352,321,536 for 2: 698,437,632 parameters x 28 B / 2,039 GB/s (a100.toml's
// datasheet bandwidth) = 9.5909 ms, memory-bound (x 12 FLOPs / 19.5 TFLOPS = 0.4298 ms
// of compute under it).
TEST(PlotParallel, MixtureOfExpertsLayersAddUpToTheIterationByHand) {
  const auto [bars, e] = bars_and_iteration("mixtral-8x7b", "dp=8,ep=8", 8, 2);

  const double params = 2 * 41984000.0 + 2 * 32000.0 * 4096 + 4096 + 2 * 3 * 4096.0 * 14336;
  EXPECT_EQ(params, 698437632.0);
  const auto optimizer = bar(bars, "optimizer step");
  EXPECT_NEAR(std::stod(optimizer[5]), params * 28 / 2039e9, 1e-6 * params * 28 / 2039e9);
  EXPECT_NEAR(std::stod(optimizer[1]), params * 12 / 19.5e12, 1e-6 * params * 12 / 19.5e12);
  EXPECT_EQ(optimizer[6], "1");  // memory-bound

  // Both layers' experts are bars of their own; the ep all-to-alls, 2 x 2 layers each
  // way, are link time, and there is no bubble (pp = 1).
  bar(bars, "layers.0.experts");
  bar(bars, "layers.1.experts");
  for (const CollectiveRow& r : e.collectives)
    if (r.group == "ep") {
      EXPECT_EQ(r.count, 4);
      const auto row = bar(bars, "ep all_to_all " + r.when + " (" + r.cost.link + ")");
      EXPECT_NEAR(std::stod(row[3]), 4 * r.cost.time_s, 1e-9);
    }
  for (const auto& row : bars) EXPECT_NE(row.at(7), "pipeline bubble");

  // --expert-imbalance 2: the busiest expert rank routes twice the mean, so each experts
  // bar doubles, and the bars still add up to analyze's iteration.
  const auto [skewed, skewed_e] = bars_and_iteration("mixtral-8x7b", "dp=8,ep=8", 8, 2, 2.0);
  const double uniform = std::stod(bar(bars, "layers.0.experts")[5]);
  EXPECT_NEAR(std::stod(bar(skewed, "layers.0.experts")[5]), 2 * uniform, 1e-9 * uniform);
}

// GPT-3's shape cut to 4 layers, tp 2 and pp 2 on a DGX A100, global batch 4: m = 4
// microbatches through 2 stages. The bubble is (p - 1) = 1 microbatch slot of the stage's
// work, a quarter of the 4 microbatches' layers and tensor-parallel all-reduces, so
// bubble / pipeline = 1 / (m + p - 1) = 1/5 (the 1F1B bubble), as analyze reports it,
// and all the bars add up to the iteration time.
TEST(PlotParallel, PipelineBubbleIsOneSlotOfFourByHand) {
  const auto [bars, e] = bars_and_iteration("gpt3", "tp=2,pp=2", 4, 4);
  double stage_work = 0, sends = 0;  // the 4 microbatches' layers and tp all-reduces; the pp sends
  for (const auto& row : bars) {
    const std::string& name = row.at(7);
    if (name.rfind("pp ", 0) == 0) sends += std::stod(row[5]);
    else if (name != "pipeline bubble" && name != "optimizer step" && name.rfind("dp ", 0) != 0) stage_work += std::stod(row[5]);
  }
  const auto bubble = bar(bars, "pipeline bubble");
  EXPECT_NEAR(std::stod(bubble[11]), stage_work / 4, 1e-9 * stage_work);  // idle_time_s
  EXPECT_NEAR(std::stod(bubble[11]) / (stage_work + std::stod(bubble[11]) + sends), e.bubble_share, 1e-9);
  EXPECT_NEAR(e.bubble_s / (e.pipeline_s - e.pp_comm_s), 1.0 / 5, 1e-12);
  // The stage drawn is one of the two: 2 of the 4 layers.
  size_t blocks = 0;
  for (const auto& row : bars) blocks += row.at(7).ends_with(".attn") ? 1 : 0;
  EXPECT_EQ(blocks, 2u);
}

}  // namespace
}  // namespace ridge
