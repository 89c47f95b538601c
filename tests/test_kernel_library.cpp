// The kernel-library rule of a descriptor's [library] (hw/kernel_library.hpp) against
// PyTorch 1.13's own conditions (aten/src/ATen/native/Convolution.cpp,
// ConvParams::use_mkldnn, v1.13.1), worked by hand for layers of torchvision's models
// whose library torch.profiler recorded on the development VM (aten::mkldnn_convolution
// or aten::_slow_conv2d_forward); and a calibration with a class per (op class, library).
#include <gtest/gtest.h>

#include <sstream>

#include "hw/attainable_rates.hpp"
#include "hw/descriptor_reader.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/kernel_library.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "sim/views/hardware_view.hpp"
#include "tests/test_chips.hpp"

namespace ridge {
namespace {

// PyTorch 1.13 with one thread: use_mkldnn is false for a 1 x 1, unstrided convolution
// below batch 16 ("THNN is faster when single-threaded"), and for one of batch 1, one
// group, no kernel side above 3 and at most 20,480 input elements ("native is faster").
constexpr const char* kPyTorch113 = R"(
[library]
framework = "PyTorch 1.13.1, CPU, 1 thread"
source = "aten/src/ATen/native/Convolution.cpp, ConvParams::use_mkldnn"
convolution = "onednn"
fallback = "blas"
linear = "blas"
fallback_pointwise_below_batch = 16
fallback_small_input_elements = 20480
fallback_small_kernel_side = 3
)";

KernelLibrary pytorch_rule() {
  return HardwareDescriptor::from_text(std::string(test::kCalibrationChip) + kPyTorch113, "chip.toml", "chip").spec().library.value();
}

// A convolution of `batch` samples and `input_elements` input elements in all.
LayerWork conv(OpClass c, double batch, double input_elements, int64_t stride, int64_t kernel_side, int64_t groups) {
  LayerWork w;
  w.op_class = c;
  w.batch = batch;
  w.input_elements = input_elements;
  w.conv = {stride, kernel_side, groups};
  return w;
}

TEST(KernelLibrary, PyTorchsConvolutionDispatchWorkedByHand) {
  const KernelLibrary rule = pytorch_rule();
  // mobilenet_v2 features.2.conv.2 (1 x 1, stride 1, 96 x 56 x 56 in) at batch 1 and 8:
  // 1 x 1 unstrided below batch 16, so the fallback (profiled: _slow_conv2d_forward).
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 1, 96 * 56 * 56, 1, 1, 1), rule), "blas");
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 8, 8 * 96 * 56 * 56, 1, 1, 1), rule), "blas");
  // At batch 16 the first condition no longer holds, and batch > 1 the second: oneDNN.
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 16, 16 * 96 * 56 * 56, 1, 1, 1), rule), "onednn");
  // resnet18 layer2.0.downsample.0 (1 x 1, stride 2, 64 x 56 x 56 = 200,704 in) at batch 1:
  // strided, and above 20,480 elements: oneDNN (profiled: mkldnn_convolution).
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 1, 200704, 2, 1, 1), rule), "onednn");
  // squeezenet1_1 features.9.expand3x3 (3 x 3, 48 x 13 x 13 = 8,112 in): at batch 1 it is
  // small (the fallback, profiled), at batch 8 (64,896 in) oneDNN (profiled).
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 1, 8112, 1, 3, 1), rule), "blas");
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 8, 64896, 1, 3, 1), rule), "onednn");
  // The bound: at most 20,480 input elements falls back, 20,481 does not.
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 1, 20480, 1, 3, 1), rule), "blas");
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 1, 20481, 1, 3, 1), rule), "onednn");
  // A 5 x 5 kernel (both sides above 3) on a small input, and a grouped (depthwise) 3 x 3
  // one: oneDNN; a 1 x 5 kernel has a side of 1, so it falls back.
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 1, 4096, 1, 5, 1), rule), "onednn");
  EXPECT_EQ(library_of(conv(OpClass::depthwise, 1, 4096, 1, 3, 64), rule), "onednn");
  EXPECT_EQ(library_of(conv(OpClass::conv_kxk, 1, 4096, 1, 1, 1), rule), "blas");
  // Linear layers run in BLAS (addmm); other classes in their own kernels ("").
  LayerWork fc;
  fc.op_class = OpClass::linear;
  EXPECT_EQ(library_of(fc, rule), "blas");
  fc.op_class = OpClass::max_pool;
  EXPECT_EQ(library_of(fc, rule), "");
}

TEST(KernelLibrary, WithMoreThreadsOnlyTheSmallInputRuleRemains) {
  KernelLibrary rule = pytorch_rule();
  rule.fallback_pointwise_below_batch = 0;  // PyTorch takes the 1 x 1 rule with one thread only
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 1, 200704, 1, 1, 1), rule), "onednn");
  EXPECT_EQ(library_of(conv(OpClass::conv_1x1, 1, 8112, 1, 1, 1), rule), "blas");
}

// kChip (100 GFLOP/s) with PyTorch's rule, calibrated with conv_1x1 at 0.8 of its peak in
// oneDNN and 0.05 in BLAS.
std::string two_library_chip() {
  return std::string(test::kCalibrationChip) + kPyTorch113 + R"(
[calibration]
data = "hand-made"
date = "2026-11-26"
[[calibration.class]]
op_class = "conv_1x1"
dtype = "fp32"
library = "onednn"
compute = 0.8
[[calibration.class]]
op_class = "conv_1x1"
dtype = "fp32"
library = "blas"
compute = 0.05
)";
}

// A 1 GFLOP 1 x 1 convolution takes 1e9 / (100e9 x 0.05) = 200 ms at batch 1 (BLAS),
// 1e9 / 80e9 = 12.5 ms at batch 16 (oneDNN).
TEST(KernelLibrary, ACalibrationTimesEachLayerByItsLibrarysClass) {
  const std::string text = two_library_chip();
  const HardwareSpec hw = HardwareDescriptor::from_text(text, "chip.toml", "chip").spec();
  LayerWork w = conv(OpClass::conv_1x1, 1, 1000, 1, 1, 1);
  w.flops = 1e9;
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(w, hw, DType::fp32).compute_s, 1e9 / 5e9);
  w.batch = 16;
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(w, hw, DType::fp32).compute_s, 1e9 / 80e9);
  // Written back, each class keeps its library.
  const std::string written = calibration_toml(*hw.calibration);
  EXPECT_NE(written.find("library = \"blas\""), std::string::npos);
  EXPECT_NE(written.find("library = \"onednn\""), std::string::npos);
}

// The report header counts the calibration's classes and says what one is: 2 here (conv_1x1
// in oneDNN and in BLAS, one op class), and 6 in v100-calibrated (conv_kxk, conv_1x1 and
// linear, each fp32 and fp16: its six [[calibration.class]] entries). It said "2 op classes".
TEST(KernelLibrary, ReportHeaderSaysWhatACalibratedClassIs) {
  const HardwareContext chip{HardwareDescriptor::from_text(two_library_chip(), "chip.toml", "chip").spec(), "roofline", 100e9, {}};
  EXPECT_NE(hardware_line(chip, DType::fp32).find("calibrated (2 fitted classes, one per op class, dtype and library, hand-made"),
            std::string::npos)
      << hardware_line(chip, DType::fp32);
  const HardwareContext v100{load_hardware("v100-calibrated"), "roofline", 15.7e12, {}};
  EXPECT_NE(hardware_line(v100, DType::fp32).find("calibrated (6 fitted classes, one per op class and dtype, "),
            std::string::npos)
      << hardware_line(v100, DType::fp32);
}

// Measured 1 x 1 convolutions, compute-bound, at 0.8 of the peak at batch 16 and 0.04 at
// batch 1: with the rule, `ridge calibrate` fits a class per library and recovers both.
TEST(KernelLibrary, CalibrateFitsAClassPerLibrary) {
  const HardwareSpec hw =
      HardwareDescriptor::from_text(std::string(test::kCalibrationChip) + kPyTorch113, "chip.toml", "chip").spec();
  std::ostringstream csv;
  csv << "model,layer,op_class,dtype,batch,flops,input_bytes,output_bytes,weight_bytes,seconds,stride,groups,kernel_side\n";
  for (int i = 0; i < 8; ++i) {
    const double flops = 1e9 * (1 + i);
    for (int batch : {1, 16}) {
      const double seconds = flops / (100e9 * (batch == 1 ? 0.04 : 0.8));
      csv << "m" << i % 4 << ",c" << i << ",conv_1x1,fp32," << batch << ',' << flops << ",4000,4000,4000," << seconds
          << ",1,1,1\n";
    }
  }
  const auto rows = parse_measured_layers(csv.str(), "measured.csv");
  const CalibrationResult r = fit_calibration(rows, hw, find_hardware_model("roofline"), {});
  ASSERT_EQ(r.calibration.classes.size(), 2u);
  EXPECT_NEAR(r.calibration.classes.at({OpClass::conv_1x1, DType::fp32, "blas"}).compute, 0.04, 0.002);
  EXPECT_NEAR(r.calibration.classes.at({OpClass::conv_1x1, DType::fp32, "onednn"}).compute, 0.8, 0.04);
}

}  // namespace
}  // namespace ridge
