// `ridge calibrate --fit-peaks`: roofs the measured layers beat are raised to the best
// rate a layer attained, each held-out fold's from its own training rows, and written to
// [calibration.peaks] / [calibration.bandwidths], which reading applies and
// `--efficiency none` undoes. Expected values are worked by hand from the generated rows.
#include <gtest/gtest.h>

#include <sstream>

#include "hw/descriptor_reader.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "tests/test_chips.hpp"

namespace ridge {
namespace {

// 100 GFLOP/s fp32, DRAM 10 GB/s (and a 1 MiB cache no row fits in): the descriptor the
// rows beat.
constexpr const char* kChip = test::kCalibrationChip;

HardwareSpec chip() { return HardwareDescriptor::from_text(kChip, "chip.toml", "chip").spec(); }

// Compute-bound linear rows (100 FLOP per byte, 4 models x 6) at 120 GFLOP/s, except
// model m3's first row at 150 GFLOP/s.
std::vector<MeasuredLayer> fast_compute_rows() {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  for (int m = 0; m < 4; ++m)
    for (int i = 0; i < 6; ++i) {
      const double flops = 1e9 * (1 + i), rate = m == 3 && i == 0 ? 150e9 : 120e9;
      csv << "m" << m << ",l" << i << ",linear,fp32,1," << flops << "," << flops / 100 << ",0,0," << flops / rate << "\n";
    }
  return parse_measured_layers(csv.str(), "fast.csv");
}

CalibrationResult fit(const std::vector<MeasuredLayer>& rows, bool fit_peaks) {
  CalibrationOptions options;
  options.fit_peaks = fit_peaks;
  return fit_calibration(rows, chip(), find_hardware_model("roofline"), options);
}

TEST(FittedRoofs, WithoutFitPeaksAFasterMachineCannotBeFitted) {
  auto rows = fast_compute_rows();
  CalibrationResult r = fit(rows, false);
  EXPECT_TRUE(r.calibration.peaks.empty());
  // e stays <= 1: every 120 GFLOP/s row is predicted at 100, 20 % slow (and held out no
  // better than pure, so the class is not even kept).
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_GE(r.rows[i].fitted_s / rows[i].seconds - 1, 0.2 - 1e-4);
  EXPECT_TRUE(r.dropped.count({OpClass::linear, DType::fp32, ""}));
}

TEST(FittedRoofs, ThePeakBecomesTheBestAttainedRateAndHeldOutFoldsUseTheirOwn) {
  auto rows = fast_compute_rows();
  CalibrationResult r = fit(rows, true);
  // m3's first row (the CSV's seconds carry 6 significant digits)
  EXPECT_NEAR(r.calibration.peaks.at(DType::fp32), 150e9, 150e9 * 1e-5);
  EXPECT_TRUE(r.calibration.bandwidths.empty());  // no row streams faster than 10 GB/s
  // Held out, m3's 150 GFLOP/s row is predicted from m0-m2, whose best is 120 GFLOP/s:
  // 1e9 FLOPs / 120e9 (1.25 x its measured 1e9 / 150e9), with compute efficiency 1
  // (every training row attains the training peak).
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].model == "m3" && rows[i].layer == "l0") {
      EXPECT_NEAR(r.rows[i].held_out_s, 1e9 / 120e9, 1e-5 / 120);
    }
  }
  // Held out, m0's rows are predicted against its fold's peak, 150 GFLOP/s (m3 trains
  // it): never faster than that peak allows.
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].model == "m0") {
      EXPECT_GE(r.rows[i].held_out_s, rows[i].work.flops / 150e9 * (1 - 1e-5));
    }
  }
}

TEST(FittedRoofs, EachRowIsCheckedAgainstTheRoofsOfTheOtherModels) {
  auto rows = fast_compute_rows();
  CalibrationResult r = fit(rows, true);
  const double launch = chip().kernel_launch_s;
  for (size_t i = 0; i < rows.size(); ++i) {
    // m3's fold trains on m0-m2, whose best is 120 GFLOP/s: m3's 150 GFLOP/s row beats
    // that roofline (1e9 / 120e9 + launch), which is what the column is for; m0-m2's
    // folds have m3's 150 GFLOP/s, a bound on all their rows.
    const double peak = rows[i].model == "m3" ? 120e9 : 150e9;
    EXPECT_NEAR(r.rows[i].held_out_roofline_s, rows[i].work.flops / peak + launch, rows[i].work.flops / peak * 1e-5)
        << rows[i].model << " " << rows[i].layer;
    const bool beaten = rows[i].seconds < r.rows[i].held_out_roofline_s;
    EXPECT_EQ(beaten, rows[i].model == "m3" && rows[i].layer == "l0") << rows[i].model << " " << rows[i].layer;
  }
  // Without --fit-peaks the column is the pure roofline.
  CalibrationResult plain = fit(rows, false);
  for (const RowPrediction& p : plain.rows) EXPECT_EQ(p.held_out_roofline_s, p.pure_s);
}

TEST(FittedRoofs, ABandwidthTheRowsBeatIsRaised) {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  for (int i = 0; i < 8; ++i) {  // 1 FLOP per 100 B, 2-16 MiB streamed at 15 GB/s
    const double bytes = 2097152.0 * (1 + i);
    csv << "m" << i % 2 << ",l" << i << ",elementwise,fp32,1," << bytes / 100 << "," << bytes << ",0,0," << bytes / 15e9 << "\n";
  }
  CalibrationResult r = fit(parse_measured_layers(csv.str(), "stream.csv"), true);
  EXPECT_NEAR(r.calibration.bandwidths.at("DRAM"), 15e9, 15e9 * 1e-5);  // 6-digit seconds
  EXPECT_LT(r.calibration.classes.at({OpClass::elementwise, DType::fp32, ""}).median_error_held_out, 1e-5);
}

// The chip with fitted roofs 150 GFLOP/s (over its 100) and 15 GB/s (over its 10).
HardwareDescriptor calibrated_chip() {
  Calibration c;
  c.data = "hand-made";
  c.date = "2026-11-26";
  c.peaks[DType::fp32] = 150e9;
  c.bandwidths["DRAM"] = 15e9;
  return HardwareDescriptor::from_text(std::string(kChip) + "\n" + calibration_toml(c), "cal.toml", "cal");
}

TEST(FittedRoofs, TheDescriptorAppliesThemAndEfficiencyNoneRestoresItsOwn) {
  HardwareSpec hw = calibrated_chip().spec();
  EXPECT_DOUBLE_EQ(*hw.peak(DType::fp32), 150e9);  // written as "150.00 GFLOPS"
  EXPECT_DOUBLE_EQ(hw.dram().bandwidth_Bps, 15e9);
  hw.drop_efficiency();
  EXPECT_DOUBLE_EQ(*hw.peak(DType::fp32), 100e9);
  EXPECT_DOUBLE_EQ(hw.dram().bandwidth_Bps, 10e9);
}

// A what-if on a calibrated descriptor: --set compute.fp32 scales the fitted peak by the
// same factor (it was measured as a ratio to the datasheet figure), a --set of the fitted
// roof itself is taken as written.
TEST(FittedRoofs, AnOverrideOfTheDescriptorsFigureScalesItsFittedRoof) {
  const HardwareDescriptor cal = calibrated_chip();
  auto with = [&](std::vector<std::string> sets) {
    std::vector<HardwareOverride> o;
    for (const std::string& s : sets) o.push_back(parse_override(s));
    return cal.spec(o);
  };
  // twice the datasheet peak: 150 x 200 / 100 = 300 GFLOP/s; DRAM untouched
  HardwareSpec twice = with({"compute.fp32=200 GFLOPS"});
  EXPECT_DOUBLE_EQ(*twice.peak(DType::fp32), 300e9);
  EXPECT_DOUBLE_EQ(twice.dram().bandwidth_Bps, 15e9);
  // the file's own figure again: nothing changes
  EXPECT_DOUBLE_EQ(*with({"compute.fp32=100 GFLOPS"}).peak(DType::fp32), 150e9);
  // DRAM at 20 GB/s: 15 x 20 / 10 = 30 GB/s
  EXPECT_DOUBLE_EQ(with({"memory.DRAM.bandwidth=20 GB/s"}).dram().bandwidth_Bps, 30e9);
  // the fitted peak set itself wins, with or without a new datasheet figure
  EXPECT_DOUBLE_EQ(*with({"calibration.peaks.fp32=180 GFLOPS"}).peak(DType::fp32), 180e9);
  EXPECT_DOUBLE_EQ(*with({"compute.fp32=200 GFLOPS", "calibration.peaks.fp32=180 GFLOPS"}).peak(DType::fp32), 180e9);
  // --efficiency none: the overridden datasheet figure
  twice.drop_efficiency();
  EXPECT_DOUBLE_EQ(*twice.peak(DType::fp32), 200e9);
}

TEST(FittedRoofs, AFittedPeakForADtypeWithoutOneIsALocatedError) {
  const std::string text = std::string(kChip) + "\n[calibration]\ndata = \"x\"\ndate = \"2026-11-26\"\n[calibration.peaks]\nfp64 = \"1 GFLOPS\"\n";
  try {
    HardwareDescriptor::from_text(text, "cal.toml", "cal").spec();
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fp64 peak, but [compute] has none"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ridge
