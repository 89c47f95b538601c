// The memory model (docs/guide/size-training.md): parts, linearity in the batch, the
// timeline peak, in-place and shared saved tensors, checkpointing, inference
// liveness, and the fit on a device. Hand arithmetic in the comments.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/run_ridge.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/engine/memory_result.hpp"
#include "sim/workload/model_reader.hpp"
#include "tests/training_models.hpp"

namespace ridge {
namespace {

constexpr int64_t P = 131'410;  // mlp parameters

RunSettings training(int64_t batch, Optimizer opt = Optimizer::adam) {
  RunSettings s;
  s.batch = batch;
  s.phase = Phase::training;
  s.optimizer = opt;
  return s;
}

MemoryFootprint mlp_memory(int64_t batch, Optimizer opt = Optimizer::adam, CheckpointPolicy cp = {}) {
  return memory_footprint(test_models::mlp(), training(batch, opt), cp);
}

std::string peak_layer(const Model& m, const MemoryFootprint& f) { return m.layers[f.peak().layer].name; }

TEST(Memory, MlpAdamAtBatch256) {
  Model m = test_models::mlp();
  MemoryFootprint f = memory_footprint(m, training(256), {});
  EXPECT_EQ(f.parameters_bytes, P * 4);  // 525,640
  EXPECT_EQ(f.gradients_bytes, P * 4);
  EXPECT_EQ(f.optimizer_bytes, P * 8);   // m and v
  EXPECT_EQ(f.master_weights_bytes, 0);
  EXPECT_EQ(f.model_bytes(), P * 16);    // 2,102,560
  // Kept for backward, per sample (fp32): the input, saved by hidden.0.fc, 1000*4 =
  // 4,000; each hidden fc output, saved by its in-place ReLU (output) and by the next
  // linear (input), one storage: 4 * 400 = 1,600; the model output for the loss 40.
  // 5,640 per sample, x 256 = 1,443,840.
  EXPECT_EQ(f.activations_per_sample, 5'640);
  EXPECT_EQ(f.activations_bytes(), 1'443'840);
  // Peak at hidden.3.relu's backward: kept input + four hidden outputs 5,600 (out's
  // output is freed after its backward) + the gradients of relu3's output and of fc3's
  // output 2 * 400 = 6,400 per sample. 2,102,560 + 256 * 6,400 = 3,740,960.
  EXPECT_EQ(f.peak_per_sample, 6'400);
  EXPECT_EQ(f.peak_bytes(), 3'740'960);
  EXPECT_EQ(peak_layer(m, f), "hidden.3.relu");
  EXPECT_EQ(f.peak().kind, MemoryEvent::Kind::backward);
  EXPECT_EQ(f.workspace_bytes(), 256 * 800);
}

TEST(Memory, WhatEachOptimizerAdds) {
  EXPECT_EQ(mlp_memory(256, Optimizer::sgd).optimizer_bytes, 0);
  EXPECT_EQ(mlp_memory(256, Optimizer::momentum).optimizer_bytes, P * 4);
  EXPECT_EQ(mlp_memory(256, Optimizer::adam).optimizer_bytes, P * 8);
  EXPECT_EQ(mlp_memory(256, Optimizer::adamw).optimizer_bytes, P * 8);
  // Peak differs by exactly the state: adam - sgd = 2 copies of the weights.
  EXPECT_EQ(mlp_memory(256, Optimizer::adam).peak_bytes() - mlp_memory(256, Optimizer::sgd).peak_bytes(), P * 8);
}

TEST(Memory, MixedPrecisionParts) {
  RunSettings s = training(256);
  s.dtype = DType::fp16;
  s.precision = Precision::mixed;
  MemoryFootprint f = memory_footprint(test_models::mlp(), s, {});
  // 2 (fp16 weights) + 2 (grads) + 4 (master) + 8 (m, v) = 16 B/param.
  EXPECT_EQ(f.parameters_bytes, P * 2);
  EXPECT_EQ(f.gradients_bytes, P * 2);
  EXPECT_EQ(f.master_weights_bytes, P * 4);
  EXPECT_EQ(f.optimizer_bytes, P * 8);
  EXPECT_EQ(f.model_bytes(), P * 16);
  EXPECT_EQ(f.activations_per_sample, 5'640 / 2);  // activations in fp16
}

TEST(Memory, InPlaceReluKeepsNoSecondCopy) {
  MemoryFootprint inplace = memory_footprint(test_models::mlp(true), training(256), {});
  MemoryFootprint copy = memory_footprint(test_models::mlp(false), training(256), {});
  // Counting the ReLU's saved output and the next linear's saved input separately would
  // give 5,640 + 4 * 400 = 7,240 per sample; it is one storage either way.
  EXPECT_EQ(inplace.activations_per_sample, 5'640);
  EXPECT_EQ(copy.activations_per_sample, 5'640);
  // A ReLU writing a new tensor holds its input and output together during its forward:
  // hidden.0.relu forward, in place: input 4,000 + h0 400 = 4,400 per sample; with a copy
  // also the ReLU's output, 4,800.
  Model m = test_models::mlp(false);
  size_t e = static_cast<size_t>(m.find("hidden.0.relu"));  // forward events come first, in layer order
  EXPECT_EQ(inplace.timeline[e].live(), 4'400);
  EXPECT_EQ(copy.timeline[e].live(), 4'800);
}

TEST(Memory, ActivationsScaleLinearlyWithTheBatch) {
  MemoryFootprint a = mlp_memory(256), b = mlp_memory(512), one = mlp_memory(1);
  EXPECT_EQ(b.activations_bytes(), 2 * a.activations_bytes());
  EXPECT_EQ(a.activations_bytes(), 256 * one.activations_bytes());
  // peak(N) = model + N x per-sample.
  EXPECT_EQ(b.peak_bytes() - a.peak_bytes(), 256 * 6'400);
  EXPECT_EQ(one.peak_bytes(), P * 16 + 6'400);
}

TEST(Memory, CheckpointingLowersThePeakAndCostsRecompute) {
  Model m = test_models::mlp();
  auto sqrt = parse_checkpoint("sqrt");
  ASSERT_TRUE(sqrt);
  MemoryFootprint none = memory_footprint(m, training(256), {});
  MemoryFootprint ck = memory_footprint(m, training(256), *sqrt);
  // 9 layers, segments of ceil(sqrt 9) = 3: [fc0 relu0 fc1] [relu1 fc2 relu2] [fc3 relu3 out];
  // the first two are recomputed. Kept through forward, per sample: the input (segment 0's
  // input) 4,000; fc1's output (segment 1's input) 400; fc2's output (read and saved by fc3
  // in the last segment) 400; fc3's output 400; out 40 = 5,240. fc0's output is dropped.
  EXPECT_EQ(ck.activations_per_sample, 5'240);
  EXPECT_EQ(ck.layers[m.find("hidden.0.fc")].kept_per_sample, 0);
  // The peak, still at hidden.3.relu backward: input, fc1, fc2, fc3 outputs 5,200 + two
  // gradients 800 = 6,000 per sample, 400 below 6,400.
  EXPECT_EQ(ck.peak_per_sample, 6'000);
  EXPECT_EQ(none.peak_bytes() - ck.peak_bytes(), 256 * 400);
  // Recompute = forward FLOPs of segments 0 and 1: fc0 2*100,000 + 100 bias = 200,100,
  // fc1 and fc2 20,100 each, three ReLUs 100 each: 240,600 per sample.
  EXPECT_EQ(ck.recompute_flops, 256 * 240'600);
  EXPECT_EQ(none.recompute_flops, 0);
  // every=3 is the same cut.
  MemoryFootprint every3 = memory_footprint(m, training(256), *parse_checkpoint("every=3"));
  EXPECT_EQ(every3.peak_bytes(), ck.peak_bytes());
}

TEST(Memory, CheckpointPolicyNames) {
  EXPECT_TRUE(parse_checkpoint("none"));
  EXPECT_EQ(parse_checkpoint("every=4")->every, 4);
  EXPECT_FALSE(parse_checkpoint("every=0"));
  EXPECT_FALSE(parse_checkpoint("every=x"));
  EXPECT_FALSE(parse_checkpoint("every="));
  EXPECT_FALSE(parse_checkpoint("sqrt2"));
}

TEST(Memory, DropoutKeepsItsMask) {
  Model m = read_model_string(R"(name = "drop"
[input]
shape = [100]
[[layer]]
name = "fc"
op = "linear"
out_features = 100
[[layer]]
name = "drop"
op = "dropout"
p = 0.5
[[layer]]
name = "fc2"
op = "linear"
out_features = 10
)",
                              "drop.toml");
  MemoryFootprint f = memory_footprint(m, training(1), {});
  // Kept: input 400 (fc saves it); fc's output is read by dropout, which saves only its
  // mask, 1 B x 100; dropout's output 400 (fc2 saves it); fc2's output 40 (loss).
  EXPECT_EQ(f.layers[m.find("fc")].kept_per_sample, 0);
  EXPECT_EQ(f.layers[m.find("drop")].kept_per_sample, 400 + 100);
  EXPECT_EQ(f.activations_per_sample, 400 + 500 + 40);
}

TEST(Memory, InferenceIsWeightsPlusLiveActivationsNotTheSum) {
  Model m = read_model_string(R"(name = "diamond"
[input]
shape = [100]
[[layer]]
name = "a"
op = "linear"
out_features = 500
[[layer]]
name = "b"
op = "linear"
out_features = 500
[[layer]]
name = "sum"
op = "add"
inputs = ["a", "b"]
[[layer]]
name = "head"
op = "linear"
out_features = 10
)",
                              "diamond.toml");
  RunSettings s;  // inference, fp32, batch 1
  MemoryFootprint f = memory_footprint(m, s, {});
  // Params: a 100*500+500 = 50,500; b 500*500+500 = 250,500; head 5,010: 306,010 x 4 B.
  EXPECT_EQ(f.parameters_bytes, 306'010 * 4);
  EXPECT_EQ(f.gradients_bytes + f.optimizer_bytes, 0);
  // Live per event: a: input 400 + a 2,000 = 2,400; b: a + b = 4,000 (input freed);
  // sum: a + b + sum = 6,000; head: sum + 40 = 2,040. Peak 6,000 at sum, not the
  // 6,440 of all tensors together.
  EXPECT_EQ(f.peak_per_sample, 6'000);
  EXPECT_EQ(f.activations_bytes(), 6'000);
  EXPECT_EQ(m.layers[f.peak().layer].name, "sum");
  EXPECT_EQ(f.peak_bytes(), 306'010 * 4 + 6'000);
}

const HardwareModel& roofline() { return find_hardware_model("roofline"); }

HardwareSpec small_device() {
  HardwareSpec hw;
  hw.id = hw.name = "test-device";
  hw.peak_flops[DType::fp32] = 1e12;
  hw.memory.push_back({"DRAM", 10e6, 1e11});  // 10 MB at 100 GB/s
  return hw;
}

TEST(Memory, LargestBatchThatFitsFitsAndOneMoreDoesNot) {
  Model m = test_models::mlp();
  MemoryFootprint f = memory_footprint(m, training(256), {});
  DeviceFit d = fit_on_device(m, f, small_device(), roofline(), 0.05);
  // Usable 10,000,000 * 0.95 = 9,500,000. (9,500,000 - 2,102,560) / 6,400 = 1,155.85 -> 1,155.
  EXPECT_EQ(d.capacity_bytes, 9'500'000);
  EXPECT_EQ(d.max_batch, 1'155);
  EXPECT_TRUE(d.fits);  // 3,740,960 <= 9,500,000
  EXPECT_EQ(memory_footprint(m, training(1'155), {}).peak_bytes(), 2'102'560 + 1'155 * 6'400);  // 9,494,560
  EXPECT_LE(memory_footprint(m, training(1'155), {}).peak_bytes(), d.capacity_bytes);
  EXPECT_GT(memory_footprint(m, training(1'156), {}).peak_bytes(), d.capacity_bytes);     // 9,500,960
  EXPECT_EQ(d.max_batch_peak, 9'494'560);
  EXPECT_EQ(d.next_batch_peak, 9'500'960);
  // Not even the model part fits in 2 MB.
  HardwareSpec tiny = small_device();
  tiny.memory[0].capacity_bytes = 2e6;
  DeviceFit t = fit_on_device(m, f, tiny, roofline(), 0.0);
  EXPECT_FALSE(t.fits);
  EXPECT_EQ(t.max_batch, 0);
}

TEST(Memory, EveryZooModelOnEveryShippedGpu) {
  // The breakdown, the timeline peak and the largest batch for each pair; the largest
  // batch is checked by its definition: its peak fits the usable capacity, one more not.
  int pairs = 0;
  for (const std::string& hw_name : shipped_hardware_names()) {
    HardwareSpec hw = load_hardware(hw_name);
    if (hw.kind != "gpu") continue;
    for (const std::string& name : zoo_names()) {
      Model m = load_model(name);
      RunSettings s = training(8);
      s.dtype = hw.peak(DType::fp16) ? DType::fp16 : DType::fp32;
      MemoryReport r = analyze_memory(m, s, {}, &hw, &select_hardware_model(hw, ""));
      const MemoryFootprint& f = r.footprint;
      std::string what = name + " on " + hw_name;
      EXPECT_EQ(f.params, analyze_costs(m, s).totals.params) << what;
      EXPECT_GT(f.parameters_bytes, 0) << what;
      EXPECT_GT(f.gradients_bytes, 0) << what;
      EXPECT_GT(f.optimizer_bytes, 0) << what;  // adam: two states
      EXPECT_GT(f.peak_bytes(), f.model_bytes()) << what;
      EXPECT_LT(f.peak_event, f.timeline.size()) << what;
      ASSERT_TRUE(r.fit.has_value()) << what;
      int64_t max_batch = r.fit->max_batch;
      if (max_batch == 0) {  // the 7B+ LLMs: Adam's 16 B/param alone outgrow every single GPU
        EXPECT_GT(f.model_bytes() + f.peak_per_sample, r.fit->capacity_bytes) << what;
        EXPECT_GE(m.layers.size(), 400u) << what;  // only the LLMs are that large
        continue;
      }
      RunSettings at = s, over = s;
      at.batch = max_batch;
      over.batch = max_batch + 1;
      EXPECT_LE(memory_footprint(m, at, {}).peak_bytes(), r.fit->capacity_bytes) << what;
      EXPECT_GT(memory_footprint(m, over, {}).peak_bytes(), r.fit->capacity_bytes) << what;
      ++pairs;
    }
  }
  EXPECT_GE(pairs, 8 * 7);
}

TEST(Memory, RecomputeTimeOnTheDevice) {
  Model m = test_models::mlp();
  MemoryFootprint f = memory_footprint(m, training(256), *parse_checkpoint("sqrt"));
  DeviceFit d = fit_on_device(m, f, small_device(), roofline(), 0.05);
  // The six recomputed forwards, each max(FLOPs / 1e12, bytes / 1e11) on the roofline:
  //   fc0   256*200,100 = 51,225,600 FLOPs -> 51.2256 us; 256*1100*4 + 400,400 = 1,526,800 B -> 15.268 us
  //   fc1, fc2  256*20,100 = 5,145,600 -> 5.1456 us; 256*200*4 + 40,400 = 245,200 B -> 2.452 us
  //   relu x3   25,600 FLOPs -> 0.0256 us; 256*200*4 = 204,800 B -> 2.048 us
  // 51.2256 + 2 * 5.1456 + 3 * 2.048 = 67.6608 us.
  EXPECT_EQ(f.recompute_bytes, 2'631'600);
  ASSERT_TRUE(d.recompute_s);
  EXPECT_NEAR(*d.recompute_s, 67.6608e-6, 1e-12);
}

// The CLI: exit status 2 for bad input, and the JSON keys of DESIGN.md.
std::string write_mlp_file() {
  auto p = std::filesystem::temp_directory_path() / ("ridge-test-mlp-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(p) << test_models::mlp_toml();
  return p.string();
}

int ridge_status(const std::string& args) { return ridge_test::run_ridge(args).status; }

TEST(MemoryCli, JsonKeysAndBadInput) {
  std::string mlp = write_mlp_file();
  auto r = ridge_test::run_ridge("memory " + mlp + " --batch 256 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  // The keys of DESIGN.md, at the values derived by hand in MlpTraining above.
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["parameters_bytes"], 525640);
  EXPECT_EQ(j["gradients_bytes"], 525640);
  EXPECT_EQ(j["optimizer_bytes"], 1051280);
  EXPECT_EQ(j["activations_bytes"], 1443840);
  EXPECT_EQ(j["peak_bytes"], 3740960);
  EXPECT_EQ(j["peak_layer"], "hidden.3.relu");
  EXPECT_EQ(ridge_status("memory " + mlp + " --checkpoint every=0"), 2);
  EXPECT_EQ(ridge_status("memory " + mlp + " --phase inference --checkpoint sqrt"), 2);
  EXPECT_EQ(ridge_status("memory " + mlp + " --precision mixed --dtype fp32"), 2);
  EXPECT_EQ(ridge_status("memory " + mlp + " --reserve 120"), 2);
  EXPECT_EQ(ridge_status("analyze " + mlp + " --precision half"), 2);
  std::filesystem::remove(mlp);
}

}  // namespace
}  // namespace ridge
