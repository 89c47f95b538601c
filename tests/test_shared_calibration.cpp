// `ridge calibrate --shared` (sim/engine/shared_calibration_fit.hpp): the fit recovers
// parameters rows were generated with by hand, and the descriptor it writes predicts
// what the fit predicted.
#include <gtest/gtest.h>

#include <sstream>

#include "hw/descriptor_reader.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "tests/test_chips.hpp"

namespace ridge {
namespace {

// The calibration chip (100 GFLOP/s fp32; DRAM 10 GB/s; a 1 MiB cache at 100 GB/s; no
// kernel_launch). Rows of two classes generated as
//   t0 + max((F + n_half) / (100e9 x e_c), B / (bandwidth x m))
// with t0 = 8 us, n_half = 1e6 FLOPs and m = 0.6 shared, e_c 0.8 (linear) and 0.5
// (conv_1x1); FLOPs 1e5 to 5e9, 1 to 100 FLOPs per byte, so some rows are memory-bound,
// some in the cache, and the small ones mostly t0.
std::string shared_rows() {
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds\n";
  const double sizes[] = {1e5, 1e6, 1e7, 1e8, 1e9, 5e9}, intensities[] = {1, 10, 100};
  int n = 0;
  for (const char* op : {"linear", "conv_1x1"})
    for (double flops : sizes)
      for (double intensity : intensities) {
        const double e = std::string(op) == "linear" ? 0.8 : 0.5;
        const double bytes = flops / intensity, bandwidth = bytes <= 1048576 ? 100e9 : 10e9;
        const double seconds = 8e-6 + std::max((flops + 1e6) / (100e9 * e), bytes / (bandwidth * 0.6));
        csv << "m" << n % 3 << ",l" << n << "," << op << ",fp32,1," << flops << "," << bytes << ",0,0," << seconds << "\n";
        ++n;
      }
  return csv.str();
}

TEST(SharedCalibration, RecoversTheSharedAndPerClassTerms) {
  const HardwareSpec hw = HardwareDescriptor::from_text(test::kCalibrationChip, "chip.toml", "chip").spec();
  const auto rows = parse_measured_layers(shared_rows(), "shared.csv");
  CalibrationOptions options;
  options.shared = true;
  const CalibrationResult r = fit_calibration(rows, hw, find_hardware_model("roofline"), options);
  EXPECT_NEAR(r.calibration.kernel_time_s, 8e-6, 8e-8);
  for (const auto& [op, e] : {std::pair{OpClass::linear, 0.8}, std::pair{OpClass::conv_1x1, 0.5}}) {
    const ClassEfficiency& c = r.calibration.classes.at({op, DType::fp32, ""});
    EXPECT_NEAR(c.compute, e, e / 100);
    EXPECT_NEAR(c.n_half_flops, 1e6, 1e5);
    EXPECT_NEAR(c.memory_by_level.at("DRAM"), 0.6, 0.006);
    EXPECT_NEAR(c.memory_by_level.at("cache"), 0.6, 0.006);
    EXPECT_LT(c.median_error_held_out, 0.01);
  }
}

// The descriptor `ridge calibrate --shared --output` writes (the chip plus the
// calibration's TOML) times each row as the fit did: the kernel time replaces the
// descriptor's kernel_launch (5 us here) for the calibrated classes.
TEST(SharedCalibration, TheWrittenDescriptorPredictsTheFit) {
  const std::string chip = std::string(test::kCalibrationChip) + "[overhead]\nkernel_launch = \"5 us\"\n";
  const HardwareSpec hw = HardwareDescriptor::from_text(chip, "chip.toml", "chip").spec();
  const auto rows = parse_measured_layers(shared_rows(), "shared.csv");
  CalibrationOptions options;
  options.shared = true;
  options.data = "hand-made";
  const CalibrationResult r = fit_calibration(rows, hw, find_hardware_model("roofline"), options);
  const HardwareSpec calibrated =
      HardwareDescriptor::from_text(chip + calibration_toml(r.calibration), "cal.toml", "cal").spec();
  EXPECT_NEAR(calibrated.calibration->kernel_time_s, r.calibration.kernel_time_s, 1e-9);  // written in us, 3 decimals
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_NEAR(find_hardware_model("roofline").time_layer(rows[i].work, calibrated, rows[i].dtype).time_s / r.rows[i].fitted_s,
                1.0, 1e-4)
        << rows[i].layer;
}

}  // namespace
}  // namespace ridge
