// A descriptor's [conv_algorithms] rule (hw/conv_algorithms.hpp), worked by hand: a 3 x 3
// convolution timed at Winograd F(2x2, 3x3)'s multiplies (16 per 36 of the direct count,
// Lavin and Gray 2016), a strided one at the direct count, an fp16 convolution with 3
// input channels padded to 8 for the tensor cores (cuDNN 7.3.0 release notes: C and K
// padded to multiples of 8), fp16 output channels in whole 64-wide tiles, an fp32 1 x 1
// convolution timed as the GEMM of its shape (the linear class), the fastest calibrated
// algorithm chosen, and the geometry a model's conv layer and a measured CSV row carry.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "hw/attainable_rates.hpp"
#include "hw/conv_algorithms.hpp"
#include "hw/descriptor_reader.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/measured_layers.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

// fp32 10 TFLOP/s, fp16 100 TFLOP/s (tensor cores), C and K padded to multiples of 8 and K
// in 64-wide tiles there; a memory so fast that every layer below is compute-bound.
constexpr const char* kGpu = R"(name = "conv algorithm test GPU"
kind = "gpu"
source = "test"
[compute]
fp32 = "10 TFLOPS"
fp16 = "100 TFLOPS"
[[memory]]
name = "HBM"
capacity = "16 GiB"
bandwidth = "1000 TB/s"
[conv_algorithms]
library = "cuDNN"
source = "test"
winograd = true
tensor_core_channels = 8
tensor_core_output_tile = 64
)";

HardwareSpec gpu(const std::string& extra = "") {
  return HardwareDescriptor::from_text(std::string(kGpu) + extra, "gpu.toml", "gpu").spec();
}

// A 2-D convolution of C -> K channels, a k x k kernel, stride s, over P output positions.
LayerWork conv(int64_t c, int64_t k, int64_t side, int64_t stride, double positions) {
  LayerWork w;
  w.op_class = side == 1 ? OpClass::conv_1x1 : OpClass::conv_kxk;
  w.flops = 2.0 * positions * static_cast<double>(k * c * side * side);
  w.gemm_positions = positions;
  w.gemm_reduction = static_cast<double>(c * side * side);
  w.batch = 1;
  w.conv = {stride, side, 1, side, c, k, 2};
  return w;
}

// A [calibration] with one fp32 class per (op class, library, compute fraction) given.
std::string fp32_calibration(const std::vector<std::tuple<std::string, std::string, std::string>>& classes) {
  std::string text = "[calibration]\ndata = \"test\"\ndate = \"2026-11-26\"\nmethod = \"hand\"\n";
  for (const auto& [op_class, library, compute] : classes)
    text += "[[calibration.class]]\nop_class = \"" + op_class + "\"\ndtype = \"fp32\"\n" +
            (library.empty() ? "" : "library = \"" + library + "\"\n") + "compute = " + compute + "\nmemory = 1.0\n";
  return text;
}

double compute_s(const LayerWork& w, const HardwareSpec& hw, DType d) {
  return find_hardware_model("roofline").time_layer(w, hw, d).compute_s;
}

TEST(ConvAlgorithms, Winograd3x3CountWorkedByHand) {
  const HardwareSpec hw = gpu();
  // ResNet's 3 x 3, 64 -> 64 convolution on 56 x 56 (stride 1, padding 1): direct count
  // 2 x 3136 x 64 x 64 x 9 = 231,211,008 FLOPs; F(2x2, 3x3) multiplies 16 per 36 of them:
  // 231,211,008 x 4 / 9 = 102,760,448, at 10 TFLOP/s 10.2760448 us.
  const LayerWork w = conv(64, 64, 3, 1, 56 * 56);
  ASSERT_DOUBLE_EQ(w.flops, 231211008.0);
  const KernelChoice choice = kernel_choice(w, hw, DType::fp32);
  EXPECT_EQ(choice.algorithm, "winograd");
  EXPECT_NEAR(compute_s(w, hw, DType::fp32), 102760448.0 / 10e12, 1e-18);
  // The attained rate, in the direct count's FLOPs: 10 TFLOP/s x 9 / 4 = 22.5 TFLOP/s.
  EXPECT_NEAR(attainable_flops_per_s(w, hw, DType::fp32), 22.5e12, 1e3);
  // Stride 2 (28 x 28 outputs): not eligible, the direct 57,802,752 FLOPs at the peak.
  const LayerWork strided = conv(64, 64, 3, 2, 28 * 28);
  EXPECT_EQ(kernel_choice(strided, hw, DType::fp32).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(strided, hw, DType::fp32), 57802752.0 / 10e12, 1e-18);
  // A 5 x 5 and a 1 x 1 convolution, a grouped and a 3-D one: the direct count.
  EXPECT_EQ(kernel_choice(conv(64, 64, 5, 1, 3136), hw, DType::fp32).algorithm, "implicit_gemm");
  EXPECT_EQ(kernel_choice(conv(64, 64, 1, 1, 3136), hw, DType::fp32).algorithm, "implicit_gemm");
  LayerWork grouped = w;
  grouped.conv.groups = 2;
  EXPECT_EQ(kernel_choice(grouped, hw, DType::fp32).algorithm, "implicit_gemm");
  LayerWork volume = w;
  volume.conv.spatial_dims = 3;
  EXPECT_EQ(kernel_choice(volume, hw, DType::fp32).algorithm, "implicit_gemm");
  // Without the rule: the direct count, whatever the shape.
  HardwareSpec plain = hw;
  plain.conv_algorithms.reset();
  EXPECT_NEAR(compute_s(w, plain, DType::fp32), 231211008.0 / 10e12, 1e-18);
}

TEST(ConvAlgorithms, LargerWinogradTilesAndFiveByFiveKernels) {
  // winograd_tile = 4, winograd_kernels = [3, 5]: F(4x4, 3x3) takes (4 + 2)^2 = 36
  // multiplies per 4 x 4 x 9 = 144 direct ones (1/4), F(4x4, 5x5) (4 + 4)^2 = 64 per
  // 4 x 4 x 25 = 400 (0.16).
  EXPECT_DOUBLE_EQ(winograd_multiplies(4, 3), 0.25);
  EXPECT_DOUBLE_EQ(winograd_multiplies(4, 5), 0.16);
  EXPECT_DOUBLE_EQ(winograd_multiplies(2, 3), 16.0 / 36.0);
  const HardwareSpec hw = gpu("winograd_tile = 4\nwinograd_kernels = [3, 5]\n");
  // The 3 x 3, 64 -> 64 convolution on 56 x 56: 231,211,008 / 4 FLOPs at 10 TFLOP/s.
  EXPECT_NEAR(compute_s(conv(64, 64, 3, 1, 56 * 56), hw, DType::fp32), 57802752.0 / 10e12, 1e-18);
  // GoogLeNet's 5 x 5, 32 -> 96 on 28 x 28: 2 x 784 x 96 x 32 x 25 = 120,422,400 direct,
  // x 0.16 = 19,267,584 FLOPs at 10 TFLOP/s.
  const LayerWork five = conv(32, 96, 5, 1, 28 * 28);
  ASSERT_DOUBLE_EQ(five.flops, 120422400.0);
  EXPECT_EQ(kernel_choice(five, hw, DType::fp32).algorithm, "winograd");
  EXPECT_NEAR(compute_s(five, hw, DType::fp32), 19267584.0 / 10e12, 1e-18);
  // A 5 x 3 kernel is not square: the direct count.
  LayerWork oblong = five;
  oblong.conv.kernel_side = 3;
  EXPECT_EQ(kernel_choice(oblong, hw, DType::fp32).algorithm, "implicit_gemm");
}

TEST(ConvAlgorithms, WithoutEfficiencyOnlyFewerMultipliesRemain) {
  // `--efficiency none` (drop_efficiency): Winograd stays (it is fewer multiplies, the
  // bound), the fp16 padding to 8 channels and 64-wide tiles go (a library's efficiency).
  HardwareSpec hw = gpu();
  hw.drop_efficiency();
  // fp16, 3 -> 32 channels, 3 x 3 stride 2 on 112 x 112 outputs: 2 x 12544 x 32 x 3 x 9 =
  // 21,676,032 FLOPs, direct, at 100 TFLOP/s (with the rule: x 8/3 x 64/32).
  const LayerWork first = conv(3, 32, 3, 2, 112 * 112);
  EXPECT_EQ(kernel_choice(first, hw, DType::fp16).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(first, hw, DType::fp16), 21676032.0 / 100e12, 1e-18);
  EXPECT_EQ(kernel_choice(conv(64, 64, 3, 1, 56 * 56), hw, DType::fp32).algorithm, "winograd");
  EXPECT_NEAR(compute_s(conv(64, 64, 3, 1, 56 * 56), hw, DType::fp32), 102760448.0 / 10e12, 1e-18);
}

TEST(ConvAlgorithms, ABoundOnlyRuleCountsOnlyInTheBound) {
  // The same GPU with a `bound_only` Winograd rule: its own time is the direct count of a
  // 3 x 3, 64 -> 64 fp32 convolution on 56 x 56 (231,211,008 FLOPs at 10 TFLOP/s);
  // `--efficiency none` (drop_to_bound) counts F(2x2, 3x3)'s 4/9 of it, 102,760,448.
  std::string text = kGpu;
  text = text.substr(0, text.find("[conv_algorithms]")) +
         "[conv_algorithms]\nlibrary = \"cuDNN\"\nsource = \"test\"\nbound_only = true\nwinograd = true\n";
  HardwareSpec hw = HardwareDescriptor::from_text(text, "gpu.toml", "gpu").spec();
  const LayerWork layer = conv(64, 64, 3, 1, 56 * 56);
  EXPECT_EQ(kernel_choice(layer, hw, DType::fp32).multiplies, 1.0);  // no rule: the direct count
  EXPECT_NEAR(compute_s(layer, hw, DType::fp32), 231211008.0 / 10e12, 1e-18);
  hw.drop_to_bound();
  EXPECT_EQ(kernel_choice(layer, hw, DType::fp32).algorithm, "winograd");
  EXPECT_NEAR(compute_s(layer, hw, DType::fp32), 102760448.0 / 10e12, 1e-18);
  // The shipped datasheet GPUs carry cuDNN's fp32 Winograd rule this way (docs/accuracy.md:
  // without it 22 forward and 42 backward DeepBench V100 rows beat v100's datasheet roofline).
  for (const char* id : {"v100", "a100", "l4", "rtx4090"}) {
    HardwareSpec shipped = load_hardware(id);
    EXPECT_FALSE(shipped.conv_algorithms.has_value()) << id;
    ASSERT_TRUE(shipped.bound_conv_algorithms.has_value()) << id;
    shipped.drop_to_bound();
    EXPECT_EQ(kernel_choice(layer, shipped, DType::fp32).algorithm, "winograd") << id;
    EXPECT_EQ(kernel_choice(layer, shipped, DType::fp16).multiplies, 1.0) << id;
  }
}

TEST(ConvAlgorithms, WinogradOnlyInTheDtypesTheRuleNames) {
  // winograd_dtypes = ["fp32"]: the same 3 x 3, 64 -> 64 convolution on 56 x 56 takes
  // Winograd in fp32 (231,211,008 x 4 / 9 FLOPs at 10 TFLOP/s) and the direct count in
  // fp16 (231,211,008 FLOPs at the 100 TFLOP/s tensor-core peak: 2.31211008 us).
  const std::string text = std::string(kGpu) + "winograd_dtypes = [\"fp32\"]\n";
  const HardwareSpec hw = HardwareDescriptor::from_text(text, "gpu.toml", "gpu").spec();
  const LayerWork w = conv(64, 64, 3, 1, 56 * 56);
  EXPECT_EQ(kernel_choice(w, hw, DType::fp32).algorithm, "winograd");
  EXPECT_NEAR(compute_s(w, hw, DType::fp32), 102760448.0 / 10e12, 1e-18);
  EXPECT_EQ(kernel_choice(w, hw, DType::fp16).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(w, hw, DType::fp16), 231211008.0 / 100e12, 1e-18);
  // Without the key, fp16 may take Winograd too: 102,760,448 / 100e12.
  EXPECT_EQ(kernel_choice(w, gpu(), DType::fp16).algorithm, "winograd");
}

TEST(ConvAlgorithms, Fp16ConvWithThreeChannelsIsPaddedToEight) {
  const HardwareSpec hw = gpu();
  // ResNet's first layer, 3 -> 64, 7 x 7, stride 2, 112 x 112 outputs:
  // 2 x 12544 x 64 x 3 x 49 = 236,027,904 FLOPs. C = 3 is padded to 8 (K = 64 is one
  // whole tile): 2 x 12544 x 64 x 8 x 49 = 629,407,744 multiplies' FLOPs at the
  // 100 TFLOP/s tensor-core peak, 6.29407744 us.
  const LayerWork first = conv(3, 64, 7, 2, 112 * 112);
  ASSERT_DOUBLE_EQ(first.flops, 236027904.0);
  EXPECT_EQ(kernel_choice(first, hw, DType::fp16).algorithm, "padded_channels");
  EXPECT_NEAR(compute_s(first, hw, DType::fp16), 629407744.0 / 100e12, 1e-18);
  // fp32 has no such rule: the direct count at the fp32 peak, 23.6 us.
  EXPECT_NEAR(compute_s(first, hw, DType::fp32), 236027904.0 / 10e12, 1e-18);
  // With C = 8 nothing is padded: the same 629,407,744 FLOPs, as implicit GEMM.
  const LayerWork eight = conv(8, 64, 7, 2, 112 * 112);
  EXPECT_EQ(kernel_choice(eight, hw, DType::fp16).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(eight, hw, DType::fp16), 629407744.0 / 100e12, 1e-18);
  // K = 60 is padded to 64: 2 x 12544 x 60 x 64 x 49 = 4,720,558,080 FLOPs x 64 / 60 =
  // 5,035,261,952 at 100 TFLOP/s. A 3 x 3 with C = 3 is padded, not offered Winograd.
  EXPECT_EQ(kernel_choice(conv(64, 60, 7, 2, 12544), hw, DType::fp16).algorithm, "padded_channels");
  EXPECT_NEAR(compute_s(conv(64, 60, 7, 2, 12544), hw, DType::fp16), 5035261952.0 / 100e12, 1e-18);
  EXPECT_EQ(kernel_choice(conv(3, 64, 3, 1, 12544), hw, DType::fp16).algorithm, "padded_channels");
}

TEST(ConvAlgorithms, Fp16OutputChannelsRunInWholeTiles) {
  const HardwareSpec hw = gpu();
  // DeepSpeech's second layer, 32 -> 32, 10 x 5, stride 2, 6,308 positions per image at
  // batch 4 (DeepBench's conv_w341h79c32n4k32): 2 x 25,232 x 32 x 32 x 50 = 2,583,756,800
  // FLOPs. K = 32 fills half of a 64-wide tile: 5,167,513,600 at 100 TFLOP/s, 51.675 us.
  LayerWork ds = conv(32, 32, 5, 2, 25232.0);
  ds.flops = 2.0 * 25232 * 32 * 32 * 50;
  ASSERT_DOUBLE_EQ(ds.flops, 2583756800.0);
  EXPECT_EQ(kernel_choice(ds, hw, DType::fp16).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(ds, hw, DType::fp16), 5167513600.0 / 100e12, 1e-18);
  // K = 48: 64 / 48 of the count; K = 96: two tiles, 128 / 96; K = 128: exact. fp32 is
  // not on the tensor cores: the direct count.
  const LayerWork k48 = conv(64, 48, 1, 1, 1000);
  EXPECT_NEAR(compute_s(k48, hw, DType::fp16), k48.flops * 64 / 48 / 100e12, 1e-18);
  const LayerWork k96 = conv(64, 96, 1, 1, 1000);
  EXPECT_NEAR(compute_s(k96, hw, DType::fp16), k96.flops * 128 / 96 / 100e12, 1e-18);
  const LayerWork k128 = conv(64, 128, 1, 1, 1000);
  EXPECT_NEAR(compute_s(k128, hw, DType::fp16), k128.flops / 100e12, 1e-18);
  EXPECT_NEAR(compute_s(ds, hw, DType::fp32), 2583756800.0 / 10e12, 1e-18);
  // DeepSpeech's first layer, 1 -> 32: C padded to 8 (x 8) and K = 32 in a 64-wide tile
  // (x 2): 16 times its count.
  EXPECT_DOUBLE_EQ(kernel_choice(conv(1, 32, 5, 2, 1000), hw, DType::fp16).multiplies, 16.0);
  // A grouped convolution (depthwise 32 -> 32) is neither padded nor tiled.
  LayerWork depthwise = conv(32, 32, 3, 1, 1000);
  depthwise.conv.groups = 32;
  EXPECT_DOUBLE_EQ(kernel_choice(depthwise, hw, DType::fp16).multiplies, 1.0);
  EXPECT_EQ(padded_share(3, 8), 8.0 / 3);
  EXPECT_EQ(padded_share(64, 8), 1.0);
  EXPECT_EQ(padded_share(3, 0), 1.0);
}

TEST(ConvAlgorithms, Fp32PointwiseConvRunsAsTheGemmOfItsShape) {
  // gemm_1x1_dtypes = ["fp32"]: ResNet's 1 x 1, 64 -> 256 convolution on 56 x 56 is the
  // GEMM M = 3136, N = 256, reduction 64: 2 x 3136 x 256 x 64 = 102,760,448 FLOPs, timed
  // by the fp32 linear class (fitted here at 0.5 of the peak): 102,760,448 / 5e12 =
  // 20.5520896 us, where the conv_1x1 class (0.9) would give 11.4 us.
  const HardwareSpec hw =
      gpu("gemm_1x1_dtypes = [\"fp32\"]\n" + fp32_calibration({{"linear", "", "0.5"}, {"conv_1x1", "implicit_gemm", "0.9"}}));
  const LayerWork w = conv(64, 256, 1, 1, 56 * 56);
  ASSERT_DOUBLE_EQ(w.flops, 102760448.0);
  const KernelChoice choice = kernel_choice(w, hw, DType::fp32);
  EXPECT_EQ(choice.algorithm, "gemm");
  EXPECT_NEAR(compute_s(w, hw, DType::fp32), 102760448.0 / 5e12, 1e-15);
  const ConvAlgorithm gemm{"gemm", 1.0, 10e12, true};
  EXPECT_EQ(algorithm_class(w, DType::fp32, gemm, hw), (ClassKey{OpClass::linear, DType::fp32, ""}));
  // Strided (stride 2, 28 x 28 outputs): not a plain GEMM, its own class at 0.9:
  // 2 x 784 x 256 x 64 = 25,690,112 FLOPs / 9e12.
  const LayerWork strided = conv(64, 256, 1, 2, 28 * 28);
  EXPECT_EQ(kernel_choice(strided, hw, DType::fp32).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(strided, hw, DType::fp32), 25690112.0 / 9e12, 1e-15);
  // fp16 is not named: implicit GEMM (uncalibrated there: the 100 TFLOP/s peak).
  EXPECT_EQ(kernel_choice(w, hw, DType::fp16).algorithm, "implicit_gemm");
}

TEST(ConvAlgorithms, CalibratedTakesTheFastestFittedAlgorithm) {
  // Winograd fitted at 0.3 of the peak, implicit GEMM at 0.9: for the 3 x 3 layer above,
  // Winograd takes 4/9 / 0.3 = 1.48 and implicit GEMM 1 / 0.9 = 1.11 units, so the
  // autotuner's choice is implicit GEMM: 231,211,008 / (10 TFLOP/s x 0.9) = 25.69 us.
  const HardwareSpec hw = gpu(fp32_calibration({{"conv_kxk", "winograd", "0.3"}, {"conv_kxk", "implicit_gemm", "0.9"}}));
  const LayerWork w = conv(64, 64, 3, 1, 56 * 56);
  EXPECT_EQ(kernel_choice(w, hw, DType::fp32).algorithm, "implicit_gemm");
  EXPECT_NEAR(compute_s(w, hw, DType::fp32), 231211008.0 / 9e12, 1e-15);
  // The uncalibrated fp16 class (no fp16 class fitted) stays at the pure roofline.
  EXPECT_EQ(kernel_choice(w, hw, DType::fp16).cal, nullptr);
}

TEST(ConvAlgorithms, ModelLayersAndMeasuredRowsCarryTheGeometry) {
  // resnet50's conv1 (3 -> 64, 7 x 7, stride 2) and layer1's first 3 x 3 (64 -> 64, stride 1).
  const Model m = load_model("resnet50");
  const std::vector<LayerWork> work = layer_work(m, analyze_costs(m, RunSettings{}));
  const HardwareSpec hw = gpu();
  const ConvShape& first = work.front().conv;
  EXPECT_EQ(first.in_channels, 3);
  EXPECT_EQ(first.out_channels, 64);
  EXPECT_EQ(first.kernel_side, 7);
  EXPECT_EQ(first.kernel_side_max, 7);
  EXPECT_EQ(first.stride, 2);
  EXPECT_EQ(first.spatial_dims, 2);
  EXPECT_EQ(kernel_choice(work.front(), hw, DType::fp16).algorithm, "padded_channels");
  size_t winograd = 0;
  for (const LayerWork& w : work) winograd += kernel_choice(w, hw, DType::fp32).algorithm == "winograd";
  // ResNet-50's 3 x 3 convolutions: 16, of which the 3 that open a stage at stride 2
  // (torchvision's v1.5 puts the stride on the 3 x 3) are not eligible: 13.
  EXPECT_EQ(winograd, 13u);
  // A measured 3 x 3 row with its channels, and a 20 x 5 one (DeepSpeech's first layer).
  const std::vector<MeasuredLayer> rows = parse_measured_layers(
      "model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes,seconds,groups,stride,kernel_side,"
      "kernel_side_max,in_channels,out_channels\n"
      "m,a,conv_kxk,fp32,231211008,1,1,1,1e-5,1,1,3,3,64,64\n"
      "m,b,conv_kxk,fp16,689638400,1,1,1,1e-4,1,2,5,20,1,32\n",
      "rows.csv");
  EXPECT_EQ(rows[0].work.conv.spatial_dims, 2);
  EXPECT_EQ(kernel_choice(rows[0].work, hw, DType::fp32).algorithm, "winograd");
  EXPECT_EQ(kernel_choice(rows[1].work, hw, DType::fp16).algorithm, "padded_channels");
  EXPECT_THROW(parse_measured_layers("model,layer,op_class,dtype,flops,bytes,seconds,groups,stride,kernel_side,kernel_side_max\n"
                                     "m,a,conv_kxk,fp32,1,1,1,1,1,5,3\n",
                                     "rows.csv"),
               InputError);
}

TEST(ConvAlgorithms, AWinogradLayerIsPlacedUnderTheRoofItIsTimedBy) {
  // resnet50's layer1.0.conv2 (3 x 3, 64 -> 64 on 56 x 56) at batch 1 in fp32 on the test GPU
  // (10 TFLOP/s, memory so fast it is compute-bound): timed at F(2x2, 3x3)'s 102,760,448 of its
  // 231,211,008 direct FLOPs (Winograd3x3CountWorkedByHand), 10.2760448 us. Its rate, intensity
  // and ridge point count those executed FLOPs: it attains the 10 TFLOP/s peak, not the
  // direct count's 22.5 TFLOP/s above the roof, and sits above its ridge point.
  const Model m = load_model("resnet50");
  const HardwareSpec hw = gpu();
  RunSettings settings;
  settings.dtype = DType::fp32;
  const RunResult r = derive(m, analyze_costs(m, settings), hw, find_hardware_model("roofline"));
  const LayerResult* conv2 = nullptr;
  for (const LayerResult& l : r.layers)
    if (l.name == "layer1.0.conv2") conv2 = &l;
  ASSERT_NE(conv2, nullptr);
  EXPECT_DOUBLE_EQ(conv2->executed_flops, 102760448.0);
  EXPECT_NEAR(conv2->roofline_attained_flops, 10e12, 1e3);
  EXPECT_NEAR(conv2->arithmetic_intensity, 102760448.0 / conv2->level_bytes, 1e-6);
  EXPECT_GT(conv2->arithmetic_intensity, conv2->ridge_point);
}

}  // namespace
}  // namespace ridge
