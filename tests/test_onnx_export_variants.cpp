// ONNX files made the other ways users export them (scripts/onnx-variants tries them on
// torch exports): each graph here is a small one scripts/make-test-onnx writes with the
// construct an export mode produces, its counts worked out by hand.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

const std::string kDir = "tests/data/onnx/";

// A causal mask torch.tril(torch.ones(T, T)) exported at opset 14+ is a Trilu of a
// constant: a constant itself, not a layer. Per sample: scores [4, 4] = tokens [4, 8] x
// [8, 4]: 4 x 8 x 4 = 128 MACs; the Where one select per score (16) and the softmax over
// 4 rows of 4.
TEST(OnnxExportVariants, TriluOfAConstantIsAConstant) {
  Model m = load_model(kDir + "causal-mask.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"score", "Where", "Softmax"}));
  EXPECT_EQ(m.layers[0].counts.macs, 128);
  EXPECT_EQ(m.layers[0].counts.params, 32);
  EXPECT_EQ(m.layers[1].output, (Shape{4, 4}));
  RunSettings s;
  s.batch = 2;
  EXPECT_EQ(analyze_costs(m, s).totals.macs, 2 * 128);
}

// An fp16 file's constants are fp16 too: the LayerNorm chain's exponent 2 and eps are
// read from their 16-bit patterns, so the chain is one layernorm (7 x 16 + 2 = 114 FLOPs
// per row, 5 rows) and the Pow is not refused. Parameters: LN 2 x 16, fc 16 x 8 = 160,
// stored in fp16 (the file's type is the run's default): 320 bytes. fc: 5 x 16 x 8 = 640 MACs.
TEST(OnnxExportVariants, Fp16ConstantsAreRead) {
  Model m = load_model(kDir + "layernorm-fp16.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"ln", "fc"}));
  EXPECT_EQ(m.layers[0].op, "layernorm");
  EXPECT_EQ(m.layers[0].counts.flops, 5 * 114);
  EXPECT_EQ(m.layers[1].counts.macs, 640);
  ASSERT_TRUE(m.dtype.has_value());
  EXPECT_EQ(*m.dtype, DType::fp16);
  RunSettings s;
  s.dtype = *m.dtype;
  EXPECT_EQ(analyze_costs(m, s).totals.weight_bytes, 2 * 160);
}

// nn.LSTM without batch_first reads [T, N, I]; a language model gathers it from token ids
// [T, N], so the ids' batch is their axis 1 too. Per sample (T = 5): the LSTM's gates
// 4 H (I + H) = 4 x 3 x (4 + 3) = 84 MACs a step, 420; the head 5 x 3 x 10 = 150.
// Parameters: embedding 10 x 4 = 40, W 12 x 4 = 48, R 12 x 3 = 36, B 24, head 30: 178.
TEST(OnnxExportVariants, SequenceFirstIdsOfAnLstm) {
  Model m = load_model(kDir + "lstm-sequence-first.onnx");
  EXPECT_EQ(m.input, (Shape{5}));
  RunSettings s;
  s.batch = 2;
  const LayerCost t = analyze_costs(m, s).totals;
  EXPECT_EQ(t.macs, 2 * (420 + 150));
  EXPECT_EQ(t.params, 178);
}

// A graph whose shapes hold the batch it was exported at (2: the Reshape to [8, 8] rows
// of 2 x 4 tokens) fits no other batch: the whole [2, 4, 8] input is one sample, said
// in a note. fc1: 2 x 4 x 8 x 8 = 512 MACs, fc2: 8 x 8 x 4 = 256.
TEST(OnnxExportVariants, ABatchFixedInTheShapesIsOneSample) {
  Model m = load_model(kDir + "fixed-batch.onnx");
  EXPECT_EQ(m.input, (Shape{2, 4, 8}));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"fc1", "Reshape", "fc2"}));
  EXPECT_EQ(m.layers[0].counts.macs, 512);
  EXPECT_EQ(m.layers[2].counts.macs, 256);
  bool noted = false;
  for (const std::string& n : m.notes) noted |= n.find("hold the batch of 2") != std::string::npos;
  EXPECT_TRUE(noted);
}

// export_params=False: the parameters are graph inputs without values. Read where
// weights go (or added, as a position map), they are parameters: conv 4 x 3 x 9 + 4 =
// 112, the map 4 x 8 x 8 = 256, fc 2 x 4 = 8: 376. MACs: conv 8 x 8 x 4 x 27 = 6,912, fc 8.
TEST(OnnxExportVariants, ParametersExportedAsInputs) {
  Model m = load_model(kDir + "params-as-inputs.onnx");
  EXPECT_EQ(m.input, (Shape{3, 8, 8}));
  const LayerCost t = analyze_costs(m, RunSettings{}).totals;
  EXPECT_EQ(t.params, 376);
  EXPECT_EQ(t.macs, 6912 + 8);
  bool noted = false;
  for (const std::string& n : m.notes) noted |= n.find("4 graph input(s) without values") != std::string::npos;
  EXPECT_TRUE(noted);
}

// torch.matmul broadcasting: x [1, 10, 16] (per sample) @ a per-head weight [4, 16, 8]
// is [4, 10, 8], 4 x 10 x 16 x 8 = 5,120 MACs; V [6, 10] on the left of that, [4, 6, 8],
// 4 x 6 x 10 x 8 = 1,920; x's first 8 columns transposed [1, 8, 10] times [10, 3],
// 8 x 10 x 3 = 240; [4, 6, 8] @ [1, 8, 3] (two activations, broadcast) [4, 6, 3],
// 4 x 6 x 8 x 3 = 576. Parameters 4 x 16 x 8 + 6 x 10 + 10 x 3 = 602.
TEST(OnnxExportVariants, BroadcastMatMuls) {
  Model m = load_model(kDir + "batched-weight.onnx");
  ASSERT_TRUE(m.find("heads") >= 0 && m.find("mix") >= 0 && m.find("out") >= 0);
  const Layer* heads = &m.layers[m.find("heads")];
  const Layer* mix = &m.layers[m.find("mix")];
  const Layer* out = &m.layers[m.find("out")];
  EXPECT_EQ(heads->output, (Shape{4, 10, 8}));
  EXPECT_EQ(heads->counts.macs, 5120);
  EXPECT_EQ(mix->output, (Shape{4, 6, 8}));
  EXPECT_EQ(mix->counts.macs, 1920);
  EXPECT_EQ(out->output, (Shape{4, 6, 3}));
  EXPECT_EQ(out->counts.macs, 576);
  const LayerCost t = analyze_costs(m, RunSettings{}).totals;
  EXPECT_EQ(t.macs, 5120 + 1920 + 240 + 576);
  EXPECT_EQ(t.params, 602);
}

// An eval-mode export writes a tied head's weight as a new initializer, the embedding's
// transpose: it holds the same values, so the head is tied to the embedding and the
// 10 x 6 matrix counts once. The second head's values differ: its own 60. Parameters
// 60 + 60 = 120; MACs 2 heads x 4 x 6 x 10 = 480.
TEST(OnnxExportVariants, ATransposedCopyOfTheEmbeddingIsTied) {
  Model m = load_model(kDir + "tied-head-eval.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"wte", "lm_head", "other"}));
  EXPECT_EQ(m.layers[1].counts.params, 0);
  EXPECT_EQ(m.layers[2].counts.params, 60);
  const LayerCost t = analyze_costs(m, RunSettings{}).totals;
  EXPECT_EQ(t.params, 120);
  EXPECT_EQ(t.macs, 480);
}

// The same for a CNN (a channel shuffle holding the batch of 2): the convolution, the
// BatchNorm and the pools read the sample's 2 images stacked (`images = 2`). conv:
// 2 x 8 x 8 x 4 x 27 = 13,824 MACs; parameters 108 + 8 (BN scale and shift) = 116.
TEST(OnnxExportVariants, AFixedBatchCnnStacksItsImages) {
  Model m = load_model(kDir + "fixed-batch-cnn.onnx");
  EXPECT_EQ(m.input, (Shape{2, 3, 8, 8}));
  ASSERT_GE(m.find("conv"), 0);
  EXPECT_EQ(m.layers[m.find("conv")].counts.macs, 13824);
  const LayerCost t = analyze_costs(m, RunSettings{}).totals;
  EXPECT_EQ(t.macs, 13824);
  EXPECT_EQ(t.params, 116);
  ASSERT_GE(m.find("avgpool"), 0);
  EXPECT_EQ(m.layers[m.find("avgpool")].output, (Shape{2, 4, 1, 1}));
}

}  // namespace
}  // namespace ridge
