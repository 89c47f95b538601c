// `ridge plot layers|roofline --parallel`: the collectives' link bytes and FLOPs by hand
// (nccl-tests' bus-bandwidth factors), the link roofs at the system descriptors'
// bandwidth x efficiency, the gradient all-reduce of resnet50 on a DGX-1 as a bar and
// a point with the time computed by hand, and collectives without FLOPs placed where
// roofline_plot.hpp says.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "plots/layers_plot.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/cli/plot_parallel.hpp"
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

cli::ParallelPlot plot_input(const std::string& model, const std::string& system, const std::string& parallel,
                             int64_t global_batch, bool sequence_parallel = false, std::vector<std::string> sets = {}) {
  cli::ParallelOptionValues v;
  v.system = system;
  v.parallel = parallel;
  v.global_batch = global_batch;
  v.sequence_parallel = sequence_parallel;
  cli::HardwareOptionValues hw;
  hw.sets = std::move(sets);
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

}  // namespace
}  // namespace ridge
