// ONNX ops of issue #28 that became new ridge layers, each against counts worked out by
// hand from the formulas stated in sim/workload/ops/ (normalization.cpp, rearrange.cpp,
// reduction.cpp, recurrent.cpp): GroupNormalization, Tile, DepthToSpace / SpaceToDepth,
// CumSum, Trilu, LSTM / GRU / RNN; quantized graphs (QDQ and the QLinear / Integer ops)
// analysed at int8; and the notes an import leaves in the model's header (a BatchNorm an
// eval-mode export folded into its conv, a relative position bias it folded).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "onnx_text.hpp"
#include "run_ridge.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge {
namespace {

using namespace onnx_test;

int64_t total_params(const Model& m) { return analyze_costs(m, RunSettings{}).totals.params; }

// x [1, 4, 2, 2]: 4 channels of 4 positions, 16 elements per sample. GroupNormalization
// in 2 groups: each group D = 2 x 4 = 8 elements, 5D + 2 = 42 for its statistics, then
// a scale and a shift per element: 2 x 42 + 2 x 16 = 116 FLOPs. Opset 18's form has a
// scale and a bias per group (2 + 2 parameters), opset 21's per channel (4 + 4).
TEST(OnnxLayers, GroupNormalizationCountsItsGroupsAndTheGraphsScale) {
  auto body = [](const std::string& dims) {
    return node("gn", "GroupNormalization", "x s b", "y", int_attr("num_groups", 2)) + init("s", dims) + init("b", dims);
  };
  Model v18 = onnx_model(onnx_text(body("2"), "1 4 2 2", 1, 18));
  ASSERT_EQ(v18.layers.size(), 1u);
  EXPECT_EQ(v18.layers[0].op, "groupnorm");
  EXPECT_EQ(v18.layers[0].counts.flops, 116);
  EXPECT_EQ(v18.layers[0].counts.params, 4);
  Model v21 = onnx_model(onnx_text(body("4"), "1 4 2 2", 1, 21));
  EXPECT_EQ(v21.layers[0].counts.flops, 116);
  EXPECT_EQ(v21.layers[0].counts.params, 8);
  EXPECT_THROW(onnx_model(onnx_text(body("3"), "1 4 2 2", 1, 21)), InputError);
}

// Tile [1, 1, 2, 3] of [4, 2, 2] -> [4, 4, 6]: 96 elements written, 16 read, no
// arithmetic; DepthToSpace by 2 of [4, 2, 2] -> [1, 4, 4] and SpaceToDepth back; CumSum
// along W (2 long): 8 lines of 1 add; Trilu: a copy.
TEST(OnnxLayers, TileDepthToSpaceCumSumAndTriluCopyOrScan) {
  const std::string body = node("tile", "Tile", "x reps", "t") + node("d2s", "DepthToSpace", "x", "d", int_attr("blocksize", 2)) +
                           node("s2d", "SpaceToDepth", "d", "s", int_attr("blocksize", 2)) +
                           node("cumsum", "CumSum", "s axis", "c") + node("tril", "Trilu", "c", "y", int_attr("upper", 0)) +
                           "initializer { name: \"reps\" data_type: 7 dims: 4 int64_data: 1 int64_data: 1 int64_data: 2 "
                           "int64_data: 3 } initializer { name: \"axis\" data_type: 7 int64_data: -1 } ";
  Model m = onnx_model(onnx_text(body));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"tile", "d2s", "s2d", "cumsum", "tril"}));
  const Layer& tile = m.layers[0];
  EXPECT_EQ(tile.output, (Shape{4, 4, 6}));
  EXPECT_EQ(tile.counts.input_elems, 16);
  EXPECT_EQ(tile.counts.output_elems, 96);
  EXPECT_EQ(tile.counts.flops, 0);
  EXPECT_EQ(m.layers[1].output, (Shape{1, 4, 4}));
  EXPECT_EQ(m.layers[2].output, (Shape{4, 2, 2}));
  EXPECT_EQ(m.layers[3].op, "cumsum");
  EXPECT_EQ(m.layers[3].counts.flops, 8);
  EXPECT_EQ(m.layers[4].op, "trilu");
  EXPECT_EQ(m.layers[4].counts.flops, 0);
  EXPECT_EQ(m.layers[4].counts.output_elems, 16);
  // Repeating the batch makes samples --batch does not count.
  EXPECT_THROW(onnx_model(onnx_text(node("tile", "Tile", "x reps", "y") +
                                    "initializer { name: \"reps\" data_type: 7 dims: 4 int64_data: 2 int64_data: 1 "
                                    "int64_data: 1 int64_data: 1 } ")),
               InputError);
}

// LSTM over X [T = 5, N = 1, I = 3], hidden 2, forward, with B: PyTorch's
// 4 (H I + H H + 2H) = 4 (6 + 4 + 4) = 56 parameters; per step 4H (I + H) = 40 MACs,
// 200 over 5 steps; FLOPs 2 x 200 + 5 x 30H = 700. Y [5, 1, 1, 2] is the layer's
// [5, 2] seen as [5, 1, 2] per sample; Squeeze drops the direction axis.
TEST(OnnxLayers, AnLstmCountsItsGatesPerStepAsPyTorch) {
  const std::string body = node("/lstm/LSTM", "LSTM", "x W R B", "Y", int_attr("hidden_size", 2)) +
                           node("/Squeeze", "Squeeze", "Y one", "y") + init("W", "1 8 3") + init("R", "1 8 2") +
                           init("B", "1 16") + "initializer { name: \"one\" data_type: 7 dims: 1 int64_data: 1 } ";
  Model m = onnx_model(onnx_text(body, "5 1 3"));
  const Layer& l = m.layers[m.find("lstm")];
  EXPECT_EQ(l.op, "lstm");
  EXPECT_EQ(l.output, (Shape{5, 2}));
  EXPECT_EQ(l.counts.params, 56);
  EXPECT_EQ(l.counts.macs, 200);
  EXPECT_EQ(l.counts.flops, 700);
  EXPECT_EQ(m.layers.back().output, (Shape{5, 2}));
  EXPECT_EQ(total_params(m), 56);
}

// torch's training-mode export builds W from the module's weight_ih_l0 (reordered gate
// slices, Concat, Unsqueeze), not as one initializer: the joined constant is [1, 8, 3],
// two [4, 3] pieces along axis 0, and the LSTM counts as the one above, without B:
// 4 (6 + 4) = 40 parameters.
TEST(OnnxLayers, AWeightJoinedFromPiecesHasItsJoinedShape) {
  const std::string body = node("/cat/Concat", "Concat", "w0 w1", "wc", int_attr("axis", 0)) +
                           node("/w/Unsqueeze", "Unsqueeze", "wc zero", "W") +
                           node("/lstm/LSTM", "LSTM", "x W R", "y", int_attr("hidden_size", 2)) + init("w0", "4 3") +
                           init("w1", "4 3") + init("R", "1 8 2") +
                           "initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: 0 } ";
  Model m = onnx_model(onnx_text(body, "5 1 3"));
  EXPECT_EQ(m.layers[m.find("lstm")].counts.params, 40);
  EXPECT_EQ(m.layers[m.find("lstm")].counts.macs, 200);
}

// A bidirectional GRU without bias, X [T = 4, N = 1, I = 3], hidden 2: 2 x 3 (H I + H H)
// = 2 x 3 x 10 = 60 parameters; 2 directions x 4 steps x 3H (I + H) = 240 MACs; FLOPs
// 480 + 8 x 17H = 752; output [4, 2 x 2]. An RNN (tanh, bias), X [3, 1, 2], hidden 4:
// H I + H H + 2H = 8 + 16 + 8 = 32 parameters, 3 x H (I + H) = 72 MACs, FLOPs 144 +
// 3 x 4H = 192.
TEST(OnnxLayers, AGruBothWaysWithoutBiasAndAnRnn) {
  Model gru = onnx_model(onnx_text(node("gru", "GRU", "x W R", "Y",
                                        int_attr("hidden_size", 2) + "attribute { name: \"direction\" type: STRING s: "
                                                                     "\"bidirectional\" } ") +
                                       node("relu", "Relu", "Y", "y") + init("W", "2 6 3") + init("R", "2 6 2"),
                                   "4 1 3"));
  const Layer& g = gru.layers[0];
  EXPECT_EQ(g.op, "gru");
  EXPECT_EQ(g.output, (Shape{4, 4}));
  EXPECT_EQ(g.counts.params, 60);
  EXPECT_EQ(g.counts.macs, 240);
  EXPECT_EQ(g.counts.flops, 752);
  EXPECT_EQ(gru.layers.back().output, (Shape{4, 2, 2}));  // Y [4, 2, N, 2] per sample
  Model rnn = onnx_model(onnx_text(node("rnn", "RNN", "x W R B", "y", int_attr("hidden_size", 4)) + init("W", "1 4 2") +
                                       init("R", "1 4 4") + init("B", "1 8"),
                                   "3 1 2"));
  EXPECT_EQ(rnn.layers[0].counts.params, 32);
  EXPECT_EQ(rnn.layers[0].counts.macs, 72);
  EXPECT_EQ(rnn.layers[0].counts.flops, 192);
}

// The same layers in a model file: torch.nn.LSTM(10, 20, num_layers=2, bidirectional=True)
// as two lstm layers. By hand: 2 x 4 (20 x 10 + 20 x 20 + 40) = 5,120 and, reading 40
// features, 2 x 4 (20 x 40 + 400 + 40) = 9,920: 15,040, what sum(p.numel() for p in
// lstm.parameters()) prints under torch 1.13. MACs over 7 steps: 7 x 2 x 80 x (10 + 20)
// = 33,600 and 7 x 2 x 80 x (40 + 20) = 67,200.
TEST(OnnxLayers, AStackedBidirectionalLstmInAModelFileHasPyTorchsParameters) {
  Model m = read_model_string(R"(name = "lstm2"
[input]
shape = [7, 10]
[[layer]]
name = "l0"
op = "lstm"
hidden_size = 20
bidirectional = true
[[layer]]
name = "l1"
op = "lstm"
hidden_size = 20
bidirectional = true
)",
                              "lstm2.toml");
  EXPECT_EQ(m.layers[0].counts.params, 5120);
  EXPECT_EQ(m.layers[1].counts.params, 9920);
  EXPECT_EQ(m.layers[0].counts.macs, 33600);
  EXPECT_EQ(m.layers[1].counts.macs, 67200);
  EXPECT_EQ(m.layers[1].output, (Shape{7, 40}));
  EXPECT_EQ(total_params(m), 15040);
}

// The last hidden state Y_h [1, N, 2] (torch's h_n), squeezed to [N, 2] for a
// classifier: a copy of the last step's 2 values, then the Gemm 2 -> 3 (6 MACs). A
// weight that does not fit the input is refused.
TEST(OnnxLayers, TheLastHiddenStateIsTheLastStepCopiedOut) {
  const std::string lstm = "node { name: \"lstm\" input: \"x\" input: \"W\" input: \"R\" output: \"Y\" output: \"h\" "
                           "op_type: \"LSTM\" " + int_attr("hidden_size", 2) + "} ";
  const std::string body = lstm + node("sq", "Squeeze", "h zero", "f") + node("fc", "Gemm", "f fw", "y", int_attr("transB", 1)) +
                           init("W", "1 8 3") + init("R", "1 8 2") + init("fw", "3 2") +
                           "initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: 0 } ";
  Model m = onnx_model(onnx_text(body, "5 1 3"));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"lstm", "lstm.Y_h", "lstm.Y_h.view", "sq", "fc"}));
  EXPECT_EQ(m.layers[1].counts.output_elems, 2);
  EXPECT_EQ(m.layers[4].counts.macs, 6);
  EXPECT_EQ(total_params(m), 4 * (6 + 4) + 6);
  EXPECT_THROW(onnx_model(onnx_text(lstm + node("r", "Relu", "h", "y") + init("W", "1 8 4") + init("R", "1 8 2"), "5 1 3")),
               InputError);
}

// Weights quantized to int8 and read through DequantizeLinear, activations through
// QuantizeLinear + DequantizeLinear (QDQ): only the Conv is a layer, its weight [2, 3,
// 3, 3] counted once (54 + 2 bias), 2 x 16 outputs x 27 = 864 MACs, and the file is int8.
TEST(OnnxLayers, AQdqGraphIsItsFloatOpsAtInt8) {
  const std::string body = node("qx", "QuantizeLinear", "x xs xz", "q") + node("dqx", "DequantizeLinear", "q xs xz", "dq") +
                           node("dqw", "DequantizeLinear", "wq ws", "w") +
                           node("conv", "Conv", "dq w b", "y", ints_attr("pads", "1 1 1 1")) + init("xs", "") +
                           init("xz", "", 3) + init("ws", "") + init("wq", "2 3 3 3", 3) + init("b", "2");
  Model m = onnx_model(onnx_text(body, "1 3 4 4"));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"conv"}));
  EXPECT_EQ(m.layers[0].counts.macs, 864);
  EXPECT_EQ(total_params(m), 56);
  ASSERT_TRUE(m.dtype.has_value());
  EXPECT_EQ(*m.dtype, DType::int8);
}

// The operator form: QLinearConv (the same conv, int32 bias) and a dynamically quantized
// MatMulInteger [5, 4] x [4, 6] = 120 MACs, its int32 result scaled back (30 FLOPs).
TEST(OnnxLayers, QLinearConvAndMatMulIntegerAreTheirFloatOps) {
  Model conv = onnx_model(onnx_text(node("conv", "QLinearConv", "x xs xz w ws wz ys yz b", "y", ints_attr("pads", "1 1 1 1")) +
                                        init("xs", "") + init("xz", "", 2) + init("w", "2 3 3 3", 3) + init("ws", "") +
                                        init("wz", "", 3) + init("ys", "") + init("yz", "", 2) + init("b", "2", 6),
                                    "1 3 4 4", 2));
  ASSERT_EQ(conv.layers.size(), 1u);
  EXPECT_EQ(conv.layers[0].op, "conv2d");
  EXPECT_EQ(conv.layers[0].counts.macs, 864);
  EXPECT_EQ(total_params(conv), 56);
  EXPECT_EQ(conv.dtype.value_or(DType::fp32), DType::int8);
  const std::string dynamic = "node { name: \"dq\" input: \"x\" output: \"q\" output: \"s\" output: \"z\" "
                              "op_type: \"DynamicQuantizeLinear\" } ";
  Model mm = onnx_model(onnx_text(dynamic + node("mm", "MatMulInteger", "q w z wz", "i") + node("cast", "Cast", "i", "c") +
                                      node("scales", "Mul", "s ws", "sc") + node("rescale", "Mul", "c sc", "y") +
                                      init("w", "4 6", 3) + init("wz", "", 3) + init("ws", ""),
                                  "1 5 4"));
  ASSERT_EQ(mm.layer_names(), (std::vector<std::string>{"mm", "rescale"}));
  EXPECT_EQ(mm.layers[0].counts.macs, 120);
  EXPECT_EQ(mm.layers[1].counts.flops, 30);
  EXPECT_EQ(total_params(mm), 24);
  EXPECT_EQ(mm.dtype.value_or(DType::fp32), DType::int8);
}

// Weights alone in int8 (the activations stay float): the math is float, and a note says so.
TEST(OnnxLayers, WeightOnlyQuantizationStaysFloatWithANote) {
  Model m = onnx_model(onnx_text(node("dqw", "DequantizeLinear", "wq ws", "w") + node("fc", "MatMul", "x w", "y") +
                                     init("wq", "4 3", 3) + init("ws", ""),
                                 "1 4"));
  EXPECT_FALSE(m.dtype.has_value());
  EXPECT_EQ(total_params(m), 12);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("1 weight tensor(s) are stored quantized"), std::string::npos) << m.notes[0];
}

// A mixed graph counts each layer's weights in its own initializer's type (issue #28):
// conv1's [8, 4, 1, 1] weight stored int8 behind a DequantizeLinear, conv2's [2, 8, 1, 1]
// fp32 and conv3's [2, 2, 1, 1] fp16, on a 1 x 4 x 2 x 2 input. The file is fp32 (17 fp32
// elements, the scale included, against 4 fp16; int8 weights alone do not make it int8).
// Forward weight bytes at inference, by hand: 32 x 1 + 16 x 4 + 4 x 2 = 104; in training,
// whose weights follow --dtype, 52 x 4 = 208. The imported file keeps the types per layer.
TEST(OnnxLayers, EachLayersWeightsCountInTheirOwnType) {
  const std::string body = node("dqw", "DequantizeLinear", "w1q w1s", "w1") + node("conv1", "Conv", "x w1", "a") +
                           node("conv2", "Conv", "a w2", "b") + node("conv3", "Conv", "b w3", "y") +
                           init("w1q", "8 4 1 1", 3) + init("w1s", "") + init("w2", "2 8 1 1") + init("w3", "2 2 1 1", 10);
  const toml::table table = onnx_table(onnx_text(body, "1 4 2 2"));
  const Model m = read_model_table(table, "t.onnx");
  EXPECT_FALSE(m.dtype.has_value());
  ASSERT_EQ(m.layers.size(), 3u);
  EXPECT_EQ(m.layers[0].weight_dtype, DType::int8);
  EXPECT_FALSE(m.layers[1].weight_dtype.has_value());
  EXPECT_EQ(m.layers[2].weight_dtype, DType::fp16);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.weight_bytes, 104);
  RunSettings training;
  training.phase = Phase::training;
  EXPECT_EQ(analyze_costs(m, training).totals.weight_bytes, 208);
  std::ostringstream file;
  file << toml::toml_formatter(table);
  EXPECT_NE(file.str().find("weight_dtype = 'int8'"), std::string::npos) << file.str();
  EXPECT_EQ(analyze_costs(read_model_string(file.str(), "t.toml"), RunSettings{}).totals.weight_bytes, 104);
}

// torch's eval-mode export folds BatchNorm(2) into the conv before it: the conv's weight
// and bias are initializers the exporter made ("onnx::Conv_*"). The module had 2 gamma
// and 2 beta, the graph 2 biases: 2 parameters fewer, which the header says; `ridge
// import` keeps the note, and the JSON report lists it.
TEST(OnnxLayers, AFoldedBatchNormIsNotedInTheHeader) {
  namespace fs = std::filesystem;
  const std::string body = node("/conv/Conv", "Conv", "x onnx::Conv_1 onnx::Conv_2", "y") + init("onnx::Conv_1", "2 3 3 3") +
                           init("onnx::Conv_2", "2");
  const std::string expected =
      "1 conv(s) carry a BatchNorm folded in by an eval-mode export (2 biases stand for its 4 gamma and beta): "
      "2 parameters fewer than the PyTorch module (as many more where it was a FrozenBatchNorm2d, whose statistics "
      "are buffers, as in torchvision's detection backbones); export in training mode to count the module";
  Model m = onnx_model(onnx_text(body, "1 3 4 4"));
  EXPECT_EQ(m.notes, std::vector<std::string>{expected});
  // A conv with the module's own weight and bias is not noted.
  EXPECT_TRUE(onnx_model(onnx_text(node("/conv/Conv", "Conv", "x conv.weight conv.bias", "y") +
                                   init("conv.weight", "2 3 3 3") + init("conv.bias", "2"),
                               "1 3 4 4"))
                  .notes.empty());
  onnx::ModelProto proto;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(onnx_text(body, "1 3 4 4"), &proto));
  const std::string stem = (fs::temp_directory_path() / ("ridge-folded-" + std::to_string(::getpid()))).string();
  std::ofstream(stem + ".onnx", std::ios::binary) << proto.SerializeAsString();
  auto text = ridge_test::run_ridge("analyze " + stem + ".onnx");
  auto json = ridge_test::run_ridge("analyze " + stem + ".onnx --format json");
  auto imported = ridge_test::run_ridge("import " + stem + ".onnx -o " + stem + ".toml");
  auto again = ridge_test::run_ridge("analyze " + stem + ".toml --format json");
  fs::remove(stem + ".onnx");
  fs::remove(stem + ".toml");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("note: 1 conv(s) carry a BatchNorm folded in"), std::string::npos) << text.out;
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["notes"][0], expected);
  ASSERT_EQ(imported.status, 0) << imported.err;
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["notes"][0], expected);
}

// Swin's relative position bias as an eval-mode export folds it: scores Q.K^T of 2 heads
// over N = 4 tokens (2 x 2 windows), plus a [1, 2, 4, 4] constant. The module's table has
// (2w - 1)^2 = 9 rows per head, 18 parameters; the graph's 2 x 4 x 4 = 32 elements are
// 14 more, which the header says. Not noted: the same constant added to a linear layer's
// output (not scores), or scores of N = 3 tokens (no square window).
TEST(OnnxLayers, AFoldedRelativePositionBiasIsNotedInTheHeader) {
  auto scores = [](const std::string& bias_dims) {
    return node("/attn/Transpose", "Transpose", "x", "kt", ints_attr("perm", "0 1 3 2")) +
           node("/attn/MatMul", "MatMul", "x kt", "s") + node("/attn/Add", "Add", "s onnx::Add_1", "y") +
           init("onnx::Add_1", bias_dims);
  };
  Model m = onnx_model(onnx_text(scores("1 2 4 4"), "1 2 4 8"));
  EXPECT_EQ(total_params(m), 32);
  EXPECT_EQ(m.notes, std::vector<std::string>{
                         "1 [heads, N, N] constant(s) added to attention scores look like relative position biases "
                         "gathered from tables and folded by an eval-mode export, as in Swin: with w x w windows (N = "
                         "w^2) a table has (2w-1)^2 rows per head, so their 32 elements stand for 18 table entries: 14 "
                         "parameters more than the PyTorch module; export in training mode to count the module"});
  EXPECT_TRUE(onnx_model(onnx_text(scores("1 2 3 3"), "1 2 3 8")).notes.empty());
  const std::string linear = node("/fc/MatMul", "MatMul", "x w", "s") + node("/fc/Add", "Add", "s onnx::Add_1", "y") +
                             init("w", "8 4") + init("onnx::Add_1", "1 2 4 4");
  EXPECT_TRUE(onnx_model(onnx_text(linear, "1 2 4 8")).notes.empty());
}

}  // namespace
}  // namespace ridge
