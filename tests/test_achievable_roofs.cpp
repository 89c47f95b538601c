// A descriptor's [efficiency] as a prediction (issue #25 item 4): a compute fraction per dtype,
// a bandwidth fraction, the cost of widening weight-only quantised weights in the kernel and an
// engine's fixed time per request; `--efficiency none` (drop_efficiency) gives the datasheet
// roofline back. Expected times are worked by hand from the descriptor text in each test.
#include <gtest/gtest.h>

#include <string>

#include "hw/descriptor_reader.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "tests/run_ridge.hpp"

using namespace ridge;

namespace {

const char* kChip = R"(name = "chip"
kind = "gpu"
source = "test"
[compute]
fp32 = "10 TFLOPS"
fp16 = "100 TFLOPS"
[[memory]]
name = "HBM"
capacity = "80 GiB"
bandwidth = "1 TB/s"
[efficiency]
compute = { fp16 = 0.8 }
memory = 0.5
dequant_ops = 5
request_overhead = "3 ms"
source = "test figures"
)";

HardwareSpec chip() { return HardwareDescriptor::from_text(kChip, "chip.toml", "chip").spec({}); }

LayerWork linear_work(double flops, double bytes, double dequant_weights) {
  LayerWork w;
  w.op_class = OpClass::linear;
  w.flops = flops;
  w.weight_bytes = bytes;
  w.dequant_weights = dequant_weights;
  return w;
}

double ttft_s(const std::string& args) {
  ridge_test::RidgeRun r = ridge_test::run_ridge("generate llama-2-7b --hw a100 --prompt 128 --gen 1 --format json " + args);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string key = "\"ttft_s\": ";
  const size_t at = r.out.find(key);
  return at == std::string::npos ? -1 : std::stod(r.out.substr(at + key.size()));
}

}  // namespace

TEST(AchievableRoofs, ComputeFractionIsPerDtypeAndTheRestStayAtPeak) {
  HardwareSpec hw = chip();
  EXPECT_DOUBLE_EQ(hw.compute_fraction(DType::fp16), 0.8);
  EXPECT_DOUBLE_EQ(hw.compute_fraction(DType::fp32), 1.0);  // not listed: the datasheet peak
  // 1 TFLOP at 0.8 x 100 TFLOP/s = 12.5 ms; 1 GB at 0.5 x 1 TB/s = 2 ms.
  LayerTiming t = find_hardware_model("roofline").time_layer(linear_work(1e12, 1e9, 0), hw, DType::fp16);
  EXPECT_DOUBLE_EQ(t.compute_s, 1e12 / 80e12);
  EXPECT_DOUBLE_EQ(t.memory_s, 1e9 / 0.5e12);
}

TEST(AchievableRoofs, DequantisingAddsOpsPerWeightAtTheFp32Rate) {
  HardwareSpec hw = chip();
  // A 4096 x 4096 int4 GEMV: 16,777,216 weights x 5 ops / 10 TFLOP/s = 8.388608 us, added
  // after the roofline (2 x 16.8 MFLOP at 80 TFLOP/s is below 8.4 MB at 0.5 TB/s = 16.78 us).
  const double weights = 4096.0 * 4096.0;
  LayerTiming t = find_hardware_model("roofline").time_layer(linear_work(2 * weights, weights / 2, weights), hw, DType::fp16);
  EXPECT_DOUBLE_EQ(t.dequant_s, weights * 5 / 10e12);
  EXPECT_DOUBLE_EQ(t.time_s, t.memory_s + t.overhead_s + t.dequant_s);
  EXPECT_NEAR(t.time_s, weights / 2 / 0.5e12 + 8.388608e-6, 1e-15);
}

TEST(AchievableRoofs, EfficiencyNoneIsTheDatasheetRoofline) {
  HardwareSpec hw = chip();
  hw.drop_efficiency();
  const double weights = 4096.0 * 4096.0;
  LayerTiming t = find_hardware_model("roofline").time_layer(linear_work(1e12, weights / 2, weights), hw, DType::fp16);
  EXPECT_DOUBLE_EQ(t.compute_s, 1e12 / 100e12);
  EXPECT_EQ(t.dequant_s, 0.0);
  EXPECT_EQ(hw.request_overhead_s, 0.0);
  EXPECT_DOUBLE_EQ(t.time_s, 1e12 / 100e12);
}

TEST(AchievableRoofs, RequestOverheadIsPartOfTheFirstTokenOnly) {
  // The time to first token is the prefill plus exactly the request overhead (the shipped
  // a100 fits 0 ms, docs/accuracy-llm.md; 3 ms set here).
  const double with = ttft_s("--set efficiency.request_overhead=\"3 ms\"");
  const double without = ttft_s("--set efficiency.request_overhead=\"0 ms\"");
  EXPECT_NEAR(with - without, 3e-3, 1e-12);
  EXPECT_LT(ttft_s("--efficiency none"), without);  // datasheet peaks, no overhead: faster still
}

TEST(AchievableRoofs, ShippedGpusCarrySourcedEfficiency) {
  for (const char* id : {"a100", "h100", "h200", "mi300x", "l40s", "rtx4090"}) {
    HardwareSpec hw = load_hardware(id);
    EXPECT_FALSE(hw.efficiency_source.empty()) << id;
    EXPECT_LT(hw.memory_efficiency, 1.0) << id;
    EXPECT_GT(hw.dequant_ops_per_weight, 0.0) << id;
  }
  // No published L4 bandwidth measurement was found: the datasheet value, and the source says so.
  HardwareSpec l4 = load_hardware("l4");
  EXPECT_EQ(l4.memory_efficiency, 1.0);
  EXPECT_NE(l4.efficiency_source.find("datasheet bandwidth"), std::string::npos) << l4.efficiency_source;
  EXPECT_GT(l4.dequant_ops_per_weight, 0.0);
  // ml-engineering's MAMF table: A100 SXM 267.9 of 312 TFLOPS, MI300X 781.9 of 1300.
  EXPECT_NEAR(load_hardware("a100").compute_fraction(DType::bf16) * 312, 267.9, 0.1);
  EXPECT_NEAR(load_hardware("mi300x").compute_fraction(DType::bf16) * 1300, 781.9, 0.2);
}

TEST(AchievableRoofs, PurchaseQuestionCardsCarryTheirMeasuredSgemm) {
  // One GK210 of a K80: cuBLAS SGEMM 2904.85 GFLOPS at m = n = k = 1536 (CUDA 8.0 batchCUBLAS
  // sample, flyliu2017/pai210 tests/PerformanceTest/README.md) of 2496 x 2 x 0.875 GHz = 4368.
  EXPECT_NEAR(load_hardware("k80").compute_fraction(DType::fp32) * 4365, 2904.85, 0.02 * 2904.85);
  // Kepler's SMX reaches far less of its peak than Pascal's SM: the K40 (same SMX, clocks
  // set to the boost level, 875 MHz) levels off at 3275 of 15 x 192 x 2 x 0.875 = 5040 GFLOPS (cuBLAS 7.0,
  // clBLAS doc/performance/cuBLAS_7.0/Tesla_K40/sgemm.csv, m = n = k = 4096): 0.650.
  EXPECT_NEAR(load_hardware("k80").compute_fraction(DType::fp32), 3275.0 / 5040, 0.025);
  // DeepBench training results, fastest fp32 GEMM: Titan X (Pascal) 10.76 of 10.97 TFLOPS; P100
  // PCIe 9.12 of 9.3 TFLOPS, carried over to the SXM2 board (the same GP100 SMs).
  EXPECT_NEAR(load_hardware("titan-x-pascal").compute_fraction(DType::fp32) * 10.97, 10.76, 0.01);
  EXPECT_NEAR(load_hardware("p100").compute_fraction(DType::fp32), 9.12 / 9.3, 0.005);
  // The GTX 1080 Ti's fastest DeepBench GEMM, 12.12 TFLOPS, is above its 11.34 datasheet peak:
  // no fraction below 1 is set.
  EXPECT_DOUBLE_EQ(load_hardware("gtx1080ti").compute_fraction(DType::fp32), 1.0);
}

TEST(AchievableRoofs, BandwidthAndFp8FractionsReproduceTheirPublishedMeasurements) {
  // Azure/AI-benchmarking-guide, Azure_Results/ND_*_results.md, 'HBM Bandwidth' (BabelStream
  // kernels), Triad: A100 80GB 1.70 TB/s, H100 80GB 2.97, H200 4.15, MI300X 4.09 TB/s.
  EXPECT_NEAR(load_hardware("a100").memory_efficiency * 2039, 1700, 1);
  EXPECT_NEAR(load_hardware("h100").memory_efficiency * 3350, 2970, 2);
  EXPECT_NEAR(load_hardware("h200").memory_efficiency * 4800, 4150, 3);
  EXPECT_NEAR(load_hardware("mi300x").memory_efficiency * 5300, 4090, 3);
  // xytpai/nvbench README, global_memory_bandwidth on an RTX 4090: 920.2 GB/s (median).
  EXPECT_NEAR(load_hardware("rtx4090").memory_efficiency * 1008, 920.2, 0.5);
  // te42kyfo/gpu-benches gpu-stream/l40.txt, triad at its best launch configuration on an
  // L40 (the L40S's board and 864 GB/s GDDR6): 803 GB/s.
  EXPECT_NEAR(load_hardware("l40s").memory_efficiency * 864, 803, 0.5);
  // The same Azure files, best cuBLASLt / hipBLASLt FP8 GEMM: H100 1382.2 TFLOPS, H200
  // 1366.3, MI300X 1159.54 (dense FP8 peaks 1978.9, 1978.9 and 2614.9 TFLOPS).
  EXPECT_NEAR(load_hardware("h100").compute_fraction(DType::fp8) * 1978.9, 1382.2, 0.2);
  EXPECT_NEAR(load_hardware("h200").compute_fraction(DType::fp8) * 1978.9, 1366.3, 0.2);
  EXPECT_NEAR(load_hardware("mi300x").compute_fraction(DType::fp8) * 2614.9, 1159.54, 0.2);
}

TEST(AchievableRoofs, AdaGpusRunFp8MathAtTheirDatasheetPeaks) {
  // Ada's fourth-generation tensor cores run fp8 (--dtype fp8, W8A8). Dense peaks, the
  // datasheets' "with sparsity" figures halved: L4 485 / 2 = 242.5 TFLOPS, L40S 1,466 / 2 =
  // 733; RTX 4090 (Ada whitepaper) 330.3 with FP32 accumulate. 1 TFLOP of fp8 GEMM on the
  // datasheet roofline (--efficiency none) takes 1e12 / peak.
  for (auto [id, peak] : {std::pair{"l4", 242.5e12}, {"l40s", 733e12}, {"rtx4090", 330.3e12}}) {
    HardwareSpec hw = load_hardware(id);
    hw.drop_efficiency();
    LayerTiming t = find_hardware_model("roofline").time_layer(linear_work(1e12, 0, 0), hw, DType::fp8);
    EXPECT_DOUBLE_EQ(t.compute_s, 1e12 / peak) << id;
  }
}
