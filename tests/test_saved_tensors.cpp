// What forward keeps for backward, layer type by layer type, as PyTorch's autograd saves
// it (docs/guide/size-training.md, "What backward keeps"). Each expected value is worked out by hand below; the
// same small networks in PyTorch 1.13 (torch.autograd.graph.saved_tensors_hooks,
// storages counted once, plus the model output the loss reads) give the same bytes, as
// scripts/measure-saved-activations does for the zoo CNNs.
#include <gtest/gtest.h>

#include "sim/workload/memory_footprint.hpp"
#include "tests/model_text.hpp"

namespace ridge {
namespace {

RunSettings training(int64_t batch) {
  RunSettings s;
  s.batch = batch;
  s.phase = Phase::training;
  return s;
}

// conv 3x3 (3 -> 4 channels, 8x8) -> batchnorm -> ACTIVATION -> conv 1x1 (4 -> 2).
Model conv_bn_act(const std::string& activation) {
  return testing::model_of("[3, 8, 8]", R"(
[[layer]]
name = "conv"
op = "conv2d"
out_channels = 4
kernel = 3
padding = 1
[[layer]]
name = "bn"
op = "batchnorm"
[[layer]]
name = "act"
)" + activation + R"(
[[layer]]
name = "proj"
op = "conv2d"
out_channels = 2
kernel = 1
)");
}

// conv 1x1 (`channels` -> `channels`) -> LAYER -> flatten -> linear (-> `out`).
Model conv_layer_linear(const std::string& shape, int channels, const std::string& layer, int out) {
  return testing::model_of(shape, "[[layer]]\nname = \"conv\"\nop = \"conv2d\"\nkernel = 1\nout_channels = " +
                                      std::to_string(channels) + "\n[[layer]]\n" + layer +
                                      "\n[[layer]]\nname = \"flat\"\nop = \"flatten\"\n[[layer]]\nname = \"fc\"\n"
                                      "op = \"linear\"\nout_features = " + std::to_string(out) + "\n");
}

TEST(SavedTensors, InPlaceRelu6KeepsACopyOfItsInput) {
  // Per sample, fp32: the input 3x8x8 = 192 x 4 = 768 B (conv keeps it); conv's output
  // 4x8x8 = 1,024 B (bn keeps its input); bn's output, overwritten by relu6, 1,024 B
  // (proj keeps it); relu6's backward reads its input (hardtanh's select on 0 < x < 6),
  // which the in-place write destroys, so autograd keeps a copy, 1,024 B; proj's output
  // 2x8x8 = 512 B for the loss. 768 + 3 x 1,024 + 512 = 4,352 B.
  // Saved statistics: bn's mean and 1/std, 2 x 4 channels x 4 B = 32 B per step.
  // At batch 2: 2 x 4,352 + 32 = 8,736 B (PyTorch 1.13: 8,736).
  for (const char* act : {"op = \"relu6\"\ninplace = true", "op = \"relu6\""}) {
    MemoryFootprint f = memory_footprint(conv_bn_act(act), training(2), {});
    EXPECT_EQ(f.activations_per_sample, 4'352) << act;
    EXPECT_EQ(f.statistics_bytes, 32) << act;
    EXPECT_EQ(f.activations_bytes(), 8'736) << act;
  }
  // A ReLU's backward reads its output, which is proj's input: one storage, no copy.
  // 768 + 2 x 1,024 + 512 = 3,328 per sample; 2 x 3,328 + 32 = 6,688 (PyTorch: 6,688).
  MemoryFootprint relu = memory_footprint(conv_bn_act("op = \"relu\"\ninplace = true"), training(2), {});
  EXPECT_EQ(relu.activations_bytes(), 6'688);
}

TEST(SavedTensors, BatchnormStatisticsDoNotScaleWithTheBatch) {
  Model m = conv_bn_act("op = \"relu\"\ninplace = true");
  MemoryFootprint one = memory_footprint(m, training(1), {}), many = memory_footprint(m, training(64), {});
  EXPECT_EQ(one.statistics_bytes, 32);
  EXPECT_EQ(many.statistics_bytes, 32);
  EXPECT_EQ(many.activations_bytes() - one.activations_bytes(), 63 * 3'328);
  // The batch-independent part of the peak is the model part plus the statistics.
  EXPECT_EQ(one.fixed_bytes(), one.model_bytes() + 32);
  EXPECT_EQ(many.peak_bytes() - one.peak_bytes(), 63 * one.peak_per_sample);
  // Inference saves nothing.
  RunSettings eval;
  EXPECT_EQ(memory_footprint(m, eval, {}).statistics_bytes, 0);
}

TEST(SavedTensors, LocalResponseNormKeepsItsIntermediates) {
  // conv 1x1 (4 -> 4, 5x5) -> LRN (size 3) -> flatten -> linear (100 -> 2), per sample:
  // the input 100 x 4 = 400 B (conv); conv's output 400 B (LRN keeps its input); PyTorch's
  // LRN keeps the zero-padded squares (4 + 3 - 1) x 25 = 150 elements, the base
  // k + alpha/n sum 100 and its power 100: 350 x 4 = 1,400 B; LRN's output 400 B (the
  // linear keeps its input through the flatten view); the linear's output 8 B.
  // 400 + 400 + 1,400 + 400 + 8 = 2,608 B (PyTorch 1.13: 2,616, 8 B of it a saved scalar).
  Model m = conv_layer_linear("[4, 5, 5]", 4, "name = \"lrn\"\nop = \"local_response_norm\"\nsize = 3", 2);
  MemoryFootprint f = memory_footprint(m, training(1), {});
  EXPECT_EQ(f.layers[m.find("lrn")].kept_per_sample, 1'400 + 400);
  EXPECT_EQ(f.activations_per_sample, 2'608);
}

TEST(SavedTensors, AveragePoolingKeepsItsInput) {
  // conv 1x1 (2 -> 2, 4x4) -> avg_pool2d 2 -> flatten -> linear (8 -> 3), per sample: the
  // input 32 x 4 = 128 B (conv); conv's output 128 B (avg_pool2d's backward keeps `self`);
  // the pool's output 2x2x2 = 32 B (linear); the linear's output 12 B. 300 B
  // (PyTorch 1.13: 300).
  Model m = conv_layer_linear("[2, 4, 4]", 2, "name = \"pool\"\nop = \"avg_pool2d\"\nkernel = 2", 3);
  EXPECT_EQ(memory_footprint(m, training(1), {}).activations_per_sample, 300);
}

}  // namespace
}  // namespace ridge
