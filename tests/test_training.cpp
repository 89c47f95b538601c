// Training costs (docs/guide/size-training.md, "Training costs"): backward MACs, FLOPs and bytes, the
// optimizer update, mixed precision, and the work handed to hardware models. Every
// expected value is worked out by hand in the comment beside it.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_reader.hpp"
#include "tests/training_models.hpp"

namespace ridge {
namespace {

RunSettings training(int64_t batch, Optimizer opt = Optimizer::adam, DType dt = DType::fp32,
                     Precision p = Precision::uniform) {
  RunSettings s;
  s.batch = batch;
  s.phase = Phase::training;
  s.optimizer = opt;
  s.dtype = dt;
  s.precision = p;
  return s;
}

// Two 3x3 convolutions (padding 1) on a 3x8x8 input: conv1 reads only the model input.
// Forward MACs: conv1 8*8 outputs * 3*3*3 * 4 channels = 6,912; conv2 8*8 * 4*3*3 * 4 = 9,216.
const char* kTwoConvs = R"(name = "two-convs"
[input]
shape = [3, 8, 8]
[[layer]]
name = "conv1"
op = "conv2d"
out_channels = 4
kernel = 3
padding = 1
[[layer]]
name = "relu1"
op = "relu"
inplace = true
[[layer]]
name = "conv2"
op = "conv2d"
out_channels = 4
kernel = 3
padding = 1
)";

TEST(TrainingCosts, ConvBackwardIsTwiceForwardExceptTheFirstLayer) {
  Model m = read_model_string(kTwoConvs, "two-convs.toml");
  CostAnalysis c = analyze_costs(m, training(2));
  const LayerCost& conv1 = c.layers[m.find("conv1")];
  const LayerCost& conv2 = c.layers[m.find("conv2")];
  EXPECT_EQ(conv1.macs, 2 * 6'912);
  EXPECT_EQ(conv1.backward_input_macs, 0);  // no gradient for the model's input
  EXPECT_EQ(conv1.backward_weight_macs, 2 * 6'912);
  EXPECT_EQ(conv1.backward_macs, 1 * conv1.macs);
  EXPECT_EQ(conv2.backward_input_macs, 2 * 9'216);
  EXPECT_EQ(conv2.backward_weight_macs, 2 * 9'216);
  EXPECT_EQ(conv2.backward_macs, 2 * conv2.macs);
  // Backward FLOPs of conv2: 2 x MACs + the bias gradient (one add per output element,
  // 4*8*8 = 256 per sample): 2 * (2*18,432 + 256) = 74,240.
  EXPECT_EQ(conv2.backward_flops, 74'240);
}

// A 1x1 stride-2 convolution after a ReLU (so it has an input gradient) on [4, 8, 8]:
// output [2, 4, 4]; its windows read 4 channels x 4 x 4 = 64 of the 256 input elements.
const char* kStridedPointwise = R"(name = "strided-pointwise"
[input]
shape = [4, 8, 8]
[[layer]]
name = "relu"
op = "relu"
[[layer]]
name = "down"
op = "conv2d"
out_channels = 2
kernel = 1
stride = 2
bias = false
)";

TEST(TrainingCosts, AStridedPointwiseConvReadsTheSampledInputAndWritesAWholeGradient) {
  Model m = read_model_string(kStridedPointwise, "strided-pointwise.toml");
  CostAnalysis c = analyze_costs(m, training(2, Optimizer::sgd));
  const LayerCost& down = c.layers[m.find("down")];
  EXPECT_EQ(down.input_bytes, 2 * 64 * 4);  // forward: the 64 sampled elements per sample, fp32
  // Backward reads the output gradient (32) and the saved input's sampled elements (64):
  // 2 x 96 x 4 B; it writes the input gradient whole (256 per sample, zeros between samples).
  EXPECT_EQ(down.backward_input_bytes, 2 * 96 * 4);
  EXPECT_EQ(down.backward_output_bytes, 2 * 256 * 4);
}

TEST(TrainingCosts, MlpBackwardMacsAndBytes) {
  Model m = test_models::mlp();
  CostAnalysis c = analyze_costs(m, training(256));
  // hidden.0.fc (first layer): weight gradient only, 1000*100 MACs per sample.
  const LayerCost& fc0 = c.layers[m.find("hidden.0.fc")];
  EXPECT_EQ(fc0.backward_input_macs, 0);
  EXPECT_EQ(fc0.backward_weight_macs, 256 * 100'000);
  // Reads the output gradient (100) and the saved input (1000) per sample:
  // 256 * 1100 * 4 B = 1,126,400; writes no input gradient; no weight read (no input
  // gradient), writes the weight gradient: 100,100 * 4 = 400,400.
  EXPECT_EQ(fc0.backward_input_bytes, 1'126'400);
  EXPECT_EQ(fc0.backward_output_bytes, 0);
  EXPECT_EQ(fc0.backward_weight_bytes, 400'400);

  // hidden.1.fc: both gradients, 100*100 MACs each per sample.
  const LayerCost& fc1 = c.layers[m.find("hidden.1.fc")];
  EXPECT_EQ(fc1.backward_input_macs, 256 * 10'000);
  EXPECT_EQ(fc1.backward_weight_macs, 256 * 10'000);
  // Reads output gradient (100) + saved input (100): 256 * 200 * 4 = 204,800; writes the
  // input gradient 256 * 100 * 4 = 102,400; reads weights and writes their gradient:
  // 2 * 10,100 * 4 = 80,800.
  EXPECT_EQ(fc1.backward_input_bytes, 204'800);
  EXPECT_EQ(fc1.backward_output_bytes, 102'400);
  EXPECT_EQ(fc1.backward_weight_bytes, 80'800);

  // In-place ReLU: reads the output gradient and its saved output, 256 * 200 * 4;
  // writes the input gradient 256 * 100 * 4; 1 FLOP per element (a select).
  const LayerCost& relu = c.layers[m.find("hidden.1.relu")];
  EXPECT_EQ(relu.backward_input_bytes, 204'800);
  EXPECT_EQ(relu.backward_output_bytes, 102'400);
  EXPECT_EQ(relu.backward_flops, 256 * 100);

  // Totals: MACs 100,000 (fc0 weight grad) + 3 * 20,000 + 2 * 1,000 (out) = 162,000 per sample.
  EXPECT_EQ(c.totals.backward_macs, 256 * 162'000);
}

TEST(TrainingCosts, OptimizerUpdateTraffic) {
  Model m = test_models::mlp();
  const int64_t P = 131'410;
  // fp32 per parameter: read gradient 4 + read and write weights 8 = 12 (sgd);
  // momentum + read and write velocity 8 = 20; adam / adamw + m and v 16 = 28.
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::sgd)).totals.update_bytes, P * 12);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::momentum)).totals.update_bytes, P * 20);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::adam)).totals.update_bytes, P * 28);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::adamw)).totals.update_bytes, P * 28);
  // FLOPs per parameter: sgd 2, momentum 4, adam 12, adamw 14 (run_settings.hpp).
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::sgd)).totals.update_flops, P * 2);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::momentum)).totals.update_flops, P * 4);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::adam)).totals.update_flops, P * 12);
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::adamw)).totals.update_flops, P * 14);
  // The update does not depend on the batch.
  EXPECT_EQ(analyze_costs(m, training(256, Optimizer::adam)).totals.update_bytes, P * 28);
  // Mixed fp16 adam: gradient 2 + master read and write 8 + fp16 copy written 2 + m, v
  // read and written in fp32 16 = 28.
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::adam, DType::fp16, Precision::mixed)).totals.update_bytes, P * 28);
  // Mixed sgd: 2 + 8 + 2 = 12.
  EXPECT_EQ(analyze_costs(m, training(1, Optimizer::sgd, DType::bf16, Precision::mixed)).totals.update_bytes, P * 12);
  // Inference has no update.
  RunSettings inf;
  EXPECT_EQ(analyze_costs(m, inf).totals.update_bytes, 0);
}

TEST(TrainingCosts, MixedPrecisionBytesPerParameter) {
  // Adam mixed: 2 (fp16 weights) + 2 (grads) + 4 (master) + 8 (m, v) = 16.
  EXPECT_EQ(byte_sizes(training(1, Optimizer::adam, DType::fp16, Precision::mixed)).per_param_training(), 16);
  // Momentum mixed: 2 + 2 + 4 + 4 = 12; sgd mixed: 2 + 2 + 4 = 8.
  EXPECT_EQ(byte_sizes(training(1, Optimizer::momentum, DType::bf16, Precision::mixed)).per_param_training(), 12);
  EXPECT_EQ(byte_sizes(training(1, Optimizer::sgd, DType::fp16, Precision::mixed)).per_param_training(), 8);
  // Uniform fp32: adam 4 + 4 + 8 = 16; sgd 4 + 4 = 8; uniform fp16 adam 2 + 2 + 4 = 8.
  EXPECT_EQ(byte_sizes(training(1, Optimizer::adam)).per_param_training(), 16);
  EXPECT_EQ(byte_sizes(training(1, Optimizer::sgd)).per_param_training(), 8);
  EXPECT_EQ(byte_sizes(training(1, Optimizer::adam, DType::fp16)).per_param_training(), 8);
  // Mixed precision: activations in the half type.
  Model m = test_models::mlp();
  CostAnalysis c = analyze_costs(m, training(256, Optimizer::adam, DType::fp16, Precision::mixed));
  EXPECT_EQ(c.layers[m.find("hidden.1.fc")].backward_output_bytes, 256 * 100 * 2);
}

TEST(TrainingCosts, LayerWorkSumsForwardBackwardAndUpdate) {
  Model m = test_models::mlp();
  CostAnalysis c = analyze_costs(m, training(256, Optimizer::sgd));
  std::vector<LayerWork> w = layer_work(m, c);
  int i = m.find("hidden.1.fc");
  // Timed FLOPs: forward 256 * 2*10,000 = 5,120,000 (the 256 * 100 bias adds run in the
  // fused epilogue); backward 256 * (2*20,000 + 100 bias-gradient adds) = 10,265,600; sgd
  // update 2 * 10,100 = 20,200. Sum 15,405,800.
  EXPECT_DOUBLE_EQ(w[i].flops, 15'405'800.0);
  EXPECT_DOUBLE_EQ(w[i].epilogue_flops, 25'600.0);
  // Activations read: forward input 102,400 + backward 204,800; written: forward output
  // 102,400 + input gradient 102,400.
  EXPECT_DOUBLE_EQ(w[i].input_bytes, 307'200.0);
  EXPECT_DOUBLE_EQ(w[i].output_bytes, 204'800.0);
  // Weight side: forward 40,400 + backward 80,800 + sgd update 10,100 * 12 = 121,200.
  EXPECT_DOUBLE_EQ(w[i].weight_bytes, 242'400.0);
  EXPECT_EQ(w[i].kernels, 3);  // forward, backward, update
  EXPECT_EQ(w[m.find("hidden.1.relu")].kernels, 2);  // no parameters, no update
}

}  // namespace
}  // namespace ridge
