// Recurrent layers in a model file (lstm, gru, rnn) with input_mode = "skip", the form
// Baidu DeepBench's RNN kernels time (CUDNN_SKIP_INPUT: no input product), counted by
// hand and against DeepBench's own FLOP counts: its V100 training results
// (results/train/DeepBench_NV_V100.xlsx) give each kernel's forward time and "TERAFLOPS
// FWD", whose product is the FLOPs DeepBench counts for the kernel.
#include <gtest/gtest.h>

#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::one_layer;

// DeepBench's FLOPs for one row: TERAFLOPS FWD x Time Forward (msec), both as published.
double deepbench_flops(double teraflops, double msec) { return teraflops * 1e12 * msec * 1e-3; }

// LSTM, hidden 512, 25 steps (DeepBench's Machine Translation row, N = 16): per step and
// sample 4 gates x 512 x 512 = 1,048,576 MACs, 26,214,400 over 25 steps; parameters
// 4 (H H + 2H) = 4 (262,144 + 1,024) = 1,052,672 (no W); other FLOPs 25 x 30 x 512 =
// 384,000. DeepBench's fp32 row: 1.095 ms at 0.76608292237442921 TFLOPS = 838,860,800
// FLOPs, 2 x MACs x 16 samples: the products only.
TEST(OpsRecurrent, ADeepBenchLstmCountsTheRecurrentProductOnly) {
  Layer l = one_layer("[25, 512]", "op = \"lstm\"\nhidden_size = 512\ninput_mode = \"skip\"");
  EXPECT_EQ(l.output, (Shape{25, 512}));
  EXPECT_EQ(l.counts.macs, 26214400);
  EXPECT_EQ(l.counts.params, 1052672);
  EXPECT_EQ(l.counts.flops, 2 * 26214400 + 384000);
  EXPECT_NEAR(2.0 * static_cast<double>(l.counts.macs) * 16, deepbench_flops(0.76608292237442921, 1.095), 1.0);
}

// The same layer with a 512-wide input product (the default, input_mode = "linear"):
// 4 x 512 x (512 + 512) MACs per step, twice the skipped form.
TEST(OpsRecurrent, TheLinearInputModeAddsTheInputProduct) {
  Layer l = one_layer("[25, 512]", "op = \"lstm\"\nhidden_size = 512");
  EXPECT_EQ(l.counts.macs, 2 * 26214400);
  EXPECT_EQ(l.counts.params, 4 * (512 * 512 + 512 * 512 + 1024));
}

// GRU, hidden 2816, 1500 steps (DeepSpeech, N = 32): 3 x 2816 x 2816 = 23,789,568 MACs
// per step (the reset gate multiplies R h after the product, as cuDNN and PyTorch do),
// 35,684,352,000 over the steps. DeepBench: 223.343 ms at 10.22552096103303 TFLOPS =
// 2,283,798,528,000 FLOPs = 2 x MACs x 32.
TEST(OpsRecurrent, ADeepBenchGruMatchesDeepBenchsCount) {
  Layer l = one_layer("[1500, 2816]", "op = \"gru\"\nhidden_size = 2816\ninput_mode = \"skip\"");
  EXPECT_EQ(l.counts.macs, 35684352000);
  EXPECT_NEAR(2.0 * static_cast<double>(l.counts.macs) * 32, deepbench_flops(10.22552096103303, 223.343), 1e3);
}

// Vanilla (ReLU) RNN, hidden 1760, 50 steps (DeepSpeech, N = 16): 1760 x 1760 =
// 3,097,600 MACs per step, 154,880,000 over 50. DeepBench counts 2H^2 + H FLOPs per step
// and sample (the products and one add): 4.201 ms at 1.1800923589621519 TFLOPS =
// 4,957,568,000 = (2 x 154,880,000 + 50 x 1760) x 16. ridge's other FLOPs per step are
// 4H (the sum, two biases, the ReLU).
TEST(OpsRecurrent, ADeepBenchVanillaRnnMatchesDeepBenchsCountPlusItsAdd) {
  Layer l = one_layer("[50, 1760]", "op = \"rnn\"\nhidden_size = 1760\nnonlinearity = \"relu\"\ninput_mode = \"skip\"");
  EXPECT_EQ(l.counts.macs, 154880000);
  EXPECT_EQ(l.counts.flops, 2 * 154880000 + 50 * 4 * 1760);
  EXPECT_NEAR((2.0 * static_cast<double>(l.counts.macs) + 50 * 1760) * 16, deepbench_flops(1.1800923589621519, 4.201),
              1e3);
}

// The weights are read once per layer, not once per step (a persistent kernel's least
// traffic; the roofline stays a bound): 25 steps read the same bytes as one.
TEST(OpsRecurrent, WeightsAreCountedOncePerSequence) {
  Layer one = one_layer("[1, 512]", "op = \"lstm\"\nhidden_size = 512\ninput_mode = \"skip\"");
  Layer many = one_layer("[25, 512]", "op = \"lstm\"\nhidden_size = 512\ninput_mode = \"skip\"");
  EXPECT_EQ(one.counts.weight_elems, many.counts.weight_elems);
  EXPECT_EQ(many.counts.macs, 25 * one.counts.macs);
}

}  // namespace
}  // namespace ridge
