// Many-device training: system descriptors, collective costs, Korthikanti et al.'s
// activation memory, the pipeline bubble, ZeRO memory splits and plan checks, each
// against numbers worked out by hand here (docs/guide/many-gpus.md repeats three).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/parallel/activation_memory.hpp"
#include "sim/parallel/collectives.hpp"
#include "sim/parallel/plan_check.hpp"
#include "sim/parallel/system_reader.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

// GPT-3 175B's per-layer activation: s = 2048, b = 1, h = 12288, bf16.
constexpr double kGpt3Act = 2048.0 * 12288 * 2;  // 50,331,648 B

TEST(Systems, ShippedDescriptorsReadWithTheirNumbers) {
  SystemSpec a = load_system("dgx-a100");
  EXPECT_EQ(a.device_id, "a100");
  EXPECT_EQ(a.devices_per_domain, 8);
  EXPECT_EQ(a.total_devices(), 4480);  // Selene
  EXPECT_DOUBLE_EQ(a.scale_up.bandwidth_Bps, 300e9);
  // 8 NICs x 25 GB/s shared by 8 GPUs, full fat tree: 25 GB/s per GPU.
  EXPECT_DOUBLE_EQ(a.scale_out.bandwidth_Bps, 25e9);
  EXPECT_FALSE(a.in_switch_reduction);
  EXPECT_TRUE(load_system("dgx-h100").in_switch_reduction);
  for (const char* id : {"hgx-h200", "mi300x-platform", "pcie-l4x8"}) EXPECT_NO_THROW(load_system(id)) << id;
}

TEST(Systems, EveryShippedSystemRunsNcclsProtocolModelOnBothLevels) {
  // The PCIe box's GPUs talk over PCIe, every other scale-up level is NVLink-class (the
  // MI300X's xGMI costed as NVLink, an estimate); every scale-out level is a network.
  for (auto [id, up] : {std::pair<const char*, NcclTransport>{"dgx-a100", NcclTransport::nvlink},
                        {"dgx-h100", NcclTransport::nvlink}, {"hgx-h200", NcclTransport::nvlink},
                        {"mi300x-platform", NcclTransport::nvlink}, {"pcie-l4x8", NcclTransport::pcie},
                        {"dgx1-v100", NcclTransport::nvlink}}) {
    SystemSpec s = load_system(id);
    EXPECT_EQ(s.scale_up.nccl, up) << id;
    EXPECT_EQ(s.scale_out.nccl, NcclTransport::network) << id;
    EXPECT_DOUBLE_EQ(s.scale_up.call_overhead_s, 11.6e-6) << id;  // dgx-a100's fit, copied
  }
}

TEST(Systems, BadDescriptorIsALocatedError) {
  std::string text = R"(name = "x"
source = "t"
device = "a100"
domains = 2
[scale_up]
name = "n"
devices = 8
bandwidth = "300 GB/s"
latency = "1 us"
efficiency = 1.5
[scale_out]
name = "o"
nics = 1
bandwidth = "25 GB/s"
latency = "5 us"
efficiency = 0.8
)";
  try {
    system_from_text(text, "sys.toml", "x");
    FAIL() << "efficiency 1.5 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 10);
    EXPECT_NE(std::string(e.what()).find("efficiency"), std::string::npos);
  }
}

TEST(Collectives, GroupsFillTheFastestLevelFirst) {
  SystemSpec a = load_system("dgx-a100");
  GroupPlacement tp = place_group(a, 8, 1);
  EXPECT_EQ(tp.per_domain, 8);
  EXPECT_EQ(tp.domains, 1);
  GroupPlacement dp = place_group(a, 8, 8);  // dp ranks one node apart
  EXPECT_EQ(dp.per_domain, 1);
  EXPECT_EQ(dp.domains, 8);
  GroupPlacement mixed = place_group(a, 16, 2);  // 4 per node over 4 nodes
  EXPECT_EQ(mixed.per_domain, 4);
  EXPECT_EQ(mixed.domains, 4);
}

TEST(Collectives, TensorParallelAllReduceOfOneGpt3LayerOnDgxA100) {
  // NCCL's protocols, n = 8 (14 ring steps), bus bytes 50,331,648 x 2 x 7/8 = 88,080,384,
  // bandwidth 300 GB/s x 0.78 = 234 GB/s, call overhead 11.6 us:
  //   LL      11.6 + 6.6 + 14 x 0.6 = 26.6 us + 88,080,384 / 117e9    = 779.42 us
  //   LL128   11.6 + 14 + 14 x 1.9  = 52.2 us + 88,080,384 / 215.28e9 = 461.34 us
  //   Simple  11.6 + 8.4 + 14 x 3.4 = 67.6 us + 88,080,384 / 234e9    = 444.0119 us  <- taken
  SystemSpec a = load_system("dgx-a100");
  CollectiveCost c = collective_cost(a, CollectiveOp::all_reduce, kGpt3Act, place_group(a, 8, 1));
  EXPECT_EQ(c.algorithm, "ring/Simple");
  EXPECT_EQ(c.link, "scale_up");
  EXPECT_NEAR(c.time_s, 444.0119e-6, 1e-10);
  // 64 KiB: LL, 26.6 us + 114,688 / 117e9 = 27.5802 us.
  CollectiveCost small = collective_cost(a, CollectiveOp::all_reduce, 65536, place_group(a, 8, 1));
  EXPECT_EQ(small.algorithm, "ring/LL");
  EXPECT_NEAR(small.time_s, 27.5802e-6, 1e-10);
}

TEST(Collectives, NvlinkSharpBeatsTheRingOnDgxH100) {
  // In-switch at 0.61 of 450 GB/s (NVLS algbw ~275 GB/s, nccl-tests issue #212), after the
  // call overhead (11.6 us) and NVLS's 23 us latency (NCCL tuning.cc hwLat, NVLink / NVLS):
  // 34.6 us + 50,331,648 / 274.5e9 = 34.6 us + 183.357 us = 217.957 us
  // (ring/Simple: 11.6 + 8.4 + 14 x 3.4 = 67.6 us + 88,080,384 / 360e9 = 312.268 us).
  SystemSpec h = load_system("dgx-h100");
  CollectiveCost c = collective_cost(h, CollectiveOp::all_reduce, kGpt3Act, place_group(h, 8, 1));
  EXPECT_EQ(c.algorithm, "in-switch");
  EXPECT_NEAR(c.time_s, 217.957e-6, 1e-9);
  // 64 KiB: the ring's LL protocol, 11.6 + 6.6 + 14 x 0.6 = 26.6 us + 114,688 / 180e9 = 27.2372 us,
  // where NVLS would take 34.6 us + 0.24 us (NCCL runs Ring/LL to 1 MB on HGX H100, nccl-tests #309).
  CollectiveCost small = collective_cost(h, CollectiveOp::all_reduce, 65536, place_group(h, 8, 1));
  EXPECT_EQ(small.algorithm, "ring/LL");
  EXPECT_NEAR(small.time_s, 27.2372e-6, 1e-10);
}

TEST(Collectives, BusBandwidthFactorsOfNcclTests) {
  // All-gather and reduce-scatter move (n-1)/n of the buffer, send/recv all of it. n = 4,
  // 1 GB: rings in NCCL's Simple protocol, 11.6 + 8.4 + 3 x 3.4 = 30.2 us + 0.75 GB / 234 GB/s;
  // all-to-all and send/recv at the level's 1 us step latency.
  SystemSpec a = load_system("dgx-a100");
  GroupPlacement g = place_group(a, 4, 1);
  double bw = 234e9;
  EXPECT_NEAR(collective_cost(a, CollectiveOp::all_gather, 1e9, g).time_s, 30.2e-6 + 1e9 * 0.75 / bw, 1e-12);
  EXPECT_NEAR(collective_cost(a, CollectiveOp::reduce_scatter, 1e9, g).time_s, 30.2e-6 + 1e9 * 0.75 / bw, 1e-12);
  EXPECT_NEAR(collective_cost(a, CollectiveOp::all_to_all, 1e9, g).time_s, 3e-6 + 1e9 * 0.75 / bw, 1e-12);
  EXPECT_NEAR(collective_cost(a, CollectiveOp::send_recv, 1e9, g).time_s, 1e-6 + 1e9 / bw, 1e-12);
  EXPECT_EQ(collective_cost(a, CollectiveOp::all_reduce, 1e9, place_group(a, 1, 1)).time_s, 0);
}

TEST(Collectives, AllReduceAcrossTwoNodesIsOnePipelinedRing) {
  // 16 GPUs = 2 DGX A100 nodes, 1 GB, as NCCL runs it (tuning.cc): rings through all 16
  // GPUs, 30 steps of which 2 cross the network, bus bytes 1e9 x 30/16 = 1.875e9 at the
  // slowest link: min(NVLink 300 x 0.78 = 234, 8 NICs x 25 x 0.96 = 192) = 192 GB/s.
  // DGX A100's AMD hosts: intra-node steps cost max(NVLink hop, 2 us post overhead, x3 for
  // Simple); network steps hop + 6.76 us device latency (x2 for Simple); LL capped at
  // 22.5 GB/s, LL128 at 8 channels x 20 GB/s; Simple's latency x1.4 (ring plateau):
  //   ring/LL      11.6 + 6.6 + 28 x 2 + 2 x (2.7 + 6.76)          =  93.12 us + 1.875e9 / 22.5e9 = 83.43 ms
  //   ring/LL128   11.6 + 14 + 28 x 2 + 2 x (4.0 + 6.76)           = 103.12 us + 1.875e9 / 160e9  = 11.822 ms
  //   ring/Simple  11.6 + 1.4 (8.4 + 28 x 6 + 2 x (14 + 13.52))     = 335.616 us + 1.875e9 / 192e9 = 10.101241 ms  <- taken
  //   tree/Simple  11.6 + 8.4 + 2 (7 x 4.0 + 1 x (14 + 13.52))      = 131.04 us + 2e9 / 176.64e9   = 11.454 ms
  // (the three phases one after the other, reduce-scatter, all-reduce across, all-gather,
  // took 13.5 ms: 1.875e9 / 13.5 ms = 139 GB/s, where nccl-tests measure 182 GB/s at 1 GiB
  // on two 8 x A100 + 8 x HDR nodes, AML_NCCL_Test README, "Two Nodes").
  SystemSpec a = load_system("dgx-a100");
  CollectiveCost c = collective_cost(a, CollectiveOp::all_reduce, 1e9, place_group(a, 16, 1));
  EXPECT_EQ(c.link, "scale_up+scale_out");
  EXPECT_EQ(c.algorithm, "ring/Simple");
  EXPECT_NEAR(c.time_s, 11.6e-6 + 1.4 * 231.44e-6 + 1.875e9 / 192e9, 1e-12);
  EXPECT_NEAR(c.time_s, 10.101241e-3, 1e-9);
  // With 2 NICs' bandwidth a node the network binds harder: 2 x 25 x 0.96 = 48 GB/s,
  // 335.616 us + 39.0625 ms = 39.398116 ms.
  SystemSpec a2 = a;
  a2.scale_out.bandwidth_Bps = 2 * 25e9 / 8;
  EXPECT_NEAR(collective_cost(a2, CollectiveOp::all_reduce, 1e9, place_group(a2, 16, 1)).time_s, 39.398116e-3, 1e-9);
  // Reduce-scatter across the two nodes: 15 steps, 1 across, no plateau (all-reduce only):
  // Simple 11.6 + 8.4 + 14 x 6 + (14 + 13.52) = 131.52 us + 1e9 x 15/16 / 192e9 = 5.014333 ms.
  EXPECT_NEAR(collective_cost(a, CollectiveOp::reduce_scatter, 1e9, place_group(a, 16, 1)).time_s,
              131.52e-6 + 1e9 * 15 / 16 / 192e9, 1e-12);
}

TEST(Collectives, SmallAllReducesAcrossNodesRunOnFewerChannels) {
  // NCCL (enqueue.cc) gives a call the largest nc of its 16 channels (2 x 8 NICs) with
  // bytes >= nc x threads x threshold: a ring in LL over 16 ranks needs 512 x 8 x 16 =
  // 65,536 bytes a channel, so 64 KiB runs on 1 of 16 channels, 1 MiB on all 16.
  // 64 KiB ring/LL on 2 DGX A100: 93.12 us + 122,880 / (22.5e9 / 16) = 93.12 + 87.38 us.
  // The tree (LL, the whole buffer up and down, 8 x 23.6 caps no more than 0.92 x 192):
  // 11.6 + 6.8 + 2 (7 x 0.6 + 1 x (5.0 + 6.76)) = 50.32 us + 2 x 65,536 / (176.64e9 / 3.8
  // capped at 22.5e9, x 0.6 NCCL's tree correction at 64 KiB) = 50.32 + 9.709 us: taken.
  SystemSpec a = load_system("dgx-a100");
  CollectiveCost c = collective_cost(a, CollectiveOp::all_reduce, 65536, place_group(a, 16, 1));
  EXPECT_EQ(c.algorithm, "tree/LL");
  EXPECT_NEAR(c.time_s, 50.32e-6 + 2 * 65536 / (22.5e9 * 0.6), 1e-12);
  // A reduce-scatter has no tree:
  // 64 KiB reduce-scatter, 15 steps, 1 across: LL needs 65,536 a channel, so 1 channel:
  // 11.6 + 6.6 + 14 x 2 + (2.7 + 6.76) = 55.66 us + 61,440 / (22.5e9 / 16) = 55.66 + 43.69 us;
  // LL128 (640 x 8 = 5,120 a channel: 12 of 16): 11.6 + 14 + 14 x 2 + 10.76 = 64.36 us
  // + 61,440 / (160e9 x 12/16) = 64.36 + 0.512 us: taken.
  CollectiveCost rs = collective_cost(a, CollectiveOp::reduce_scatter, 65536, place_group(a, 16, 1));
  EXPECT_EQ(rs.algorithm, "ring/LL128");
  EXPECT_NEAR(rs.time_s, 64.36e-6 + 61440 / (160e9 * 12 / 16), 1e-12);
  // The network device latency of dgx-a100 reproduces the point it was fitted on:
  // NVIDIA/nccl issue #812, a ring all-reduce of 8 B over two DGX A100 (NCCL 2.16.5) in
  // 93.12 us; ring/LL, 11.6 + 6.6 + 28 x 2 + 2 x (2.7 + 6.76) = 93.12 us, the 15 bytes
  // on one channel at 22.5 / 16 GB/s adding 0.01 us.
  NcclNetwork two{2, 8, NcclTransport::nvlink, a.scale_out.latency_s, a.nccl_host, a.nccl_gpu, 8};
  ProtocolTime ring = nccl_spanning_ring_time(two, true, 8, 192e9, a.scale_up.call_overhead_s);
  EXPECT_STREQ(ring.protocol, "LL");
  EXPECT_NEAR(ring.time_s, 93.12e-6, 0.02e-6);
}

TEST(Collectives, NcclTreeWinsSmallAllReducesAcrossManyNodes) {
  // Data-parallel ranks one per node over 64 DGX H100 nodes, 64 KiB, 50 GB/s x 0.94 = 47 GB/s,
  // network steps at NCCL's tree hop + the 6.76 us device latency (one rank a node):
  //   ring/LL  6.6 + 126 x (5.0 + 6.76) = 1488.36 us before its bytes
  //   tree/LL  11.6 + 6.8 + 2 x floor(log2 64) x (5.0 + 6.76) = 159.52 us
  //            + 2 x 65536 / (47e9 x 0.92 / 3.8 x 0.6 tree correction at 64 KiB) = 178.718 us
  SystemSpec h = load_system("dgx-h100");
  CollectiveCost c = collective_cost(h, CollectiveOp::all_reduce, 65536, place_group(h, 64, 8));
  EXPECT_EQ(c.link, "scale_out");
  EXPECT_EQ(c.algorithm, "tree/LL");
  EXPECT_NEAR(c.time_s, 159.52e-6 + 2 * 65536 / (47e9 * 0.92 / 3.8 * 0.6), 1e-12);
  EXPECT_NEAR(c.time_s, 178.718e-6, 1e-9);
}

// nccl-tests all_reduce_perf, float sum, out of place, 8 x A100 SXM4 80 GB over NVLink 3 /
// NVSwitch in one Azure ND96amsr A100 v4 VM (NCCL 2.17, nvcr.io pytorch 23.03): bus
// bandwidth in GB/s per message size, published in the AML_NCCL_Test README (GitHub,
// "NCCL all_reduce Results, Single Node"). The call overhead was fitted on 64-256 KiB
// (scripts/accuracy-parallel); every size must be within 25 %.
TEST(Collectives, AllReduceBusBandwidthMatchesNcclTestsOnEightA100) {
  const std::pair<double, double> published[] = {
      {65536, 4.05},        {131072, 7.90},        {262144, 15.83},      {524288, 30.36},
      {1048576, 49.15},     {2097152, 58.16},      {4194304, 86.59},     {8388608, 111.97},
      {16777216, 133.14},   {33554432, 165.94},    {67108864, 202.78},   {134217728, 202.90},
      {268435456, 216.50},  {536870912, 223.48},   {1073741824, 228.80}, {2147483648, 230.93},
      {4294967296, 233.42}, {8589934592, 234.15}};
  SystemSpec a = load_system("dgx-a100");
  for (auto [bytes, busbw] : published) {
    double t = collective_cost(a, CollectiveOp::all_reduce, bytes, place_group(a, 8, 1)).time_s;
    double model = bytes * 2 * 7 / 8 / t / 1e9;
    EXPECT_NEAR(model / busbw, 1, 0.25) << bytes << " B: model " << model << " GB/s, nccl-tests " << busbw;
  }
}

// Published nccl-tests points on the systems other than dgx-a100, none used to fit anything
// (each descriptor's call overhead is dgx-a100's, an estimate). Bus bandwidth = bytes x
// 2(n-1)/n / time; every point within 25 % (issue #24).
static double all_reduce_busbw(const SystemSpec& s, double bytes, int64_t gpus, int64_t stride) {
  double n = static_cast<double>(gpus);
  return bytes * 2 * (n - 1) / n / collective_cost(s, CollectiveOp::all_reduce, bytes, place_group(s, gpus, stride)).time_s / 1e9;
}

TEST(Collectives, AllReduceBusBandwidthMatchesPublishedHopperAndMultiNodeRuns) {
  // nccl-tests issue #272 (NVIDIA/nccl-tests): all_reduce_perf on 8 x H200 over NVLink 4,
  // NCCL 2.20.3, NVLS by default: peak bus bandwidth 475 GB/s at 4 GiB.
  SystemSpec h200 = load_system("hgx-h200");
  EXPECT_NEAR(all_reduce_busbw(h200, 4294967296.0, 8, 1) / 475, 1, 0.25);
  // nccl-tests issue #309: HGX H100, 8 GPUs, NVLS disabled (rings): 368.76 GB/s at large sizes.
  SystemSpec h100 = load_system("dgx-h100");
  h100.in_switch_reduction = false;
  EXPECT_NEAR(all_reduce_busbw(h100, 17179869184.0, 8, 1) / 368.76, 1, 0.25);
  // nccl-tests issue #119: 3 nodes of 8 x A100 SXM4 40 GB with 4 x HDR 200 Gb/s each,
  // 24 ranks, -e 128M: peak bus bandwidth about 96 GB/s. dgx-a100 with 4 NICs a node:
  // 4 x 25 GB/s / 8 GPUs = 12.5 GB/s per device; rings through all 24 GPUs at
  // min(234, 4 x 25 x 0.96 = 96) GB/s.
  SystemSpec a4 = load_system("dgx-a100");
  a4.scale_out.bandwidth_Bps = 12.5e9;
  a4.nics_per_domain = 4;
  a4.nccl_host = NcclHost::other;  // the issue's hosts: 2 x Intel Xeon Platinum 8358
  EXPECT_NEAR(all_reduce_busbw(a4, 134217728.0, 24, 1) / 96, 1, 0.25);
  // github crickett-hpe/hpc-ai-envs pull request #30: rccl-tests all_reduce_perf on 8 x MI300X
  // in one node, out of place, 8 MiB: 161.14 GB/s bus bandwidth.
  SystemSpec mi = load_system("mi300x-platform");
  EXPECT_NEAR(all_reduce_busbw(mi, 8388608.0, 8, 1) / 161.14, 1, 0.25);
}

// nccl-tests all_reduce_perf, float sum, out of place, 16 x A100 SXM4 80 GB in two Azure
// ND96amsr A100 v4 VMs (8 x HDR 200 Gb/s each), NCCL 2.17: the AML_NCCL_Test README (GitHub,
// "NCCL all_reduce Results, Two Nodes"). Held out: nothing was fitted on it (the HDR
// efficiency is NVIDIA/nccl issue #812's 192 GB/s on DGX A100, the network device latency
// its 93 us ring at 8 B, the rest NCCL's own tuning constants). Every size within 25 %.
TEST(Collectives, TwoNodeAllReduceBusBandwidthMatchesNcclTests) {
  const std::pair<double, double> published[] = {
      {65536, 1.68},        {131072, 3.69},       {262144, 7.13},       {524288, 12.40},
      {1048576, 20.36},     {2097152, 30.85},     {4194304, 53.49},     {8388608, 74.65},
      {16777216, 94.65},    {33554432, 102.32},   {67108864, 132.76},   {134217728, 149.55},
      {268435456, 169.16},  {536870912, 175.23},  {1073741824, 181.70}, {2147483648, 184.10},
      {4294967296, 186.52}, {8589934592, 187.67}};
  SystemSpec a = load_system("dgx-a100");
  for (auto [bytes, busbw] : published)
    EXPECT_NEAR(all_reduce_busbw(a, bytes, 16, 1) / busbw, 1, 0.25) << bytes << " B";
}

TEST(ActivationMemory, KorthikantiTable2FormsForGpt3) {
  // s = 2048, b = 1, h = 12288, a = 96: sbh = 25,165,824, 5as/h = 80.
  LayerShape l{2048, 12288, 96};
  const double sbh = 25165824;
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 1, false, Recompute::none), sbh * 114);       // 34 + 80
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 8, false, Recompute::none), sbh * 23);        // 10 + 24/8 + 80/8
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 8, true, Recompute::none), sbh * 114 / 8);    // (34 + 80)/8
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 8, false, Recompute::selective), sbh * 13);   // 10 + 24/8
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 8, true, Recompute::selective), sbh * 34 / 8);
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 1, 8, false, Recompute::full), sbh * 2);
  EXPECT_DOUBLE_EQ(layer_activation_bytes(l, 4, 8, true, Recompute::full), sbh * 4 * 2 / 8);
}

TEST(ActivationMemory, KorthikantiFigure1ModelsAtTheirTable3Plans) {
  // Korthikanti et al. 2022 (arXiv 2205.05198): the activation memory per GPU of Figure 1's
  // four models (22B, 175B, 530B, 1T; A100 80 GB, tp 8, seq 2048) follows from Table 2's
  // per-layer forms (the sbh factors below, 5as/h = 106.67 / 80 / 64 / 64) and section
  // 4.2.3's in-flight layers on the first pipeline stage at the plans of Table 3:
  //   22B  L 48,  pp 1,  b 4, one microbatch:   48 layers
  //   175B L 96,  pp 8,  b 1, v 3: 8 x 12 x (1 + 7/24)   = 124 layers
  //   530B L 105, pp 35, b 1, v 3: 35 x 3 x (1 + 34/105) = 139 layers
  //   1T   L 128, pp 64, b 1:      64 x 2                = 128 layers
  // Full recomputation keeps 2sbh a layer plus one layer's full activations while it
  // recomputes (tensor parallel form). The figure's bars are drawn, not printed, so these
  // are its values as the paper's formulas give them, worked by hand, not read off the image.
  struct Model {
    const char* sets;
    const char* plan;
    double sbh, layers;
    double tp, sp, selective, sp_selective;  // sbh factors per layer: 10 + 24/t + 5as/ht, (34 + 5as/h)/t, 10 + 24/t, 34/t
  };
  const Model models[] = {
      {"--set model.layers=48 --set model.hidden=6144 --set model.heads=64", "tp=8,pp=1,dp=1 --global-batch 4 --microbatch 4",
       2048.0 * 4 * 6144, 48, 13 + 40.0 / 3, (34 + 320.0 / 3) / 8, 13, 4.25},
      {"--set model.layers=96 --set model.hidden=12288 --set model.heads=96",
       "tp=8,pp=8,dp=1 --global-batch 64 --microbatch 1 --interleave 3", 2048.0 * 12288, 124, 23, 14.25, 13, 4.25},
      {"--set model.layers=105 --set model.hidden=20480 --set model.heads=128",
       "tp=8,pp=35,dp=1 --global-batch 280 --microbatch 1 --interleave 3", 2048.0 * 20480, 139, 21, 12.25, 13, 4.25},
      {"--set model.layers=128 --set model.hidden=25600 --set model.heads=160",
       "tp=8,pp=64,dp=1 --global-batch 512 --microbatch 1", 2048.0 * 25600, 128, 21, 12.25, 13, 4.25},
  };
  for (const Model& m : models) {
    const std::pair<const char*, double> forms[] = {
        {"--recompute none", m.tp * m.layers},
        {"--recompute none --sequence-parallel", m.sp * m.layers},
        {"--recompute selective", m.selective * m.layers},
        {"--recompute selective --sequence-parallel", m.sp_selective * m.layers},
        {"--recompute full", 2 * m.layers + m.tp}};
    for (auto [flags, factor] : forms) {
      std::string cmd = std::string("memory gpt3 --system dgx-a100 ") + m.sets + " --parallel " + m.plan + " " + flags +
                        " --format json";
      auto r = ridge_test::run_ridge(cmd);
      ASSERT_EQ(r.status, 0) << r.err;
      double bytes = nlohmann::json::parse(r.out)["memory"]["activations_bytes"].get<double>();
      EXPECT_NEAR(bytes / (factor * m.sbh), 1, 1e-12) << cmd;
    }
    // The abstract's "reduces activation memory by 5x": tensor parallel alone over sequence
    // parallel + selective recomputation, 6.2x (22B), 5.4x (175B), 4.9x (530B, 1T).
    EXPECT_NEAR(m.tp / m.sp_selective, 5, 1.25) << m.sets;
  }
  // 175B by hand: 124 x 23 x 25,165,824 B = 71,772,930,048 B (66.8 GiB) tensor parallel alone;
  // 124 x 4.25 x 25,165,824 B = 13,262,389,248 B (12.4 GiB) with both of the paper's techniques.
}

TEST(ActivationMemory, InFlightMicrobatchesOf1F1B) {
  EXPECT_DOUBLE_EQ(in_flight_layers(12, 8, 64, 1), 96);     // p microbatches x L/p layers = L
  EXPECT_DOUBLE_EQ(in_flight_layers(12, 8, 4, 1), 48);      // only m < p in flight
  EXPECT_DOUBLE_EQ(in_flight_layers(12, 8, 64, 3), 96 * (1 + 7.0 / 24));  // x (1 + (p-1)/(pV))
}

// A model of known parameter counts and times, so an estimate can be worked by hand.
ShardedLayers toy_layers() {
  ShardedLayers s;
  s.block.forward_s = 1e-3;
  s.block.backward_s = 2e-3;
  s.block.params = 1'000'000;
  s.first.params = 200'000;
  s.last.params = 100'000;
  return s;
}

TEST(TrainingEstimate, Zero3SplitsWeightsGradientsAndOptimizerStateOverDp) {
  // tp1 pp1 dp4, 10 layers: the one stage holds 10 x 1e6 + 2e5 + 1e5 = 10.3e6 parameters;
  // ZeRO-3 keeps 1/4 of each: weights 2 B, gradients 2 B, optimizer 12 B per parameter.
  SystemSpec a = load_system("dgx-a100");
  ParallelPlan p;
  p.dp = 4;
  p.zero = 3;
  p.global_batch = 8;
  TransformerParams shape{10, 1024, 16, 128};
  TrainingEstimate e = estimate_training("toy", a, p, shape, toy_layers(), toy_layers());
  EXPECT_DOUBLE_EQ(e.memory.weights, 10.3e6 * 2 / 4);
  EXPECT_DOUBLE_EQ(e.memory.gradients, 10.3e6 * 2 / 4);
  EXPECT_DOUBLE_EQ(e.memory.optimizer, 10.3e6 * 12 / 4);
  p.zero = 1;
  e = estimate_training("toy", a, p, shape, toy_layers(), toy_layers());
  EXPECT_DOUBLE_EQ(e.memory.weights, 10.3e6 * 2);
  EXPECT_DOUBLE_EQ(e.memory.optimizer, 10.3e6 * 12 / 4);
}

TEST(TrainingEstimate, OneF1BBubbleAndIterationTime) {
  // pp 4, 8 layers (2 per stage), global batch 12 = 12 microbatches of 1, no tp or dp:
  // F = 2 ms, B = 4 ms per microbatch; bubble (p-1)/(m+p-1) = 3/15 of the pipeline.
  SystemSpec a = load_system("dgx-a100");
  ParallelPlan p;
  p.pp = 4;
  p.global_batch = 12;
  TransformerParams shape{8, 1024, 16, 128};
  TrainingEstimate e = estimate_training("toy", a, p, shape, toy_layers(), toy_layers());
  EXPECT_DOUBLE_EQ(e.stage_forward_s, 2e-3);
  EXPECT_DOUBLE_EQ(e.stage_backward_s, 4e-3);
  // each slot sends 128 x 1024 x 2 B (tp 1: the whole activation) over NVLink forward and back; 15 slots
  double p2p = 1e-6 + 128.0 * 1024 * 2 / 234e9;
  EXPECT_NEAR(e.pipeline_s, 15 * 6e-3 + 30 * p2p, 1e-12);
  EXPECT_NEAR(e.bubble_share, 3 * 6e-3 / e.pipeline_s, 1e-12);
  p.interleave = 2;
  e = estimate_training("toy", a, p, shape, toy_layers(), toy_layers());
  EXPECT_NEAR(e.bubble_s, 1.5 * 6e-3, 1e-12);  // (p-1)/V microbatch times
}

TEST(PlanCheck, BadPlansAreRefusedWithTheReason) {
  SystemSpec a = load_system("dgx-a100");
  TransformerParams gpt3{96, 12288, 96, 2048};
  ParallelPlan p;
  p.tp = 5;
  EXPECT_NE(plan_problem(p, gpt3, a).what.find("does not divide the 96 attention heads"), std::string::npos);
  p = {};
  p.pp = 97;
  EXPECT_NE(plan_problem(p, gpt3, a).what.find("more than the 96 layers"), std::string::npos);
  p = {};
  p.dp = 4;
  p.global_batch = 6;
  EXPECT_NE(plan_problem(p, gpt3, a).what.find("not divisible"), std::string::npos);
  p = {};
  p.dp = 8192;
  EXPECT_NE(plan_problem(p, gpt3, a).what.find("more than the 4480"), std::string::npos);
  p = {};
  p.tp = 8;
  p.pp = 8;
  p.global_batch = 64;
  EXPECT_TRUE(plan_problem(p, gpt3, a).ok());
}

TEST(ParallelCli, AnalyzeGpt3ReportsTheJsonKeys) {
  auto r = ridge_test::run_ridge(
      "analyze gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=1 --global-batch 64 --sequence-parallel "
      "--recompute selective --interleave 3 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"iteration_time_s", "tokens_per_s", "mfu", "hfu", "bubble_share", "communication_time_s",
                        "memory_per_device_bytes", "fits"})
    EXPECT_TRUE(j["totals"].contains(k)) << k;
  // 64 microbatches, p = 8, V = 3: bubble 7/3 / (64 + 7/3) of the compute slots.
  EXPECT_GT(j["totals"]["bubble_share"].get<double>(), 0.0);
  ASSERT_FALSE(j["collectives"].empty());
  for (const char* k : {"op", "link", "bytes", "time_s", "group_size"}) EXPECT_TRUE(j["collectives"][0].contains(k)) << k;
  EXPECT_EQ(j["collectives"][0]["group_size"], 8);
}

// A V100 has no bf16 math: a plan on dgx1-v100 trains in fp16 (as Megatron-LM does on
// V100s), timed and its MFU taken at the fp16 tensor peak, 125 TFLOP/s (NVIDIA V100
// datasheet, SXM2). Before, the MFU divided by a missing bf16 peak taken as 1 FLOP/s.
TEST(ParallelCli, APlanOnADeviceWithoutBf16TrainsInFp16) {
  auto r = ridge_test::run_ridge(
      "analyze llama-2-7b --system dgx1-v100 --gpus 8 --parallel tp=2,pp=2,dp=2 --global-batch 16 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto t = nlohmann::json::parse(r.out)["totals"];
  const double mfu = t["model_flops"].get<double>() / (t["iteration_time_s"].get<double>() * 8 * 125e12);
  EXPECT_NEAR(t["mfu"].get<double>(), mfu, mfu * 1e-9);
  EXPECT_LT(t["mfu"].get<double>(), 1.0);
  auto plot = ridge_test::run_ridge(
      "plot layers llama-2-7b --system dgx1-v100 --gpus 8 --parallel tp=2,pp=2,dp=2 --global-batch 16 -o " +
      ::testing::TempDir() + "v100-plan.svg");
  EXPECT_EQ(plot.status, 0) << plot.err;  // was "v100 has no bf16 peak"
}

// `ridge plan --set model.NAME=V` sets the model's [params] as the other commands do.
// GPT-3 cut to 3 layers on 8 GPUs: a pipeline must divide both 3 layers and the 8
// devices, so only pp = 1 runs; pp = 2 does not divide the layers and pp = 4 and 8 are
// more stages than layers. The 96-layer model, by contrast, runs at pp 2, 4 and 8.
TEST(ParallelCli, PlanTakesModelParameterSets) {
  auto r = ridge_test::run_ridge("plan gpt3 --set model.layers=3 --system dgx-a100 --gpus 8 --global-batch 8 --top 1000 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["best"].empty());
  for (const auto& e : j["best"]) EXPECT_EQ(e["plan"]["pp"], 1);
  EXPECT_GT(j["do_not_divide"]["pp does not divide the layers"].get<int64_t>(), 0);
  EXPECT_GT(j["do_not_divide"]["pp is more than the layers"].get<int64_t>(), 0);
  r = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 8 --global-batch 8 --top 1000 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["do_not_divide"].contains("pp is more than the layers"));
}

TEST(ParallelCli, WorkedExampleOfTheGuide) {
  // docs/guide/many-gpus.md: GPT-3 175B tp 8 pp 8, 64 microbatches: 4 ring all-reduces of
  // 444.0119 us per layer x 12 layers x 64 microbatches; bubble 7/71 of the compute slots.
  auto r = ridge_test::run_ridge("analyze gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=1 --global-batch 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = nlohmann::json::parse(r.out)["totals"];
  EXPECT_NEAR(t["tp_communication_s"].get<double>(), 4 * (67.6e-6 + 88080384 / 234e9) * 12 * 64, 1e-9);
  double slots = t["pipeline_s"].get<double>() - t["pp_communication_s"].get<double>();
  EXPECT_NEAR(t["bubble_s"].get<double>() / slots, 7.0 / 71, 1e-12);
  // ZeRO-3 over dp 16: P = 12 x 226,576,896 + 78,643,200 + 25,165,824 = 2,822,731,776 on the first stage.
  r = ridge_test::run_ridge("memory gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=16 --global-batch 1024 --zero 3 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto m = nlohmann::json::parse(r.out)["memory"];
  EXPECT_EQ(m["weights_bytes"].get<double>(), 352841472.0);
  EXPECT_EQ(m["gradients_bytes"].get<double>(), 352841472.0);
  EXPECT_EQ(m["optimizer_bytes"].get<double>(), 2117048832.0);
}

TEST(ParallelValidation, KorthikantiTable5HeldOutRows) {
  // Korthikanti et al. 2022 (arXiv 2205.05198) Table 5, A100 80 GB, tp 8, seq 2048: the
  // rows not used to fit dgx-a100's compute and memory efficiencies (fitted on 175B and
  // 530B only; docs/accuracy-parallel.md). The issue asks each within 10 %, mean within 5 %.
  struct Row {
    const char* sets;
    const char* plan;
    bool full;
    double published_s;
  };
  const Row rows[] = {
      {"--set model.layers=48 --set model.hidden=6144 --set model.heads=64", "tp=8,pp=1,dp=1 --global-batch 4 --microbatch 4", true, 1.42},
      {"--set model.layers=48 --set model.hidden=6144 --set model.heads=64", "tp=8,pp=1,dp=1 --global-batch 4 --microbatch 4", false, 1.10},
      {"--set model.layers=128 --set model.hidden=25600 --set model.heads=160", "tp=8,pp=64,dp=1 --global-batch 512", true, 94.42},
      {"--set model.layers=128 --set model.hidden=25600 --set model.heads=160", "tp=8,pp=64,dp=1 --global-batch 512", false, 71.49},
  };
  double sum = 0;
  for (const Row& row : rows) {
    std::string cmd = std::string("analyze gpt3 --system dgx-a100 ") + row.sets + " --parallel " + row.plan +
                      (row.full ? " --recompute full" : " --recompute selective --sequence-parallel") + " --format json";
    auto r = ridge_test::run_ridge(cmd);
    ASSERT_EQ(r.status, 0) << r.err;
    double t = nlohmann::json::parse(r.out)["totals"]["iteration_time_s"].get<double>();
    EXPECT_NEAR(t / row.published_s, 1.0, 0.10) << cmd;
    sum += std::abs(t / row.published_s - 1);
  }
  EXPECT_LT(sum / 4, 0.05);
}

TEST(ParallelValidation, NarayananWeakScalingHeldOut) {
  // Narayanan et al. SC'21 (arXiv 2104.04473) Table 1: achieved TFLOP/s per GPU of GPT models
  // on Selene (A100 80 GB), seq 2048, vocabulary 51200, full recomputation. Nothing is fitted on
  // these rows. The paper's FLOPs are its own count, 96 B s l h^2 (1 + s/6h + V/16lh), over
  // the measured time; the same count over ridge's time compares like with like. Microbatch 1
  // and no interleave are assumed (the paper does not state them). The issue asks within 15 %.
  struct Row {
    int heads, hidden, layers, tp, pp, gpus, batch;
    double published_tflops;
  };
  const Row rows[] = {{24, 2304, 24, 1, 1, 32, 512, 137},        {32, 3072, 30, 2, 1, 64, 512, 138},
                      {32, 4096, 36, 4, 1, 128, 512, 142},       {48, 6144, 40, 8, 1, 256, 1024, 135},
                      {64, 8192, 48, 8, 2, 512, 1536, 138},      {80, 10240, 60, 8, 4, 1024, 1792, 140},
                      {96, 12288, 80, 8, 8, 1536, 2304, 148},    {128, 16384, 96, 8, 16, 1920, 2160, 155},
                      {128, 20480, 105, 8, 35, 2520, 2520, 163}, {160, 25600, 128, 8, 64, 3072, 3072, 163}};
  for (const Row& row : rows) {
    std::string cmd = "analyze gpt3 --system dgx-a100 --set model.layers=" + std::to_string(row.layers) +
                      " --set model.hidden=" + std::to_string(row.hidden) + " --set model.heads=" + std::to_string(row.heads) +
                      " --parallel tp=" + std::to_string(row.tp) + ",pp=" + std::to_string(row.pp) +
                      ",dp=" + std::to_string(row.gpus / (row.tp * row.pp)) + " --global-batch " + std::to_string(row.batch) +
                      " --microbatch 1 --recompute full --format json";
    auto r = ridge_test::run_ridge(cmd);
    ASSERT_EQ(r.status, 0) << r.err;
    double seconds = nlohmann::json::parse(r.out)["totals"]["iteration_time_s"].get<double>();
    double h = row.hidden, l = row.layers, s = 2048, vocab = 51200;
    double flops = 96 * row.batch * s * l * h * h * (1 + s / (6 * h) + vocab / (16 * l * h));
    EXPECT_NEAR(flops / seconds / row.gpus / 1e12 / row.published_tflops, 1.0, 0.15) << cmd;
  }
}

TEST(ParallelDataParallel, Resnet50OnEightV100sByHand) {
  // ResNet-50 (25,557,032 parameters) on dgx1-v100, dp 8, global batch 256: each V100 runs
  // the single-device training step at batch 32 and the ring all-reduces the gradients in
  // NCCL's Simple protocol: call overhead 11.6 us + base 8.4 us + 2 (n-1) = 14 NVLink steps
  // x 3.4 us = 67.6 us, + bytes x 2 (n-1)/n / (150 GB/s x 0.8). fp32: 102,228,128 B,
  // 67.6 us + 1,490.83 us; fp16: 51,114,064 B, 67.6 us + 745.41 us (LL128 would take
  // 52.2 us + 810.2 us).
  const double ring = 2.0 * 7 / 8 / (150e9 * 0.8);
  for (auto [dtype, bytes] : {std::pair<const char*, double>{"fp32", 25557032.0 * 4}, {"fp16", 25557032.0 * 2}}) {
    std::string plan = std::string("analyze resnet50 --system dgx1-v100 --parallel dp=8 --global-batch 256 --dtype ") + dtype;
    auto r = ridge_test::run_ridge(plan + " --no-overlap --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["collectives"].size(), 1u);
    auto c = j["collectives"][0];
    EXPECT_EQ(c["op"], "all_reduce");
    EXPECT_EQ(c["group_size"], 8);
    EXPECT_EQ(c["link"], "scale_up");
    EXPECT_EQ(c["bytes"].get<double>(), bytes) << dtype;
    EXPECT_NEAR(c["time_s"].get<double>(), 67.6e-6 + bytes * ring, 1e-12) << dtype;
    // The step is the single-device one at batch 256 / 8 on the system's V100 (at its fitted
    // [efficiency]); without overlap the whole all-reduce adds to it.
    auto one = ridge_test::run_ridge(std::string("analyze resnet50 --system dgx1-v100 --parallel dp=1 --global-batch 32 --dtype ") +
                                     dtype + " --format json");
    ASSERT_EQ(one.status, 0) << one.err;
    double step = nlohmann::json::parse(one.out)["totals"]["step_s"].get<double>();
    auto t = j["totals"];
    EXPECT_NEAR(t["step_s"].get<double>(), step, 1e-12);
    EXPECT_NEAR(t["iteration_time_s"].get<double>(), step + 67.6e-6 + bytes * ring, 1e-12);
    EXPECT_NEAR(t["samples_per_s"].get<double>(), 256 / t["iteration_time_s"].get<double>(), 1e-6);
    // Overlapped with the backward pass (tens of ms, against 0.81-1.56 ms), nothing shows.
    r = ridge_test::run_ridge(plan + " --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    t = nlohmann::json::parse(r.out)["totals"];
    EXPECT_GT(t["backward_s"].get<double>(), 67.6e-6 + bytes * ring);
    EXPECT_EQ(t["communication_time_s"].get<double>(), 0.0);
    EXPECT_NEAR(t["iteration_time_s"].get<double>(), step, 1e-12);
  }
}

TEST(ParallelDataParallel, Resnet50AgainstNvidiaMeasurement) {
  // Held out (nothing was fitted on it; dgx1-v100's [efficiency] comes from a transformer):
  // NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5/README.md,
  // "Training performance: NVIDIA DGX-1 16GB (8x V100 16GB)", pytorch-21.03 NGC container:
  // mixed precision 1,200 / 8,322 img/s on 1 / 8 GPUs, FP32 367 / 2,855 (torchvision's
  // resnet50 is v1.5). The README does not give the batch; assumed 256 a GPU in mixed
  // precision and 128 in fp32 (256 does not fit 16 GB in fp32). ridge: fp16 942 / 7,539
  // (-21.5 %, -9.4 %), the efficiency fitted on Megatron-LM's 2019 fp16 kernels; fp32
  // 396 / 3,160 (+7.8 %, +10.7 %), at the datasheet fp32 peak, since that fit says nothing
  // of CUDA-core math (with it applied to fp32 too, 8 GPUs gave 1,468, -49 %). Eight GPUs
  // scale perfectly in ridge (the all-reduce hides under the backward pass), 6.9-7.8x measured.
  struct Row {
    const char* dtype;
    int per_gpu, gpus;
    double published;
  };
  for (const Row& row : {Row{"fp16", 256, 1, 1200}, Row{"fp16", 256, 8, 8322}, Row{"fp32", 128, 1, 367}, Row{"fp32", 128, 8, 2855}}) {
    auto r = ridge_test::run_ridge(std::string("analyze resnet50 --system dgx1-v100 --dtype ") + row.dtype + " --parallel dp=" +
                                   std::to_string(row.gpus) + " --global-batch " + std::to_string(row.per_gpu * row.gpus) +
                                   " --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto totals = nlohmann::json::parse(r.out)["totals"];
    EXPECT_TRUE(totals["fits"].get<bool>()) << row.dtype << " " << row.gpus;
    EXPECT_NEAR(totals["samples_per_s"].get<double>() / row.published, 1.0, 0.25) << row.dtype << " " << row.gpus;
  }
}

TEST(ParallelSystems, AnEfficiencyPerDtypeLeavesTheOtherDtypesAtTheirPeaks) {
  // dgx1-v100: [efficiency] compute = { fp16 = 0.3453 }, fitted on fp16 tensor-core math.
  SystemSpec s = load_system("dgx1-v100");
  EXPECT_DOUBLE_EQ(s.device.compute_fraction(DType::fp16), 0.3453);
  EXPECT_DOUBLE_EQ(s.device.compute_fraction(DType::fp32), 1.0);
  EXPECT_DOUBLE_EQ(s.device.memory_efficiency, 0.6498);
}

TEST(ParallelZoo, Gpt3AndLlamaParameterCounts) {
  // GPT-3 175B: 96 x (12 x 12288^2 + 13 x 12288) + 51200 x 12288 + 2048 x 12288 + 2 x 12288.
  // Llama-2-70B: 80 x (2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672 + 2 x 8192) + 2 x 32000 x 8192 + 8192.
  // Llama-3-70B: the same layers, vocabulary 128256: 80 x 855,654,400 + 2 x 128256 x 8192 + 8192
  // (Meta: 70B). Llama-3.1-405B: 126 x (2 x 16384^2 + 2 x 16384 x 1024 + 3 x 16384 x 53248 +
  // 2 x 16384) + 2 x 128256 x 16384 + 16384 (Meta: 405B).
  for (auto [model, params] : {std::pair<const char*, int64_t>{"gpt3", 174'615'846'912},
                               std::pair<const char*, int64_t>{"llama-2-70b", 68'976'648'192},
                               std::pair<const char*, int64_t>{"llama-3-70b", 70'553'706'496},
                               std::pair<const char*, int64_t>{"llama-3-405b", 405'853'388'800}}) {
    auto r = ridge_test::run_ridge(std::string("analyze ") + model + " --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["totals"]["params"].get<int64_t>(), params) << model;
  }
}

// Shoeybi et al. 2019 (Megatron-LM, arXiv 1909.08053), Figure 5: model-parallel weak scaling
// on DGX-2H V100s at batch 8, sequence 1024, vocabulary 51,200, activations checkpointed:
// 2.5B (hidden 1920, 54 layers, 20 heads) on 2 GPUs at 95% of the single-GPU baseline's
// 39 TFLOP/s, 4.2B (2304, 64, 24) on 4 at 82%, 8.3B (3072, 72, 32) on 8 at 77%; the baseline
// is 30% of a DGX-2H V100's peak (130 TFLOP/s). dgx1-v100's compute share is fitted on that
// baseline only (scripts/accuracy_parallel_v100.py), so these rows are held out. As a share of
// peak in the paper's count, 96 B s l h^2 (1 + s/6h + V/16lh) / time / GPUs / 125 TFLOP/s,
// each within 15%.
TEST(ParallelAccuracy, DgxOneV100FollowsMegatronLmModelParallelScaling) {
  struct Row { int heads, hidden, layers, gpus; double efficiency; };
  for (Row r : {Row{20, 1920, 54, 2, 0.95}, Row{24, 2304, 64, 4, 0.82}, Row{32, 3072, 72, 8, 0.77}}) {
    auto out = ridge_test::run_ridge(
        "analyze gpt3 --system dgx1-v100 --set model.hidden=" + std::to_string(r.hidden) + " --set model.heads=" +
        std::to_string(r.heads) + " --set model.layers=" + std::to_string(r.layers) +
        " --set model.seq=1024 --set model.vocab=51200 --parallel tp=" + std::to_string(r.gpus) +
        " --global-batch 8 --microbatch 8 --recompute full --no-overlap --format json");
    ASSERT_EQ(out.status, 0) << out.err;
    double seconds = nlohmann::json::parse(out.out)["totals"]["iteration_time_s"].get<double>();
    double h = r.hidden, l = r.layers;
    double flops = 96 * 8 * 1024 * l * h * h * (1 + 1024 / (6 * h) + 51200 / (16 * l * h));
    double share = flops / seconds / r.gpus / 125e12;
    EXPECT_NEAR(share / (r.efficiency * 0.30), 1, 0.15) << r.gpus << " GPUs: " << share;
  }
}

TEST(ParallelServing, GenerateAtTensorAndPipelineParallel) {
  // Llama-2-70B (80 layers, hidden 8192, 8 KV heads of 128) in fp16 on dgx-a100, tp 8,
  // batch 1, prompt 128, 2 tokens. A decode step all-reduces 8192 x 2 = 16,384 B twice a
  // layer: LL, 11.6 + 6.6 + 14 x 0.6 = 26.6 us + 16,384 x 7/4 / 117e9 s = 26.845060 us,
  // x 160 = 4.2952096 ms. The prefill's all-reduces hold 128 tokens, 2,097,152 B: LL,
  // 26.6 us + 3,670,016 / 117e9 s = 57.967658 us (LL128 69.25 us, Simple 83.28 us), x 160.
  // The KV cache: 129 tokens x 80 layers x 2 x 8/8 heads x 128 x 2 B = 5,283,840 B a device.
  auto r = ridge_test::run_ridge("generate llama-2-70b --system dgx-a100 --parallel tp=8 --prompt 128 --gen 2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  double step = 160 * (26.6e-6 + 16384.0 * 7 / 4 / 117e9);
  EXPECT_NEAR(j["parallel"]["decode_step_communication_s"].get<double>(), step, 1e-12);
  EXPECT_NEAR(j["parallel"]["prefill_communication_s"].get<double>(), 160 * (26.6e-6 + 3670016.0 / 117e9), 1e-12);
  EXPECT_EQ(j["kv_cache_bytes"].get<int64_t>(), 5283840);
  EXPECT_NEAR(j["total_time_s"].get<double>(), j["ttft_s"].get<double>() + j["decode_time_s"].get<double>(), 1e-15);
  // pp 2: the stages sit in two nodes (tp 8 fills one), so each step also sends the
  // 16,384 B once over InfiniBand: 6.76 us (the network device latency) + 16,384 / (25e9 x 0.96) s;
  // each device holds half the cache.
  r = ridge_test::run_ridge("generate llama-2-70b --system dgx-a100 --parallel tp=8,pp=2 --prompt 128 --gen 2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["parallel"]["decode_step_communication_s"].get<double>(), step + 6.76e-6 + 16384 / 24e9, 1e-12);
  EXPECT_EQ(j["kv_cache_bytes"].get<int64_t>(), 5283840 / 2);
  // Plans generate cannot serve are input errors.
  for (const char* bad : {"--parallel tp=3", "--parallel tp=8,pp=3", "--parallel tp=8,dp=2", "--parallel tp=8 --hw a100"}) {
    r = ridge_test::run_ridge(std::string("generate llama-2-70b --prompt 8 --gen 2 ") + bad);
    EXPECT_EQ(r.status, 2) << bad;
  }
}

// The 7-8B LLMs of the zoo are [params] files too, so generate --parallel takes every
// model analyze --parallel does. Llama-2-7B (32 layers, hidden 4096, 32 KV heads of 128)
// in fp16 on dgx-a100 at tp 2, prompt 512, 64 tokens: a decode step all-reduces
// 4096 x 2 = 8,192 B twice a layer over 2 GPUs, a ring of 2 (2-1) = 2 steps; LL takes
// 11.6 + 6.6 + 2 x 0.6 = 19.4 us + 8,192 x 2 x 1/2 / 117e9 s = 19.470017 us (LL128
// 29.4 us, Simple 26.8 us before their bytes), x 64 = 1.2460811 ms. The KV cache at the
// last step: 575 tokens x 32 layers x 2 x 32/2 heads x 128 x 2 B = 150,732,800 B a device.
// Without [params] (before) it was refused: no [params] 'layers'.
TEST(ParallelServing, GenerateTakesTheSmallerZooLlms) {
  auto r = ridge_test::run_ridge("generate llama-2-7b --system dgx-a100 --parallel tp=2 --prompt 512 --gen 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["parallel"]["decode_step_communication_s"].get<double>(), 64 * (19.4e-6 + 8192.0 / 117e9), 1e-12);
  EXPECT_EQ(j["kv_cache_bytes"].get<int64_t>(), 150732800);
  for (const char* model : {"llama-3-8b", "mistral-7b"}) {
    r = ridge_test::run_ridge(std::string("generate ") + model + " --system dgx-h100 --parallel tp=8 --prompt 128 --gen 2 --format json");
    EXPECT_EQ(r.status, 0) << model << r.err;
    r = ridge_test::run_ridge(std::string("analyze ") + model + " --system dgx-h100 --parallel tp=8 --format json");
    EXPECT_EQ(r.status, 0) << model << r.err;
  }
}

TEST(ParallelQuery, CostliestCollectiveIsLinkOrLatencyLimited) {
  // GPT-3 175B, tp 8 pp 8, 64 microbatches: the costliest collective is a tp all-reduce
  // of one layer's 50,331,648 B activation, 2 a layer x 12 layers x 64 microbatches =
  // 1,536 an iteration each way. Of its 444.0119 us (NCCL Simple, see above), the same
  // all-reduce of 0 bytes takes LL's 11.6 + 6.6 + 14 x 0.6 = 26.6 us: link-limited.
  auto r = ridge_test::run_ridge("query gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=1 --global-batch 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto c = j["costliest_collective"];
  EXPECT_EQ(c["op"], "all_reduce");
  EXPECT_EQ(c["bytes"].get<double>(), 50331648.0);
  EXPECT_EQ(c["count"].get<double>(), 1536.0);
  EXPECT_NEAR(c["time_s"].get<double>(), 67.6e-6 + 88080384 / 234e9, 1e-12);
  EXPECT_NEAR(c["latency_s"].get<double>(), 26.6e-6, 1e-12);
  EXPECT_EQ(c["bound"], "link");
  double sum = 0;
  for (auto& [k, v] : j["shares"].items()) sum += v.get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-12);  // compute, tp, bubble, pp, exposed dp and the optimizer add up
  // hidden 1024 at seq 32: 65,536 B all-reduces, 26.6 us + 114,688 / 117e9 s = 27.58 us,
  // of which under 1 us moves the bytes: latency-limited.
  r = ridge_test::run_ridge("query gpt3 --system dgx-a100 --set model.layers=8 --set model.hidden=1024 --set model.heads=16 "
                            "--set model.seq=32 --parallel tp=8,pp=1,dp=1 --global-batch 1 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  c = nlohmann::json::parse(r.out)["costliest_collective"];
  EXPECT_NEAR(c["time_s"].get<double>(), 26.6e-6 + 114688 / 117e9, 1e-12);
  EXPECT_EQ(c["bound"], "latency");
  EXPECT_EQ(ridge_test::run_ridge("query gpt3 --system dgx-a100 --parallel tp=8 --layer layers.0.q").status, 2);
}

TEST(ParallelCli, BadPlansExitTwoWithOneErrorLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"--parallel tp=5,pp=1,dp=1", "tp=5 does not divide the 96 attention heads"},
      {"--parallel tp=1,pp=97,dp=1", "pp=97 is more than the 96 layers"},
      {"--parallel tp=8,pp=1,dp=4 --global-batch 6", "global batch 6 is not divisible by microbatch 1 x dp 4"},
      {"--parallel tp=8,pp=8,dp=128", "the plan takes 8192 devices, more than the 4480 of system 'dgx-a100'"},
  };
  for (const auto& [plan, message] : cases) {
    auto r = ridge_test::run_ridge(std::string("analyze gpt3 --system dgx-a100 ") + plan);
    EXPECT_EQ(r.status, 2) << plan;
    EXPECT_EQ(r.err.rfind("error: plan for 'gpt3': ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(ParallelCli, ListSystemsAndPlan) {
  auto r = ridge_test::run_ridge("list systems");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("dgx-h100"), std::string::npos);
  r = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 64 --global-batch 64 --format json --top 3");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["best"].size(), 3u);
  EXPECT_LE(j["best"][0]["totals"]["iteration_time_s"].get<double>(), j["best"][1]["totals"]["iteration_time_s"].get<double>());
  EXPECT_GT(j["do_not_fit"].get<int64_t>(), 0);  // tp 1 pp 1 cannot hold 175B in 80 GB
}

TEST(ParallelCli, ShardsPartitionTheSearch) {
  int64_t sum = 0;
  for (int k = 1; k <= 3; ++k) {
    auto r = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 16 --global-batch 32 --format json --shard " +
                                   std::to_string(k) + "/3");
    ASSERT_EQ(r.status, 0) << r.err;
    sum += nlohmann::json::parse(r.out)["considered"].get<int64_t>();
  }
  auto all = ridge_test::run_ridge("plan gpt3 --system dgx-a100 --gpus 16 --global-batch 32 --format json");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(sum, nlohmann::json::parse(all.out)["considered"].get<int64_t>());
}

}  // namespace
}  // namespace ridge
