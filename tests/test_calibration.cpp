// The calibrated efficiency model (hw/calibration.hpp), op classes, the measured-layers
// CSV and `ridge calibrate`'s fit, against numbers computed by hand.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "hw/attainable_rates.hpp"
#include "hw/descriptor_reader.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "tests/model_text.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_chips.hpp"
#include "tests/test_folder.hpp"

namespace ridge {
namespace {

// 100 GFLOP/s fp32; DRAM 10 GB/s, 1 GiB; a 1 MiB cache at 100 GB/s.
constexpr const char* kChip = test::kCalibrationChip;

constexpr const char* kCalibration = R"(
[calibration]
data = "hand-made"
date = "2026-11-23"
[[calibration.class]]
op_class = "linear"
dtype = "fp32"
compute = 0.5
n_half_flops = 1e9
memory = 0.5
[[calibration.class]]
op_class = "elementwise"
dtype = "fp32"
compute = 1.0
memory = 0.5
)";

// kChip with a hand-made calibration of one class; `class_keys` are its lines.
std::string chip_with_class(const std::string& class_keys) {
  return std::string(kChip) + "\n[calibration]\ndata = \"hand-made\"\ndate = \"2026-11-23\"\n[[calibration.class]]\n" +
         class_keys;
}

HardwareSpec spec_of(const std::string& text) { return HardwareDescriptor::from_text(text, "chip.toml", "chip").spec(); }

LayerWork work(OpClass c, double flops, double bytes) {
  LayerWork w;
  w.op_class = c;
  w.flops = flops;
  w.input_bytes = bytes;
  return w;
}

TEST(OpClass, ConvolutionsAreClassifiedByKernelAndGroups) {
  using testing::one_layer;
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"conv2d\"\nout_channels = 8\nkernel = 3").op_class, OpClass::conv_kxk);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"conv2d\"\nout_channels = 8\nkernel = 1").op_class, OpClass::conv_1x1);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"conv2d\"\nout_channels = 8\nkernel = 3\ngroups = 8").op_class,
            OpClass::depthwise);
  // Grouped but not depthwise (two channels per group) is a k x k conv.
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"conv2d\"\nout_channels = 8\nkernel = 3\ngroups = 4").op_class,
            OpClass::conv_kxk);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"relu\"").op_class, OpClass::elementwise);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"max_pool2d\"\nkernel = 2").op_class, OpClass::max_pool);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"adaptive_max_pool2d\"\noutput_size = 2").op_class, OpClass::max_pool);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"avg_pool2d\"\nkernel = 2").op_class, OpClass::avg_pool);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"global_avg_pool2d\"").op_class, OpClass::avg_pool);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"batchnorm\"").op_class, OpClass::normalization);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"flatten\"").op_class, OpClass::data_movement);
  EXPECT_EQ(one_layer("[8]", "op = \"linear\"\nout_features = 4").op_class, OpClass::linear);
}

// Each op's class is in the op registry; these were once left to data_movement, where a
// calibration of normalisation, attention or elementwise kernels did not reach them.
TEST(OpClass, TransformerAndArithmeticOpsHaveTheirKernelsClass) {
  using testing::one_layer;
  EXPECT_EQ(one_layer("[4, 8]", "op = \"rmsnorm\"").op_class, OpClass::normalization);
  EXPECT_EQ(one_layer("[4, 8]", "op = \"reduce_mean\"\naxes = [1]").op_class, OpClass::normalization);
  EXPECT_EQ(one_layer("[4, 8]", "op = \"rotary\"\nhead_dim = 8").op_class, OpClass::elementwise);
  EXPECT_EQ(one_layer("[4, 8]", "op = \"sqrt\"").op_class, OpClass::elementwise);
  EXPECT_EQ(one_layer("[4, 8]", "op = \"flatten\"").op_class, OpClass::data_movement);
  EXPECT_EQ(one_layer("[4, 8, 8]", "op = \"conv_transpose2d\"\nout_channels = 4\nkernel = 2\nstride = 2").op_class,
            OpClass::conv_kxk);
}

// The per-sample GEMM a shape term reads, worked by hand. AlexNet's conv1 (DESIGN.md's
// example: 3 x 224 x 224 input, 96 11 x 11 filters, stride 4, padding 2) has 55 x 55 =
// 3025 output positions and dot products of 3 x 11 x 11 = 363; a depthwise 3 x 3 conv
// has 9; a linear layer over [7, 512] has 7 rows per sample and in_features 512; a
// transposed conv's GEMM runs over its input's 8 x 8 = 64 positions with C_in = 16.
TEST(OpClass, ConvAndLinearLayersCarryTheirPerSampleGemm) {
  using testing::one_layer;
  Layer conv1 = one_layer("[3, 224, 224]", "op = \"conv2d\"\nout_channels = 96\nkernel = 11\nstride = 4\npadding = 2");
  EXPECT_EQ(conv1.counts.gemm_positions, 3025);
  EXPECT_EQ(conv1.counts.gemm_reduction, 363);
  Layer dw = one_layer("[8, 10, 10]", "op = \"conv2d\"\nout_channels = 8\nkernel = 3\ngroups = 8\npadding = 1");
  EXPECT_EQ(dw.counts.gemm_positions, 100);
  EXPECT_EQ(dw.counts.gemm_reduction, 9);
  Layer fc = one_layer("[7, 512]", "op = \"linear\"\nout_features = 4");
  EXPECT_EQ(fc.counts.gemm_positions, 7);
  EXPECT_EQ(fc.counts.gemm_reduction, 512);
  Layer up = one_layer("[16, 8, 8]", "op = \"conv_transpose2d\"\nout_channels = 4\nkernel = 2\nstride = 2");
  EXPECT_EQ(up.counts.gemm_positions, 64);
  EXPECT_EQ(up.counts.gemm_reduction, 16);
  EXPECT_EQ(one_layer("[8, 8, 8]", "op = \"relu\"").counts.gemm_positions, 0);
}

TEST(Calibration, UncalibratedIsThePureRoofline) {
  HardwareSpec hw = spec_of(kChip);
  EXPECT_FALSE(hw.calibration);
  // 1 GFLOP over 100 GFLOP/s = 10 ms; 1 MB over 10 GB/s DRAM = 100 us (roofline: DRAM only).
  LayerTiming t = find_hardware_model("roofline").time_layer(work(OpClass::linear, 1e9, 1e6), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(t.compute_s, 1e9 / 100e9);
  EXPECT_DOUBLE_EQ(t.memory_s, 1e6 / 10e9);
}

TEST(Calibration, HalfPerformanceSizeAndEfficiencyScaleCompute) {
  HardwareSpec hw = spec_of(std::string(kChip) + kCalibration);
  ASSERT_TRUE(hw.calibration);
  // (1e9 + n_half 1e9) / (100 GFLOP/s x 0.5) = 40 ms: at W = n_half, half of 0.5 x peak.
  LayerTiming t = find_hardware_model("roofline").time_layer(work(OpClass::linear, 1e9, 1e6), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(t.compute_s, 2e9 / 50e9);
  // A class the calibration does not name keeps the pure peak: 1e9 / 100e9.
  LayerTiming u = find_hardware_model("roofline").time_layer(work(OpClass::conv_kxk, 1e9, 1e6), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(u.compute_s, 1e9 / 100e9);
}

// compute 0.5 with shape halves P 25 and K 50: a GEMM of 25 rows per sample and dot
// products of 50 attains 100 GFLOP/s x 0.5 x 25/50 x 50/100 = 12.5 GFLOP/s, so 1 GFLOP
// takes 80 ms; 75 rows and 150 give 0.5 x 0.75 x 0.75 -> 28.125 GFLOP/s, 35.56 ms; a
// layer of the class without a GEMM (0 rows) has no shape term: 1e9 / 50e9 = 20 ms.
TEST(Calibration, ShapeHalvesSlowAGemmByItsRowsAndDotProductLength) {
  const std::string cal = chip_with_class(
      "op_class = \"conv_1x1\"\ndtype = \"fp32\"\ncompute = 0.5\npositions_half = 25\nreduction_half = 50\n");
  HardwareSpec hw = spec_of(cal);
  auto gemm = [](double positions, double reduction) {
    LayerWork w = work(OpClass::conv_1x1, 1e9, 1e3);
    w.gemm_positions = positions;
    w.gemm_reduction = reduction;
    return w;
  };
  const HardwareModel& roofline = find_hardware_model("roofline");
  EXPECT_DOUBLE_EQ(roofline.time_layer(gemm(25, 50), hw, DType::fp32).compute_s, 1e9 / 12.5e9);
  EXPECT_DOUBLE_EQ(roofline.time_layer(gemm(75, 150), hw, DType::fp32).compute_s, 1e9 / 28.125e9);
  EXPECT_DOUBLE_EQ(roofline.time_layer(gemm(0, 0), hw, DType::fp32).compute_s, 1e9 / 50e9);
  EXPECT_DOUBLE_EQ(attainable_flops_per_s(gemm(25, 50), hw, DType::fp32), 12.5e9);
  // The written section keeps the halves and reads back the same.
  HardwareSpec again = spec_of(std::string(kChip) + calibration_toml(*hw.calibration));
  const ClassEfficiency* c = again.calibration->find(OpClass::conv_1x1, DType::fp32);
  ASSERT_NE(c, nullptr);
  EXPECT_DOUBLE_EQ(c->positions_half, 25);
  EXPECT_DOUBLE_EQ(c->reduction_half, 50);
  EXPECT_TRUE(c->overlap);
}

// overlap = false: compute and memory add. 1 GFLOP at 100 GFLOP/s is 10 ms and 1e8 B
// from DRAM at 10 GB/s is 10 ms: 20 ms in all, where the roofline's max gives 10 ms;
// none of the memory time is hidden, and the layer is not memory-bound (a tie).
TEST(Calibration, ComputeAndMemoryAddWhereTheyDoNotOverlap) {
  const std::string cal = chip_with_class("op_class = \"max_pool\"\ndtype = \"fp32\"\noverlap = false\n");
  HardwareSpec hw = spec_of(cal);
  const HardwareModel& roofline = find_hardware_model("roofline");
  LayerTiming t = roofline.time_layer(work(OpClass::max_pool, 1e9, 1e8), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(t.compute_s, 10e-3);
  EXPECT_DOUBLE_EQ(t.memory_s, 10e-3);
  EXPECT_DOUBLE_EQ(t.time_s, 20e-3);
  EXPECT_FALSE(t.memory_bound());
  // Another class keeps the roofline's max: 10 ms.
  EXPECT_DOUBLE_EQ(roofline.time_layer(work(OpClass::elementwise, 1e9, 1e8), hw, DType::fp32).time_s, 10e-3);
  HardwareSpec again = spec_of(std::string(kChip) + calibration_toml(*hw.calibration));
  EXPECT_FALSE(again.calibration->find(OpClass::max_pool, DType::fp32)->overlap);
}

TEST(Calibration, CacheRuleStreamsAWorkingSetThatFitsFromTheCache) {
  HardwareSpec hw = spec_of(std::string(kChip) + kCalibration);
  // 512 KiB fits the 1 MiB cache: 524288 B / (100 GB/s x 0.5) = 10.48576 us, bound there.
  LayerTiming in_cache = find_hardware_model("roofline").time_layer(work(OpClass::elementwise, 1, 524288), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(in_cache.memory_s, 524288 / 50e9);
  EXPECT_EQ(in_cache.bound_level, 1);
  // 2 MiB does not: DRAM, 2097152 B / (10 GB/s x 0.5) = 209.7152 us.
  LayerTiming in_dram = find_hardware_model("roofline").time_layer(work(OpClass::elementwise, 1, 2097152), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(in_dram.memory_s, 2097152 / 5e9);
  EXPECT_EQ(in_dram.bound_level, 0);
}

TEST(MeasuredLayers, AnInPlaceRowIsOneBuffer) {
  // scripts/measure-layers writes in_place = 1 for torch's inplace=True modules.
  auto rows = parse_measured_layers(
      "model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes,seconds,in_place\n"
      "m,relu,elementwise,fp32,100,400,400,0,1e-6,1\nm,bn,normalization,fp32,200,400,400,8,1e-6,0\n",
      "rows.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].work.in_place);
  EXPECT_DOUBLE_EQ(rows[0].work.activation_footprint(), 400);
  EXPECT_FALSE(rows[1].work.in_place);
  EXPECT_DOUBLE_EQ(rows[1].work.activation_footprint(), 800);
}

// A fit that kept no class (each no better than the pure roofline held out) is written as
// a section without classes; it must read back, every class timed as the pure roofline
// (1 GFLOP / 100 GFLOP/s). It did not: `ridge calibrate -o` failed its own read-back check
// with "'class' must be an array of tables" at a line of the file it was about to write
// (found by fuzz_measured; tests/fuzz/regressions/measured/).
TEST(Calibration, ASectionThatKeptNoClassReadsBackAsThePureRoofline) {
  Calibration none;
  none.data = "m.csv";
  none.date = "2026-11-23";
  HardwareSpec hw = spec_of(std::string(kChip) + calibration_toml(none));
  ASSERT_TRUE(hw.calibration);
  EXPECT_TRUE(hw.calibration->classes.empty());
  EXPECT_EQ(hw.calibration->data, "m.csv");
  LayerTiming t = find_hardware_model("roofline").time_layer(work(OpClass::linear, 1e9, 1e6), hw, DType::fp32);
  EXPECT_DOUBLE_EQ(t.compute_s, 1e9 / 100e9);
  // A `class` that is there but not an array of tables is still an error.
  EXPECT_THROW(spec_of(std::string(kChip) + calibration_toml(none) + "class = 1\n"), InputError);
}

// A level the class has no fraction for streams at the nearest named level's attained
// bandwidth, capped by its own.
TEST(Calibration, ALevelWithoutItsOwnFractionBorrowsTheNearestCappedByItsOwn) {
  auto cal = [](const std::string& memory) {
    return std::string(kChip) + "[calibration]\ndata = \"hand-made\"\ndate = \"2026-11-23\"\n[[calibration.class]]\n"
                                "op_class = \"max_pool\"\ndtype = \"fp32\"\nmemory = " + memory + "\n";
  };
  const LayerWork dram_work = work(OpClass::max_pool, 1, 2097152);  // 2 MiB: DRAM serves it
  // Only the cache (100 GB/s) has a fraction, 0.02: 2 GB/s attained there, and DRAM
  // (10 GB/s) takes that, below its own: 2097152 B / 2 GB/s = 1.048576 ms.
  HardwareSpec slow = spec_of(cal("{ cache = 0.02 }"));
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(dram_work, slow, DType::fp32).memory_s, 2097152 / 2e9);
  // Fraction 0.5 there attains 50 GB/s, above DRAM's 10: DRAM keeps its own 10 GB/s.
  HardwareSpec fast = spec_of(cal("{ cache = 0.5 }"));
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(dram_work, fast, DType::fp32).memory_s, 2097152 / 10e9);
  // A level named keeps its own: DRAM 0.25 gives 2.5 GB/s.
  HardwareSpec own = spec_of(cal("{ cache = 0.5, DRAM = 0.25 }"));
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(dram_work, own, DType::fp32).memory_s, 2097152 / 2.5e9);
  // A level the descriptor does not have is a located error with the nearest name.
  try {
    spec_of(cal("{ cahce = 0.5 }"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    // kChip is 13 lines; the class's memory is line 20, and the value 0.5 starts at column 20.
    EXPECT_EQ(to_string(e.where()), "chip.toml:20:20");
    EXPECT_STREQ(e.what(), "calibration class memory: 'cahce' is not a memory level of this descriptor");
    EXPECT_NE(e.hint().find("cache"), std::string::npos) << e.hint();
  }
}

TEST(Calibration, BadSectionsAreLocated) {
  auto message = [](const std::string& text) {
    try {
      spec_of(text);
    } catch (const InputError& e) {
      return to_string(e.where()) + ": " + e.what();
    }
    return std::string("no error");
  };
  std::string bad = std::string(kChip) + kCalibration;
  std::string wrong_class = bad;
  wrong_class.replace(wrong_class.find("\"linear\""), 8, "\"lienar\"");
  EXPECT_NE(message(wrong_class).find("chip.toml:"), std::string::npos);
  EXPECT_NE(message(wrong_class).find("unknown op class 'lienar'"), std::string::npos);
  std::string above_one = bad;
  above_one.replace(above_one.find("compute = 0.5"), 13, "compute = 1.5");
  EXPECT_NE(message(above_one).find("must be a fraction in (0, 1] (got 1.5)"), std::string::npos);
}

// Rows generated from known parameters must give them back.
std::string synthetic_csv(double e, double n_half, double m, int models, int per_model, double noise) {
  std::mt19937 rng(7);
  std::lognormal_distribution<double> size(std::log(1e9), 2.0);
  // A normal distribution needs a positive spread: noise 0 draws none.
  std::normal_distribution<double> jitter(0.0, noise > 0 ? noise : 1.0);
  std::ostringstream out;
  out << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  for (int mi = 0; mi < models; ++mi)
    for (int i = 0; i < per_model; ++i) {
      double flops = size(rng), bytes = flops / (i % 3 == 0 ? 2 : 50);  // some rows memory-bound
      // The chip: 100 GFLOP/s, 10 GB/s DRAM (the working sets here exceed the 1 MiB cache
      // except where they are tiny; those take the cache's 100 GB/s).
      double bw = bytes <= 1048576 ? 100e9 : 10e9;
      double t = std::max((flops + n_half) / (100e9 * e), bytes / (bw * m)) * (noise > 0 ? std::exp(jitter(rng)) : 1.0);
      out << "m" << mi << ",l" << i << ",linear,fp32,1," << flops << "," << bytes << ",0,0," << t << "\n";
    }
  return out.str();
}

TEST(CalibrationFit, RecoversKnownParameters) {
  HardwareSpec hw = spec_of(kChip);
  auto rows = parse_measured_layers(synthetic_csv(0.6, 2e8, 0.7, 4, 40, 0.0), "synthetic.csv");
  CalibrationResult r = fit_calibration(rows, hw, find_hardware_model("roofline"), {});
  const ClassEfficiency& c = r.calibration.classes.at({OpClass::linear, DType::fp32, ""});
  EXPECT_NEAR(c.compute, 0.6, 0.006);
  EXPECT_NEAR(c.n_half_flops, 2e8, 2e7);
  // The DRAM rows bind (the cache's rows here are all compute-bound: with n_half = 2e8
  // FLOPs no working set under 1 MiB is slower to stream than to compute, so the cache's
  // fraction is unknown and left at 1).
  EXPECT_NEAR(c.memory_by_level.at("DRAM"), 0.7, 0.007);
  EXPECT_DOUBLE_EQ(c.memory_by_level.at("cache"), 1.0);
  EXPECT_LT(c.median_error_after, 0.01);
  EXPECT_GT(c.median_error_before, 0.3);  // the pure roofline is far off these rows
}

// Memory-bound rows (1 FLOP per 100 B) at both levels of the chip, generated with
// fraction 0.6 of DRAM's 10 GB/s and 0.9 of the cache's 100 GB/s: each level's
// fraction comes back.
TEST(CalibrationFit, RecoversAMemoryFractionPerLevel) {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  for (int i = 0; i < 24; ++i) {
    const bool cached = i % 2 == 0;
    const double bytes = cached ? 65536.0 * (1 + i % 8) : 2097152.0 * (1 + i % 16);  // <= 512 KiB, or >= 2 MiB
    const double seconds = bytes / (cached ? 100e9 * 0.9 : 10e9 * 0.6);
    csv << "m" << i % 3 << ",l" << i << ",elementwise,fp32,1," << bytes / 100 << "," << bytes << ",0,0," << seconds << "\n";
  }
  auto rows = parse_measured_layers(csv.str(), "levels.csv");
  CalibrationResult r = fit_calibration(rows, spec_of(kChip), find_hardware_model("roofline"), {});
  const ClassEfficiency& c = r.calibration.classes.at({OpClass::elementwise, DType::fp32, ""});
  EXPECT_NEAR(c.memory_by_level.at("DRAM"), 0.6, 0.006);
  EXPECT_NEAR(c.memory_by_level.at("cache"), 0.9, 0.009);
}

// Compute-bound GEMM rows generated with e = 0.8, n_half = 1e6 FLOPs and shape halves
// P 30 and K 60 (rows 4 to 3136, dot products 8 to 2048): the halves come back.
TEST(CalibrationFit, RecoversGemmShapeHalves) {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds,positions,reduction\n";
  const double positions[] = {4, 16, 49, 196, 784, 3136}, reduction[] = {8, 32, 128, 512, 2048};
  int n = 0;
  for (double p : positions)
    for (double k : reduction) {
      const double flops = 2 * p * k * 64 * (1 + n % 3);  // 64 to 192 output channels
      const double seconds = (flops + 1e6) / (100e9 * 0.8) * (1 + 30 / p) * (1 + 60 / k);
      csv << "m" << n % 4 << ",l" << n << ",conv_1x1,fp32,1," << flops << ",1,1,1," << seconds << "," << p << "," << k << "\n";
      ++n;
    }
  auto rows = parse_measured_layers(csv.str(), "gemms.csv");
  CalibrationResult r = fit_calibration(rows, spec_of(kChip), find_hardware_model("roofline"), {});
  const ClassEfficiency& c = r.calibration.classes.at({OpClass::conv_1x1, DType::fp32, ""});
  EXPECT_NEAR(c.compute, 0.8, 0.008);
  EXPECT_NEAR(c.n_half_flops, 1e6, 1e5);
  EXPECT_NEAR(c.positions_half, 30, 0.3);
  EXPECT_NEAR(c.reduction_half, 60, 0.6);
  EXPECT_TRUE(c.overlap);
}

// Rows generated as compute + memory (e = 0.5 of 100 GFLOP/s, DRAM at 0.25 of 10 GB/s),
// with compute from a third to three times the memory time: the fit finds that they add.
TEST(CalibrationFit, FindsComputeAndMemoryThatAdd) {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  for (int i = 0; i < 24; ++i) {
    const double bytes = 2097152.0 * (1 + i % 8), flops = bytes * (0.6 + 0.4 * (i % 6));
    const double seconds = flops / 50e9 + bytes / 2.5e9;
    csv << "m" << i % 3 << ",l" << i << ",max_pool,fp32,1," << flops << "," << bytes << ",0,0," << seconds << "\n";
  }
  auto rows = parse_measured_layers(csv.str(), "pools.csv");
  CalibrationResult r = fit_calibration(rows, spec_of(kChip), find_hardware_model("roofline"), {});
  const ClassEfficiency& c = r.calibration.classes.at({OpClass::max_pool, DType::fp32, ""});
  EXPECT_FALSE(c.overlap);
  EXPECT_NEAR(c.compute, 0.5, 0.005);
  EXPECT_NEAR(c.memory_by_level.at("DRAM"), 0.25, 0.0025);
  EXPECT_LT(c.median_error_after, 0.001);
}

TEST(CalibrationFit, OutliersDoNotPullTheFit) {
  HardwareSpec hw = spec_of(kChip);
  std::string text = synthetic_csv(0.6, 2e8, 0.7, 4, 40, 0.0);
  // Ten rows measured 5x too slow (a noisy neighbour): Huber weights keep e near 0.6.
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  for (int n = 0; std::getline(in, line); ++n) {
    if (n > 0 && n % 16 == 0) {
      size_t comma = line.rfind(',');
      line = line.substr(0, comma + 1) + std::to_string(std::stod(line.substr(comma + 1)) * 5);
    }
    out << line << "\n";
  }
  auto rows = parse_measured_layers(out.str(), "outliers.csv");
  CalibrationResult r = fit_calibration(rows, hw, find_hardware_model("roofline"), {});
  EXPECT_NEAR(r.calibration.classes.at({OpClass::linear, DType::fp32, ""}).compute, 0.6, 0.03);
}

TEST(CalibrationFit, TooFewRowsForAClassIsALocatedError) {
  HardwareSpec hw = spec_of(kChip);
  std::string text = synthetic_csv(0.6, 2e8, 0.7, 2, 5, 0.0) + "m0,p1,max_pool,fp32,1,100,100,0,0,1e-6\nm1,p2,max_pool,fp32,1,100,100,0,0,1e-6\n";
  auto rows = parse_measured_layers(text, "few.csv");
  try {
    fit_calibration(rows, hw, find_hardware_model("roofline"), {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(to_string(e.where()), "few.csv:12:1");
    EXPECT_STREQ(e.what(), "op class 'max_pool' (fp32) has 2 measured row(s); fitting its 3 efficiency parameters needs at least 3");
  }
}

TEST(MeasuredLayers, BadRowsAreLocated) {
  auto error = [](const std::string& text) {
    try {
      parse_measured_layers(text, "m.csv");
    } catch (const InputError& e) {
      return to_string(e.where()) + ": " + e.what();
    }
    return std::string("no error");
  };
  const std::string header = "model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  EXPECT_EQ(error(header + "a,b,linear,fp32,10,1,1,1,-2e-3\n"), "m.csv:2:26: column 'seconds' must be greater than zero (got -2e-3)");
  EXPECT_EQ(error("model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes\n"),
            "m.csv:1:1: missing column 'seconds' in the header");
  EXPECT_EQ(error(header + "a,b,linaer,fp32,10,1,1,1,1\n"), "m.csv:2:5: unknown op class 'linaer'");
  EXPECT_EQ(error(header + "a,b,linear,fp32,ten,1,1,1,1\n"), "m.csv:2:17: column 'flops' must be a number (got 'ten')");
  EXPECT_EQ(error("# only a comment\n"), "m.csv: no header line");
  EXPECT_EQ(error("model,layer,op_class,dtype,flops,bytes,seconds,positions\na,b,linear,fp32,10,1,1,2.5\n"),
            "m.csv:2:24: column 'positions' must be a whole number (got 2.5)");
  EXPECT_EQ(error("model,layer,op_class,dtype,flops,bytes,seconds,reduction\na,b,linear,fp32,10,1,1,-3\n"),
            "m.csv:2:24: column 'reduction' must be non-negative (got -3)");
}

TEST(MeasuredLayers, AnotherTimeColumnIsReadInsteadOfSeconds) {
  const std::string text =
      "model,layer,op_class,dtype,flops,bytes,seconds,min_seconds\na,b,linear,fp32,10,1,3e-3,2e-3\n";
  EXPECT_DOUBLE_EQ(parse_measured_layers(text, "m.csv").at(0).seconds, 3e-3);
  EXPECT_DOUBLE_EQ(parse_measured_layers(text, "m.csv", "min_seconds").at(0).seconds, 2e-3);
  try {
    parse_measured_layers(text, "m.csv", "best_seconds");
    ADD_FAILURE() << "a missing time column must be an error";
  } catch (const InputError& e) {
    EXPECT_EQ(to_string(e.where()) + ": " + e.what(), "m.csv:1:1: missing column 'best_seconds' in the header");
  }
}

// The ridge point and available bandwidth a report gives a calibrated layer are its
// class's, as its timing's are, not the descriptor's global [efficiency].
TEST(Calibration, RidgePointAndBandwidthAreTheCalibratedClasss) {
  // AlexNet fc6 at batch 1, fp32: W = 2 x 9216 x 4096 = 75,497,472 FLOPs (the bias add is
  // not timed); bytes = (9,216 in + 4,096 out + 37,752,832 weights) x 4 = 151,064,576, far
  // more than the 6 MiB L2, so HBM2 serves them. configs/hw/v100-calibrated.toml, linear
  // fp32 (a shared-term fit: no shape halves): compute 0.848758, n_half 1.35095e8 FLOPs,
  // memory 0.682275 of HBM2; V100 fp32 15.7 TFLOP/s, HBM2 900 GB/s.
  const double w = 75'497'472, bytes = 151'064'576;
  const double rate = 15.7e12 * 0.848758 * w / (w + 1.35095e8);  // 4.778 TFLOP/s
  const double bandwidth = 900e9 * 0.682275;                     // 614.0 GB/s
  auto r = ridge_test::run_ridge("query alexnet --hw v100-calibrated --layer fc6 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["available_bandwidth_Bps"].get<double>(), bandwidth, 1e-9 * bandwidth);
  EXPECT_NEAR(j["ridge_point"].get<double>(), rate / bandwidth, 1e-6 * rate / bandwidth);  // 7.78 FLOP/B
  // Its timing agrees: compute time / memory time = intensity / ridge point.
  EXPECT_NEAR(j["compute_time_s"].get<double>(), w / rate, 1e-6 * w / rate);
  EXPECT_NEAR(j["memory_time_s"].get<double>(), bytes / bandwidth, 1e-9 * bytes / bandwidth);
  // The uncalibrated v100 keeps the device's: 15.7 TFLOP/s / 900 GB/s = 17.44 FLOP/B.
  auto pure = ridge_test::run_ridge("query alexnet --hw v100 --layer fc6 --format json");
  ASSERT_EQ(pure.status, 0) << pure.err;
  EXPECT_NEAR(nlohmann::json::parse(pure.out)["ridge_point"].get<double>(), 15.7e12 / 900e9, 1e-9);
}

// A layer whose class's compute and traffic add: `query` says so, and its time is the
// sum. AlexNet's pool1 (3 x 3 max pooling, stride 2, 96 x 55 x 55 -> 96 x 27 x 27): 8
// compares per output, 559,872 FLOPs, 5.59872 us at 100 GFLOP/s; 1,161,600 B in and
// 279,936 B out, more than the 1 MiB cache, so DRAM's 10 GB/s: 144.1536 us. Together
// 149.75232 us (the test chip has no launch overhead).
TEST(CalibrateCli, AQueryOfALayerWhoseComputeAndTrafficAddSaysSo) {
  namespace fs = std::filesystem;
  ridge_test::TempDir temp;  // a fixed /tmp name was shared with concurrent runs of the suite
  const fs::path dir = temp.path();
  std::ofstream(dir / "chip.toml") << chip_with_class("op_class = \"max_pool\"\ndtype = \"fp32\"\noverlap = false\n");
  const std::string query = "query alexnet --hw " + (dir / "chip.toml").string() + " --layer pool1";
  auto text = ridge_test::run_ridge(query);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("compute and traffic do not overlap (calibrated), so they add"), std::string::npos) << text.out;
  auto json = ridge_test::run_ridge(query + " --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_NEAR(j["compute_time_s"].get<double>(), 5.59872e-6, 1e-15);
  EXPECT_NEAR(j["memory_time_s"].get<double>(), 144.1536e-6, 1e-15);
  EXPECT_NEAR(j["time_s"].get<double>(), 149.75232e-6, 1e-15);
  // The report header says which classes add.
  auto analyze = ridge_test::run_ridge("analyze alexnet --hw " + (dir / "chip.toml").string());
  ASSERT_EQ(analyze.status, 0) << analyze.err;
  EXPECT_NE(analyze.out.find("time: max(compute, memory) (compute + memory for max_pool: calibrated, they do not overlap)"),
            std::string::npos);
}

TEST(CalibrateCli, WritesADescriptorThatReadsBackAndSaysItIsCalibrated) {
  namespace fs = std::filesystem;
  ridge_test::TempDir temp;
  const fs::path dir = temp.path();
  std::ofstream(dir / "chip.toml") << kChip;
  std::ofstream(dir / "m.csv") << synthetic_csv(0.6, 2e8, 0.7, 3, 20, 0.02);
  auto r = ridge_test::run_ridge("calibrate " + (dir / "m.csv").string() + " --hw " + (dir / "chip.toml").string() +
                                 " --output " + (dir / "out.toml").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("linear"), std::string::npos);
  HardwareSpec hw = HardwareDescriptor::read_file((dir / "out.toml").string(), "out").spec();
  ASSERT_TRUE(hw.calibration);
  EXPECT_EQ(hw.calibration->data, "m.csv");
  EXPECT_NEAR(hw.calibration->classes.at({OpClass::linear, DType::fp32, ""}).compute, 0.6, 0.05);
  // Reports say the hardware is calibrated; --efficiency none drops it.
  auto a = ridge_test::run_ridge("analyze mlp --hw " + (dir / "out.toml").string());
  EXPECT_NE(a.out.find("calibrated ("), std::string::npos) << a.out;
  auto b = ridge_test::run_ridge("analyze mlp --efficiency none --hw " + (dir / "out.toml").string());
  EXPECT_EQ(b.out.find("calibrated ("), std::string::npos);
  // A negative time: located error, exit 2, no output written.
  std::ofstream(dir / "bad.csv") << "model,layer,op_class,dtype,flops,bytes,seconds\nm,l,linear,fp32,1e9,1e6,-1\n";
  fs::remove(dir / "bad.toml");
  auto bad = ridge_test::run_ridge("calibrate " + (dir / "bad.csv").string() + " --hw " + (dir / "chip.toml").string() +
                                   " --output " + (dir / "bad.toml").string());
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.csv:2:25: column 'seconds' must be greater than zero (got -1)"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "bad.toml"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ridge
