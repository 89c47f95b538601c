// Hardware models against numbers computed by hand (or in DESIGN.md), on HardwareSpecs
// built in code: the worked example's 120 TFLOP/s fp32 chip with 900 GB/s DRAM.
#include <gtest/gtest.h>

#include <cmath>

#include "hw/conv_algorithms.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "tests/test_chips.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/engine/result.hpp"

namespace ridge {
namespace {

HardwareSpec chip() { return test::chip120(); }

// AlexNet conv1 at batch 1, fp32, with FLOPs = 2 x MACs as DESIGN.md counts them.
LayerWork conv1_design() {
  LayerWork w;
  w.flops = 2.0 * 105'415'200;
  w.input_bytes = 154'587 * 4.0;
  w.output_bytes = 290'400 * 4.0;
  w.weight_bytes = 34'944 * 4.0;
  return w;
}

TEST(Roofline, WorkedExampleConv1) {
  LayerTiming t = find_hardware_model("roofline").time_layer(conv1_design(), chip(), DType::fp32);
  // DESIGN.md: 105,415,200 * 2 / 120e12 = 1.757 us.
  EXPECT_NEAR(t.compute_s, 1.757e-6, 0.0005e-6);
  // DESIGN.md: input 351.9, output 661.2, weights 79.5 GB/s (79.557 before truncation),
  // about 1.09 TB/s in all.
  EXPECT_NEAR(t.required_input_Bps, 351.9e9, 0.1e9);
  EXPECT_NEAR(t.required_output_Bps, 661.2e9, 0.1e9);
  EXPECT_NEAR(t.required_weight_Bps, 79.5e9, 0.1e9);
  EXPECT_NEAR(t.required_Bps(), 1.09e12, 0.005e12);
  // 1,919,724 B / 900 GB/s = 2.13303 us > 1.757 us: memory-bound on the HBM2.
  EXPECT_NEAR(t.memory_s, 1'919'724 / 900e9, 1e-12);
  EXPECT_EQ(t.bound_level, 0);
  EXPECT_TRUE(t.memory_bound());
  EXPECT_DOUBLE_EQ(t.time_s, t.memory_s);  // no link, no launch overhead
  // And hopeless on one DDR4 channel (~19 GB/s): 1,919,724 / 19e9 = 101.04 us.
  HardwareSpec host = chip();
  host.memory = {{"DDR4", 16.0 * (1 << 30), 19e9}};
  EXPECT_NEAR(find_hardware_model("roofline").time_layer(conv1_design(), host, DType::fp32).memory_s, 101.04e-6,
              0.01e-6);
}

TEST(Roofline, WorkedExampleFromATomlDescriptor) {
  // tests/data/chip120.toml writes the same chip as a datasheet would: "120 TFLOPS", "900 GB/s".
  HardwareSpec hw = load_hardware("tests/data/chip120.toml");
  LayerTiming t = find_hardware_model(hw.default_model).time_layer(conv1_design(), hw, DType::fp32);
  EXPECT_NEAR(t.compute_s, 1.757e-6, 0.0005e-6);
  EXPECT_NEAR(t.required_input_Bps, 351.9e9, 0.1e9);
  EXPECT_NEAR(t.required_output_Bps, 661.2e9, 0.1e9);
  EXPECT_NEAR(t.required_weight_Bps, 79.5e9, 0.1e9);
  EXPECT_NEAR(t.required_Bps(), 1.09e12, 0.005e12);
  EXPECT_EQ(t.bound_level, 0);
}

TEST(Roofline, EfficienciesScalePeaks) {
  HardwareSpec hw = chip();
  hw.compute_efficiency = 0.5;
  hw.memory_efficiency = 0.8;
  LayerTiming t = find_hardware_model("roofline").time_layer(conv1_design(), hw, DType::fp32);
  EXPECT_NEAR(t.compute_s, 210'830'400 / 60e12, 1e-15);      // 3.5138 us
  EXPECT_NEAR(t.memory_s, 1'919'724 / 720e9, 1e-15);         // 2.6663 us
  EXPECT_EQ(t.bound_level, -1);                               // now compute-bound
  EXPECT_DOUBLE_EQ(t.time_s, t.compute_s);
}

TEST(Roofline, AlexNetConv1ThroughTheEngine) {
  Model m = load_model("alexnet");
  CostAnalysis c = analyze_costs(m, RunSettings{});
  RunResult r = derive(m, c, chip(), find_hardware_model("roofline"));
  const LayerResult& l = r.layers[m.find("conv1")];
  // DESIGN.md: compute = 105,415,200 x 2 / 120e12 = 1.757 us. ridge counts 290,400 bias
  // adds too (211,120,800 FLOPs) but they run in the fused epilogue, untimed.
  EXPECT_NEAR(l.timing.compute_s, 210'830'400 / 120e12, 1e-15);  // 1.75692 us
  EXPECT_NEAR(l.timing.time_s, 1'919'724 / 900e9, 1e-15);        // 2.13303 us, memory-bound
  EXPECT_EQ(l.timing.bound_level, 0);
  // The memory time compute does not hide: 2.13303 - 1.75692 = 0.37611 us.
  EXPECT_NEAR(l.exposed_memory_s, 1'919'724 / 900e9 - 210'830'400 / 120e12, 1e-15);
  // DESIGN.md's streams: 351.9 / 661.2 / 79.5 GB/s (its quotients by the rounded 1.757 us).
  EXPECT_NEAR(l.timing.required_input_Bps, 351.9e9, 0.1e9);
  EXPECT_NEAR(l.timing.required_output_Bps, 661.2e9, 0.1e9);
  EXPECT_NEAR(l.timing.required_weight_Bps, 79.5e9, 0.1e9);
  EXPECT_NEAR(l.attained_flops, 210'830'400 / (1'919'724 / 900e9), 1e3);  // 98.84 TFLOP/s, timed FLOPs
  EXPECT_NEAR(l.peak_fraction, 210'830'400 / (1'919'724 / 900e9) / 120e12, 1e-9);
  // 109.82 FLOP/B: timed FLOPs (2 x MACs; the 290,400 bias adds run in the fused epilogue) / bytes.
  EXPECT_NEAR(l.arithmetic_intensity, 210'830'400.0 / 1'919'724, 1e-9);
  EXPECT_NEAR(ridge_point(chip(), DType::fp32, 0), 120e12 / 900e9, 1e-9);  // 133.3 FLOP/B
}

HardwareSpec chip_with_sram(double sram_bytes, double sram_Bps) {
  HardwareSpec hw = chip();
  hw.default_model = "hierarchical";
  hw.memory.push_back({"SRAM", sram_bytes, sram_Bps});
  return hw;
}

TEST(Hierarchical, WeightsThatFitStayOnChipAndActivationsFillWhatIsLeft) {
  // 1 MB at 10 TB/s: the 139,776 B of weights fit; input+output (1,779,948 B) do not fit
  // in the 860,224 B left, so the level holds 860,224 B of them and serves that share of
  // their traffic, and the other 919,724 B come from the HBM2.
  LayerTiming t = find_hardware_model("hierarchical").time_layer(conv1_design(), chip_with_sram(1e6, 10e12), DType::fp32);
  EXPECT_EQ(t.weight_level, 1);
  EXPECT_EQ(t.input_level, 0);  // split: named by DRAM, which serves most of them
  EXPECT_EQ(t.output_level, 0);
  ASSERT_EQ(t.level_bytes.size(), 2u);
  EXPECT_DOUBLE_EQ(t.level_bytes[1], 139'776 + 860'224);
  EXPECT_DOUBLE_EQ(t.level_bytes[0], 919'724);
  EXPECT_NEAR(t.level_s[1], 1e6 / 10e12, 1e-18);      // 100 ns
  EXPECT_NEAR(t.level_s[0], 919'724 / 900e9, 1e-15);  // 1.02192 us
  EXPECT_EQ(t.bound_level, -1);  // under the 1.75692 us of compute
  EXPECT_NEAR(t.time_s, 210'830'400 / 120e12, 1e-15);
}

TEST(Hierarchical, EverythingOnChipIsComputeBound) {
  // 4 MB holds the weights and then input+output (139,776 + 1,779,948 = 1,919,724 B).
  LayerTiming t = find_hardware_model("hierarchical").time_layer(conv1_design(), chip_with_sram(4e6, 10e12), DType::fp32);
  EXPECT_EQ(t.weight_level, 1);
  EXPECT_EQ(t.input_level, 1);
  EXPECT_DOUBLE_EQ(t.level_s[0], 0.0);
  EXPECT_NEAR(t.level_s[1], 1'919'724 / 10e12, 1e-18);  // 191.97 ns
  EXPECT_EQ(t.bound_level, -1);
  EXPECT_NEAR(t.time_s, 210'830'400 / 120e12, 1e-15);  // 1.75692 us
}

TEST(Hierarchical, ASlowNearLevelBindsAndIsNamed) {
  // Everything fits a 4 MB level of only 500 GB/s: 1,919,724 / 500e9 = 3.83945 us.
  LayerTiming t = find_hardware_model("hierarchical").time_layer(conv1_design(), chip_with_sram(4e6, 500e9), DType::fp32);
  EXPECT_EQ(t.bound_level, 1);
  EXPECT_NEAR(t.memory_s, 3.839448e-6, 1e-12);
}

TEST(Hierarchical, ActivationsThatFitInPartAreServedInPart) {
  // 100 kB: the weights do not fit, and the level holds 100,000 B of the 1,779,948 B of
  // input+output. DRAM: 139,776 + 1,679,948 = 1,819,724 B / 900 GB/s = 2.02192 us, which is
  // the roofline's 1,919,724 B less the 100 kB the level serves.
  HardwareSpec hw = chip_with_sram(100e3, 10e12);
  LayerTiming h = find_hardware_model("hierarchical").time_layer(conv1_design(), hw, DType::fp32);
  LayerTiming r = find_hardware_model("roofline").time_layer(conv1_design(), hw, DType::fp32);
  EXPECT_EQ(h.weight_level, 0);
  EXPECT_DOUBLE_EQ(h.level_bytes[0], 1'819'724);
  EXPECT_DOUBLE_EQ(h.level_bytes[1], 100'000);
  EXPECT_NEAR(h.time_s, 1'819'724 / 900e9, 1e-15);
  EXPECT_NEAR(r.time_s - h.time_s, 100e3 / 900e9, 1e-15);
  EXPECT_EQ(h.bound_level, 0);
}

TEST(Hierarchical, AnInPlaceLayerOccupiesOneBuffer) {
  // A ReLU over 6 MB that overwrites its input moves 12 MB but occupies 6 MB: it fits an
  // 8 MB level whole, 12 MB / 10 TB/s = 1.2 us. Not in place, its 12 MB fit in part: the
  // level serves 8/12 of the traffic (8 MB, 0.8 us) and DRAM 4 MB, 4e6 / 900e9 = 4.444 us.
  LayerWork w;
  w.flops = 1.5e6;
  w.input_bytes = 6e6;
  w.output_bytes = 6e6;
  w.in_place = true;
  const HardwareSpec hw = chip_with_sram(8e6, 10e12);
  LayerTiming t = find_hardware_model("hierarchical").time_layer(w, hw, DType::fp32);
  EXPECT_EQ(t.input_level, 1);
  EXPECT_DOUBLE_EQ(t.level_bytes[0], 0.0);
  EXPECT_NEAR(t.memory_s, 12e6 / 10e12, 1e-18);
  w.in_place = false;
  t = find_hardware_model("hierarchical").time_layer(w, hw, DType::fp32);
  EXPECT_EQ(t.input_level, 1);  // split, named by the level serving most of it
  EXPECT_DOUBLE_EQ(t.level_bytes[1], 8e6);
  EXPECT_DOUBLE_EQ(t.level_bytes[0], 4e6);
  EXPECT_NEAR(t.memory_s, 4e6 / 900e9, 1e-15);
}

TEST(Hierarchical, AModelsInPlaceLayerIsInPlaceInInferenceOnly) {
  // mlp's relu is `inplace = true` (models/mlp.toml): one buffer in inference; in training
  // its backward streams (the output gradient, the input gradient) are not that buffer.
  const Model model = load_model("mlp");
  RunSettings s;
  std::vector<LayerWork> work = layer_work(model, analyze_costs(model, s));
  size_t in_place = 0;
  for (size_t i = 0; i < work.size(); ++i) {
    EXPECT_EQ(work[i].in_place, model.layers[i].counts.inplace) << model.layers[i].name;
    in_place += work[i].in_place;
  }
  EXPECT_GT(in_place, 0u);
  s.phase = Phase::training;
  for (const LayerWork& w : layer_work(model, analyze_costs(model, s))) EXPECT_FALSE(w.in_place);
}

TEST(Hierarchical, WeightsStayOnChipOnlyWhenTheWholeStepsWeightsFit) {
  // Issue #25: conv1's 139,776 B of weights fit a 1 MB level alone, but a step whose
  // layers hold 100 MB of weights cannot keep them there from one step to the next:
  // each layer's weights evict the last's, so they come from the HBM2, with the
  // 779,948 B of input+output the level has no room for: 919,724 B / 900 GB/s = 1.02192 us.
  LayerWork w = conv1_design();
  w.step_weight_bytes = 100e6;
  LayerTiming t = find_hardware_model("hierarchical").time_layer(w, chip_with_sram(1e6, 10e12), DType::fp32);
  EXPECT_EQ(t.weight_level, 0);
  EXPECT_NEAR(t.level_s[0], 919'724 / 900e9, 1e-15);
  EXPECT_NEAR(t.level_s[1], 1e6 / 10e12, 1e-18);  // activations only
  // A step of 500 kB of weights fits: resident, and the 500 kB they take is not free
  // for the activations, of which the level holds the 500 kB left.
  w.step_weight_bytes = 500e3;
  t = find_hardware_model("hierarchical").time_layer(w, chip_with_sram(1e6, 10e12), DType::fp32);
  EXPECT_EQ(t.weight_level, 1);
  EXPECT_NEAR(t.level_s[1], (139'776 + 500e3) / 10e12, 1e-18);
  EXPECT_NEAR(t.level_s[0], (1'779'948 - 500e3) / 900e9, 1e-15);
}

TEST(Hierarchical, TheStepsKvCacheStaysOnChipOnlyWhenItAllFits) {
  // One layer's 2 MB of KV cache fits a 4 MB level, the step's 64 MB does not.
  LayerWork w;
  w.flops = 1e6;
  w.kv_bytes = 2e6;
  w.step_kv_bytes = 64e6;
  LayerTiming t = find_hardware_model("hierarchical").time_layer(w, chip_with_sram(4e6, 10e12), DType::fp32);
  EXPECT_EQ(t.kv_level, 0);
  EXPECT_NEAR(t.level_s[0], 2e6 / 900e9, 1e-15);
  w.step_kv_bytes = 3e6;
  t = find_hardware_model("hierarchical").time_layer(w, chip_with_sram(4e6, 10e12), DType::fp32);
  EXPECT_EQ(t.kv_level, 1);
}

TEST(HostLink, A200x200MatmulIsDominatedByTheTransfer) {
  // Both 200x200 operands and the 200x200 result cross a 16 GB/s PCIe link:
  // 3 x 200 x 200 x 4 B = 480,000 B / 16e9 = 30 us, against 2 x 200^3 = 16 MFLOP in
  // 16e6 / 120e12 = 0.1333 us of compute and 480,000 / 900e9 = 0.5333 us of DRAM traffic.
  HardwareSpec hw = chip();
  hw.link = HostLink{"PCIe", 16e9};
  LayerWork w;
  w.flops = 2.0 * 200 * 200 * 200;
  w.input_bytes = w.weight_bytes = w.output_bytes = 200 * 200 * 4.0;
  w.link_bytes = 3 * 200 * 200 * 4.0;
  LayerTiming t = find_hardware_model("roofline").time_layer(w, hw, DType::fp32);
  EXPECT_NEAR(t.link_s, 30e-6, 1e-15);
  EXPECT_NEAR(t.compute_s, 0.13333e-6, 0.00001e-6);
  EXPECT_NEAR(t.memory_s, 0.53333e-6, 0.00001e-6);
  EXPECT_NEAR(t.time_s, 30e-6 + 480'000 / 900e9, 1e-15);  // link added to max(compute, memory)
  EXPECT_GT(t.link_s, 200 * t.compute_s);
  // No link: the transfer cannot be timed, and is an input error rather than 0 s.
  EXPECT_THROW(find_hardware_model("roofline").time_layer(w, chip(), DType::fp32), InputError);
}

TEST(HostLink, DataOnHostThroughTheEngine) {
  // With --data-on host the input (200x200 fp32) goes over and the output comes back;
  // the weights stay on the device: 2 x 160,000 B / 16 GB/s = 20 us.
  Model m = load_model("tests/data/matmul200.toml");
  RunSettings s;
  s.batch = 200;
  s.data_on = DataPlacement::host;
  CostAnalysis c = analyze_costs(m, s);
  HardwareSpec hw = chip();
  hw.link = HostLink{"PCIe", 16e9};
  RunResult r = derive(m, c, hw, find_hardware_model("roofline"));
  ASSERT_EQ(r.layers.size(), 1u);
  EXPECT_DOUBLE_EQ(r.layers[0].work.flops, 16e6);
  EXPECT_NEAR(r.layers[0].timing.link_s, 20e-6, 1e-15);
  EXPECT_NEAR(r.totals.timing.link_s, 20e-6, 1e-15);
  EXPECT_NEAR(r.totals.timing.time_s, 20e-6 + 480'000 / 900e9, 1e-15);
  EXPECT_NEAR(r.samples_per_s, 200 / (20e-6 + 480'000 / 900e9), 1e-3);
}

TEST(LaunchOverhead, AddedPerKernel) {
  HardwareSpec hw = chip();
  hw.kernel_launch_s = 5e-6;
  LayerWork w = conv1_design();
  LayerTiming t = find_hardware_model("roofline").time_layer(w, hw, DType::fp32);
  EXPECT_DOUBLE_EQ(t.overhead_s, 5e-6);
  EXPECT_NEAR(t.time_s, 1'919'724 / 900e9 + 5e-6, 1e-15);
  w.kernels = 3;
  EXPECT_DOUBLE_EQ(find_hardware_model("hierarchical").time_layer(w, hw, DType::fp32).overhead_s, 15e-6);
  w = LayerWork{};
  w.kernels = 0;  // a view: no kernel, no time
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(w, hw, DType::fp32).time_s, 0.0);
}

TEST(LaunchOverhead, StepTimeCountsOneLaunchPerKernel) {
  Model m = load_model("alexnet");
  CostAnalysis c = analyze_costs(m, RunSettings{});
  HardwareSpec hw = chip();
  RunResult base = derive(m, c, hw, find_hardware_model("roofline"));
  hw.kernel_launch_s = 5e-6;
  RunResult with = derive(m, c, hw, find_hardware_model("roofline"));
  int kernels = 0;
  for (const LayerResult& l : with.layers) kernels += l.work.kernels;
  EXPECT_GT(kernels, 0);
  EXPECT_NEAR(with.totals.timing.overhead_s, kernels * 5e-6, 1e-12);
  EXPECT_NEAR(with.totals.timing.time_s, base.totals.timing.time_s + kernels * 5e-6, 1e-12);
}

TEST(TimingAnalysis, TotalsAndMemoryBoundShare) {
  Model m = load_model("alexnet");
  RunSettings s;
  s.batch = 4;
  CostAnalysis c = analyze_costs(m, s);
  RunResult r = derive(m, c, chip(), find_hardware_model("roofline"));
  double sum = 0, mem = 0;
  for (const LayerResult& l : r.layers) {
    sum += l.timing.time_s;
    if (l.timing.memory_bound()) mem += l.timing.time_s;
  }
  EXPECT_DOUBLE_EQ(r.totals.timing.time_s, sum);
  EXPECT_DOUBLE_EQ(r.samples_per_s, 4 / sum);
  EXPECT_DOUBLE_EQ(r.memory_bound_share, mem / sum);
  EXPECT_GT(r.memory_bound_share, 0.0);
  EXPECT_LE(r.memory_bound_share, 1.0);
}

TEST(TimingAnalysis, UnsupportedDtypeIsAnInputError) {
  Model m = load_model("alexnet");
  RunSettings s;
  s.dtype = DType::fp8;
  CostAnalysis c = analyze_costs(m, s);
  HardwareSpec hw = chip();
  hw.id = "v100";
  try {
    derive(m, c, hw, find_hardware_model("roofline"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "v100 has no fp8 peak");
    EXPECT_NE(e.hint().find("fp32"), std::string::npos);
  }
}

// Every shipped descriptor times every zoo model with every hardware model, at inference
// and in training, in each dtype it supports: finite, non-negative, consistent times.
TEST(TimingAnalysis, EveryShippedDescriptorTimesEveryZooModel) {
  std::vector<std::string> hardware = shipped_hardware_names(), zoo = zoo_names();
  ASSERT_FALSE(hardware.empty());
  ASSERT_FALSE(zoo.empty());
  for (const std::string& hw_name : hardware) {
    HardwareSpec hw = load_hardware(hw_name);
    double most = 1.0;  // the most a Winograd rule speeds a layer's compute up
    if (hw.conv_algorithms && hw.conv_algorithms->winograd)
      for (int64_t r : hw.conv_algorithms->winograd_kernels)
        most = std::max(most, 1 / winograd_multiplies(hw.conv_algorithms->winograd_tile, r));
    for (const std::string& model_name : zoo) {
      Model m = load_model(model_name);
      for (const auto& [dtype, peak] : hw.peak_flops) {
        for (Phase phase : {Phase::inference, Phase::training}) {
          RunSettings s;
          s.dtype = dtype;
          s.phase = phase;
          s.batch = phase == Phase::training ? 8 : 1;
          CostAnalysis c = analyze_costs(m, s);
          for (const HardwareModel* hm : hardware_models()) {
            SCOPED_TRACE(hw_name + " x " + model_name + " " + std::string(dtype_name(dtype)) + " " +
                         std::string(phase_name(phase)) + " " + std::string(hm->name()));
            RunResult r = derive(m, c, hw, *hm);
            ASSERT_EQ(r.layers.size(), m.layers.size());
            EXPECT_TRUE(std::isfinite(r.totals.timing.time_s));
            EXPECT_GT(r.totals.timing.time_s, 0.0);
            EXPECT_GE(r.memory_bound_share, 0.0);
            EXPECT_LE(r.memory_bound_share, 1.0);
            for (const LayerResult& l : r.layers) {
              EXPECT_GE(l.timing.time_s, std::max(l.timing.compute_s, l.timing.memory_s));
              // Winograd's F(2x2, 3x3) does 4/9 of the direct count's multiplies, so its layers
              // attain up to 9/4 of the peak in the direct count's FLOPs (hw/conv_algorithms.hpp).
              EXPECT_LE(l.peak_fraction, most + 1e-12);
            }
          }
        }
      }
    }
  }
}

TEST(Registry, NamesAndUnknownModel) {
  EXPECT_EQ(hardware_model_names(), (std::vector<std::string>{"roofline", "hierarchical"}));
  EXPECT_EQ(select_hardware_model(chip_with_sram(1e6, 1e12), "").name(), "hierarchical");
  EXPECT_EQ(select_hardware_model(chip_with_sram(1e6, 1e12), "roofline").name(), "roofline");
  try {
    find_hardware_model("hierarchcal");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(e.hint().find("hierarchical"), std::string::npos);
  }
}

}  // namespace
}  // namespace ridge
