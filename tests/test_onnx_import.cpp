// ONNX import against counts worked out by hand for the small graphs that
// scripts/make-test-onnx writes (tests/data/onnx/), the torchvision resnet50 graph
// (shapes only) against torchvision's published parameter count and the zoo's
// resnet50 layer by layer, `ridge import` reading back to the same numbers, and every
// class of bad ONNX input exiting 2 with a message naming the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "run_ridge.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {
namespace {

const std::string kDir = "tests/data/onnx/";

int64_t total_params(const Model& m) {
  int64_t p = 0;
  for (const Layer& l : m.layers) p += l.counts.params;
  return p;
}

TEST(OnnxImport, TinyCnnCountsByHand) {
  Model m = load_model(kDir + "tiny-cnn.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"conv1", "bn1", "relu", "maxpool", "avgpool", "Flatten", "fc"}));
  EXPECT_EQ(m.input, (Shape{3, 8, 8}));  // the batch axis N is --batch's
  const Layer& conv = m.layers[0];
  EXPECT_EQ(conv.output, (Shape{4, 8, 8}));
  EXPECT_EQ(conv.counts.macs, 8 * 8 * 4 * 3 * 9);     // 6,912
  EXPECT_EQ(conv.counts.params, 4 * 3 * 9 + 4);        // weight + bias
  EXPECT_EQ(m.layers[1].counts.params, 8);             // BN scale and shift; running stats are not parameters
  EXPECT_EQ(m.layers[3].output, (Shape{4, 4, 4}));     // max pool 2x2 stride 2
  EXPECT_EQ(m.layers[6].counts.macs, 4 * 2);
  EXPECT_EQ(total_params(m), 112 + 8 + 10);
  RunSettings s;
  s.batch = 3;
  EXPECT_EQ(analyze_costs(m, s).totals.macs, 3 * (6912 + 8));
}

// A training-mode export keeps Dropout (ratio and training_mode as Constant nodes): it is
// ridge's dropout layer, which training counts; one with training_mode false is ONNX's
// identity and passes its input on. Saved per sample, fp32: fc1's input 8 x 4 = 32 B,
// ReLU's output 64 B, the mask 16 x 1 B, fc2's input (dropout's output, a new tensor)
// 64 B, and the model's output for the loss 16 B: 192 B. Without the dropout fc2 would
// read ReLU's saved output, and 112 B: squeezenet1_1 imported so was 0.42 % under
// PyTorch's autograd (scripts/measure-saved-activations).
TEST(OnnxImport, DropoutOfATrainingExportIsADropoutLayer) {
  Model m = load_model(kDir + "dropout-head.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"fc1", "relu", "drop", "fc2"}));
  const Layer& drop = m.layers[2];
  EXPECT_EQ(drop.op, "dropout");
  EXPECT_EQ(drop.counts.saved_aux_bytes, 16);
  EXPECT_TRUE(drop.counts.identity_at_inference);
  RunSettings s;
  s.phase = Phase::training;
  s.batch = 2;
  EXPECT_EQ(memory_footprint(m, s, {}).activations_bytes(), 2 * 192);
}

TEST(OnnxImport, BroadcastingLearnedTensorsAndConstants) {
  Model m = load_model(kDir + "se-block.onnx");
  // x [4,8,8] * s [4,1,1]: 256 multiplies; a learned [4,1,1] layer_scale is a parameter
  // (4 params) added by broadcasting; x - 0.5 is one op per element, no parameter.
  const Layer& se = m.layers[m.find("se")];
  EXPECT_EQ(se.op, "mul");
  EXPECT_EQ(se.counts.flops, 256);
  EXPECT_EQ(se.counts.input_elems, 256 + 4);
  EXPECT_EQ(m.layers[m.find("layer_scale")].counts.params, 4);
  EXPECT_EQ(m.layers[m.find("Add")].counts.flops, 256);
  EXPECT_EQ(m.layers[m.find("Sub")].counts.flops, 256);
  EXPECT_EQ(m.layers[m.find("se.scale_activation")].op, "hardsigmoid");
  EXPECT_EQ(total_params(m), 12 + 20 + 4);  // conv 4*3, se.fc 4*4 + 4, layer_scale 4
}

TEST(OnnxImport, GeluChainCostsTheFusedGeluAndShapesFold) {
  Model m = load_model(kDir + "gelu-chain.onnx");
  // tokens [5, 16] x [16, 32]: 2,560 MACs; the bias [32] is a parameter added by broadcast.
  EXPECT_EQ(m.layers[m.find("fc")].counts.macs, 5 * 16 * 32);
  EXPECT_EQ(total_params(m), 16 * 32 + 32);
  // Div, Erf, Add, Mul, Mul over 160 elements is recognised as one gelu: 5 FLOPs each.
  EXPECT_EQ(m.layers[m.find("act")].op, "gelu");
  int64_t act = 0;
  for (const Layer& l : m.layers)
    if (l.name.rfind("act", 0) == 0) act += l.counts.flops;
  EXPECT_EQ(act, 5 * 160);
  // Shape -> Gather -> Unsqueeze -> Concat -> Reshape folds to [N, 5, 4, 8]; the transpose keeps N first.
  EXPECT_EQ(m.layers[m.find("Reshape")].output, (Shape{5, 4, 8}));
  EXPECT_EQ(m.layers.back().output, (Shape{4, 5, 8}));
}

TEST(OnnxImport, TransposedConvInstanceNormResizeAndAFoldedPad) {
  Model m = load_model(kDir + "upsample-block.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"up", "norm", "up2", "down", "pool"}));
  // ConvTranspose 3 -> 4, k3, stride 2, pads 1, output_padding 1 on 8x8:
  // Ho = (8 - 1) * 2 - 2 * 1 + (3 - 1) + 1 + 1 = 16. Each of the 3 * 8 * 8 input
  // elements is multiplied into 4 * 3 * 3 outputs: 6,912 MACs; weight 3 * 4 * 9 + bias 4.
  const Layer& up = m.layers[0];
  EXPECT_EQ(up.op, "conv_transpose2d");
  EXPECT_EQ(up.output, (Shape{4, 16, 16}));
  EXPECT_EQ(up.counts.macs, 3 * 8 * 8 * 4 * 3 * 3);
  EXPECT_EQ(up.counts.params, 3 * 4 * 9 + 4);
  // InstanceNorm over 16 * 16 = 256 positions per channel: 7 * 256 + 2 per channel; 2 * 4 params.
  EXPECT_EQ(m.layers[1].counts.flops, 4 * (7 * 256 + 2));
  EXPECT_EQ(m.layers[1].counts.params, 8);
  // Resize x2 nearest: a copy to 32x32; to 8x8 bilinear: 7 FLOPs per output element.
  EXPECT_EQ(m.layers[2].output, (Shape{4, 32, 32}));
  EXPECT_EQ(m.layers[2].counts.flops, 0);
  EXPECT_EQ(m.layers[3].output, (Shape{4, 8, 8}));
  EXPECT_EQ(m.layers[3].counts.flops, 7 * 4 * 8 * 8);
  // Pad 1 + AveragePool 3x3 stride 1 is the pool with padding 1: 8x8 stays 8x8 (6x6 unpadded).
  EXPECT_EQ(m.layers[4].output, (Shape{4, 8, 8}));
  EXPECT_EQ(total_params(m), 112 + 8);
}

TEST(OnnxImport, VideoBlockOverThreeSpatialAxes) {
  // scripts/make-test-onnx's video_block, on a clip [3, 4, 8, 8] (C, D, H, W).
  Model m = load_model(kDir + "video-block.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"conv", "bn", "relu", "pool", "up", "down", "gap"}));
  // Pad 1 on D, H, W + Conv 3x3x3 3 -> 8: [8, 4, 8, 8] = 2,048 outputs of 3 x 27 = 81 MACs;
  // 8 x 81 weights + 8 biases.
  EXPECT_EQ(m.layers[0].op, "conv3d");
  EXPECT_EQ(m.layers[0].output, (Shape{8, 4, 8, 8}));
  EXPECT_EQ(m.layers[0].counts.macs, 2048 * 81);
  EXPECT_EQ(m.layers[0].counts.params, 656);
  EXPECT_EQ(m.layers[1].counts.params, 16);          // BatchNorm3d: 2 per channel
  EXPECT_EQ(m.layers[1].counts.flops, 2 * 2048);
  // MaxPool 1x2x2: [8, 4, 4, 4] = 512 windows of 4, 3 compares each.
  EXPECT_EQ(m.layers[3].op, "max_pool3d");
  EXPECT_EQ(m.layers[3].counts.flops, 512 * 3);
  // ConvTranspose k2 stride 2 8 -> 4: every axis doubles, [4, 8, 8, 8]; each of the 512
  // inputs is multiplied into 4 x 8 outputs; 8 x 4 x 8 weights + 4 biases.
  EXPECT_EQ(m.layers[4].op, "conv_transpose3d");
  EXPECT_EQ(m.layers[4].output, (Shape{4, 8, 8, 8}));
  EXPECT_EQ(m.layers[4].counts.macs, 512 * 32);
  EXPECT_EQ(m.layers[4].counts.params, 260);
  // Trilinear Resize to [4, 4, 4, 4]: 8 multiplies + 7 adds for each of 256 outputs.
  EXPECT_EQ(m.layers[5].output, (Shape{4, 4, 4, 4}));
  EXPECT_EQ(m.layers[5].counts.flops, 15 * 256);
  EXPECT_EQ(m.layers[6].op, "global_avg_pool3d");
  EXPECT_EQ(m.layers[6].counts.flops, 256);
  EXPECT_EQ(total_params(m), 656 + 16 + 260);
}

TEST(OnnxImport, LayerNormChainEinsumAndWhere) {
  Model m = load_model(kDir + "attention-ops.onnx");
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"ln", "q", "k", "scores", "mask", "softmax", "context"}));
  // The opset-13 LayerNorm chain (ReduceMean .. Add beta) is one layernorm: 5 rows of
  // D = 16 at 7D + 2 each, gamma and beta 2 * 16 parameters.
  EXPECT_EQ(m.layers[0].op, "layernorm");
  EXPECT_EQ(m.layers[0].counts.flops, 5 * (7 * 16 + 2));
  EXPECT_EQ(m.layers[0].counts.params, 32);
  // Einsum by a [16, 16] weight, read as [in, out] or [out, in]: linear, 5 * 16 * 16 MACs.
  for (int i : {1, 2}) {
    EXPECT_EQ(m.layers[i].op, "linear");
    EXPECT_EQ(m.layers[i].counts.macs, 5 * 16 * 16);
    EXPECT_EQ(m.layers[i].counts.params, 16 * 16);
  }
  // bid,bjd->bij: q . k^T, 5 * 5 * 16 MACs; bij,bjd->bid: 5 * 16 * 5 MACs.
  EXPECT_EQ(m.layers[3].op, "matmul");
  EXPECT_EQ(m.layers[3].output, (Shape{5, 5}));
  EXPECT_EQ(m.layers[3].counts.macs, 5 * 5 * 16);
  EXPECT_EQ(m.layers[6].output, (Shape{5, 16}));
  EXPECT_EQ(m.layers[6].counts.macs, 5 * 16 * 5);
  // Where(constant mask, scores, -inf): one operation per score.
  EXPECT_EQ(m.layers[4].counts.flops, 25);
  EXPECT_EQ(total_params(m), 32 + 2 * 256);
}

TEST(OnnxImport, VitFollowsTheBatchThroughMultiheadAttention) {
  // torchvision VisionTransformer(image_size=32, patch_size=16, num_layers=1, num_heads=2,
  // hidden_dim=8, mlp_dim=16, num_classes=3), exported by `scripts/onnx-zoo --test-files`:
  // 6,843 parameters (sum of the module's p.numel()). nn.MultiheadAttention works on
  // [S, N, E] and [S, N x heads, d]: per sample the scores are [heads 2, 5, 5].
  Model m = load_model(kDir + "vit-tiny.onnx");
  EXPECT_EQ(total_params(m), 6'843);
  // MACs by hand, S = 4 patches + class token = 5, E = 8, d = 4: patch conv 4 * 8 * 3*16*16
  // = 24,576; qkv 5*8*24 = 960; scores and context 2 heads * 5*5*4 each = 200 + 200;
  // out_proj 5*8*8 = 320; MLP 5*8*16 * 2 = 1,280; head 8*3 = 24.
  CostAnalysis one = analyze_costs(m, RunSettings{});
  EXPECT_EQ(one.totals.macs, 24'576 + 960 + 200 + 200 + 320 + 1'280 + 24);
  bool scores = false;
  for (const Layer& l : m.layers)
    if (l.op == "matmul" && l.output == Shape{2, 5, 5}) scores = true;
  EXPECT_TRUE(scores);
  RunSettings three;
  three.batch = 3;
  EXPECT_EQ(analyze_costs(m, three).totals.macs, 3 * one.totals.macs);
}

TEST(OnnxImport, SwinFollowsTheBatchMergedWithTheWindows) {
  // torchvision SwinTransformer(patch_size=[4, 4], embed_dim=8, depths=[2], num_heads=[2],
  // window_size=[4, 4], num_classes=3) on 32x32 (`scripts/onnx-zoo --test-files`): 2,391
  // parameters, the relative position bias tables (7*7 x 2 each) included once each and
  // the shifted block's attention mask not at all.
  Model m = load_model(kDir + "swin-tiny.onnx");
  EXPECT_EQ(total_params(m), 2'391);
  // The 8x8 grid in 4 windows of 16 tokens, merged with the batch: per sample the scores are
  // [windows 4, heads 2, 16, 16]. MACs: patch conv 64 * 8 * 48 = 24,576; per block qkv
  // 64*8*24 = 12,288, scores and context 4*2*16*16*4 = 8,192 each, proj 64*8*8 = 4,096,
  // MLP 64*8*32 * 2 = 32,768 (65,536 per block, two blocks); head 8*3 = 24.
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.macs, 24'576 + 2 * 65'536 + 24);
  bool scores = false;
  for (const Layer& l : m.layers)
    if (l.op == "matmul" && l.output == Shape{4, 2, 16, 16}) scores = true;
  EXPECT_TRUE(scores);
  EXPECT_GE(m.find("features.1.0.attn.relative_position_bias_table"), 0);
}

TEST(OnnxImport, Resnet50ShapesOnlyMatchesTorchvisionAndTheZoo) {
  // torchvision.models.resnet50: num_params 25,557,032 (ResNet50_Weights.IMAGENET1K_V1
  // meta in torchvision/models/resnet.py); exported by scripts/onnx-zoo, weights stripped.
  Model onnx = load_model(kDir + "resnet50-shapes.onnx");
  EXPECT_EQ(total_params(onnx), 25'557'032);
  Model zoo = load_model("resnet50");
  CostAnalysis a = analyze_costs(onnx, RunSettings{}), b = analyze_costs(zoo, RunSettings{});
  EXPECT_EQ(a.totals.macs, b.totals.macs);
  // Layer by layer, in order, every layer with parameters (conv, bn, fc): same shape,
  // params and MACs. The names are torchvision's module names.
  auto weighted = [](const Model& m) {
    std::vector<size_t> idx;
    for (size_t i = 0; i < m.layers.size(); ++i)
      if (m.layers[i].counts.params > 0) idx.push_back(i);
    return idx;
  };
  std::vector<size_t> wa = weighted(onnx), wb = weighted(zoo);
  ASSERT_EQ(wa.size(), wb.size());
  ASSERT_EQ(wa.size(), 53u + 53u + 1u);  // 53 convs, 53 batch norms, the fc
  for (size_t k = 0; k < wa.size(); ++k) {
    const Layer& x = onnx.layers[wa[k]];
    const Layer& y = zoo.layers[wb[k]];
    EXPECT_EQ(x.op, y.op) << x.name;
    EXPECT_EQ(x.output, y.output) << x.name;
    EXPECT_EQ(a.layers[wa[k]].macs, b.layers[wb[k]].macs) << x.name;
    EXPECT_EQ(x.counts.params, y.counts.params) << x.name;
  }
  for (const char* name : {"conv1", "layer1.0.downsample.0", "layer2.1.conv1", "layer4.2.bn3", "fc"})
    EXPECT_GE(onnx.find(name), 0) << name;
}

TEST(OnnxImport, Resnet50EvalExportHasTheZoosMacsAndNamesItsFoldedBatchNorms) {
  // The eval-mode export (opset 17, constants folded; scripts/onnx-zoo's eval17, weights
  // stripped): each of the 53 BatchNorms is folded into its conv, whose C biases stand for
  // its 2C gamma and beta. Their channels by hand: stem 64; layer1 3 x (64 + 64 + 256) +
  // 256; layer2 4 x (128 + 128 + 512) + 512; layer3 6 x (256 + 256 + 1024) + 1024;
  // layer4 3 x (512 + 512 + 2048) + 2048 = 26,560, so torchvision's 25,557,032 less 26,560.
  Model onnx = load_model(kDir + "resnet50-eval17-shapes.onnx");
  EXPECT_EQ(total_params(onnx), 25'557'032 - 26'560);
  ASSERT_EQ(onnx.notes.size(), 1u);
  EXPECT_EQ(onnx.notes[0].rfind("53 conv(s) carry a BatchNorm folded in by an eval-mode export (26560 biases", 0), 0u)
      << onnx.notes[0];
  EXPECT_EQ(analyze_costs(onnx, RunSettings{}).totals.macs, analyze_costs(load_model("resnet50"), RunSettings{}).totals.macs);
}

TEST(OnnxImport, SevenBillionParameterDecoderShapesOnly) {
  // scripts/make-test-onnx's Llama-2-7B-sized decoder: D 4096, F 11008, 32 layers,
  // vocab 32000, S 2048. Params: embedding and lm_head 2*V*D, per layer q,k,v,o 4*D^2,
  // SwiGLU 3*D*F, two norms 2*D; final norm D = 6,738,415,616 (Llama 2 7B's count).
  const int64_t D = 4096, F = 11008, L = 32, V = 32000, S = 2048;
  Model m = load_model(kDir + "llama7b-shapes.onnx");
  EXPECT_EQ(total_params(m), 2 * V * D + L * (4 * D * D + 3 * D * F + 2 * D) + D);
  EXPECT_EQ(total_params(m), 6'738'415'616);
  // MACs: per layer the projections S*(4*D^2 + 3*D*F) and attention 2*S^2*D; lm_head S*D*V.
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.macs, L * (S * (4 * D * D + 3 * D * F) + 2 * S * S * D) + S * D * V);
}

TEST(OnnxImport, ImportWritesAModelFileWithTheSameNumbers) {
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("ridge-import-" + std::to_string(::getpid()) + ".toml");
  auto r = ridge_test::run_ridge("import " + kDir + "se-block.onnx -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  Model from_file = load_model(out.string());
  Model from_onnx = load_model(kDir + "se-block.onnx");
  ASSERT_EQ(from_file.layer_names(), from_onnx.layer_names());
  CostAnalysis a = analyze_costs(from_file, RunSettings{}), b = analyze_costs(from_onnx, RunSettings{});
  EXPECT_EQ(a.totals.macs, b.totals.macs);
  EXPECT_EQ(a.totals.flops, b.totals.flops);
  EXPECT_EQ(a.totals.params, b.totals.params);
  fs::remove(out);
}

TEST(OnnxImport, ImportFoldsRepeatedBlocksAndReadsBackTheSame) {
  // torchvision resnet50: stages of 3, 4, 6 and 3 bottlenecks (He et al. 2016, table 1);
  // the first of each has the downsample branch, the others are alike, so the imported
  // file holds four blocks of 2, 3, 5 and 2 instances from number 1 on.
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("ridge-import-r50-" + std::to_string(::getpid()) + ".toml");
  auto r = ridge_test::run_ridge("import " + kDir + "resnet50-shapes.onnx -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  for (const char* block : {"name = 'layer1'", "name = 'layer2'", "name = 'layer3'", "name = 'layer4'"})
    EXPECT_NE(text.find(block), std::string::npos) << block;
  size_t blocks = 0, repeats = 0;
  for (size_t at = 0; (at = text.find("\nrepeat = ", at)) != std::string::npos; ++at) {
    ++blocks;
    repeats += std::stoul(text.substr(at + 10));
  }
  EXPECT_EQ(blocks, 4u);
  EXPECT_EQ(repeats, 2u + 3u + 5u + 2u);
  Model from_file = load_model(out.string());
  Model from_onnx = load_model(kDir + "resnet50-shapes.onnx");
  ASSERT_EQ(from_file.layers.size(), from_onnx.layers.size());
  CostAnalysis a = analyze_costs(from_file, RunSettings{}), b = analyze_costs(from_onnx, RunSettings{});
  EXPECT_EQ(a.totals.macs, b.totals.macs);
  EXPECT_EQ(a.totals.flops, b.totals.flops);
  EXPECT_EQ(a.totals.params, b.totals.params);
  // Same names, but a residual add named after its instance ("layer2.3") is "layer2.3.add".
  EXPECT_GE(from_file.find("layer2.3.conv2"), 0);
  EXPECT_GE(from_file.find("layer2.3.add"), 0);
  for (size_t i = 0; i < from_file.layers.size(); ++i) {
    EXPECT_EQ(from_file.layers[i].op, from_onnx.layers[i].op) << i;
    EXPECT_EQ(from_file.layers[i].output, from_onnx.layers[i].output) << from_onnx.layers[i].name;
  }
  fs::remove(out);
}

TEST(OnnxImport, UnknownNodesFailOrStandInWithAllowUnknown) {
  auto r = ridge_test::run_ridge("analyze " + kDir + "unknown-op.onnx");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: " + kDir + "unknown-op.onnx: node '/norm/LpNormalization' (LpNormalization): ridge "
                       "does not model op type 'LpNormalization'"),
            std::string::npos)
      << r.err;
  auto allowed = ridge_test::run_ridge("analyze " + kDir + "unknown-op.onnx --allow-unknown");
  EXPECT_EQ(allowed.status, 0);
  EXPECT_NE(allowed.err.find("note: 1 unmodelled layer(s) counted at zero cost: norm"), std::string::npos) << allowed.err;
  // ... and under the totals of the table itself, and in the JSON totals.
  EXPECT_NE(allowed.out.find("\nunmodelled: 1 layer(s) counted at zero cost, left out of the totals: norm\n"),
            std::string::npos)
      << allowed.out;
  auto json = ridge_test::run_ridge("analyze " + kDir + "unknown-op.onnx --allow-unknown --format json");
  EXPECT_NE(json.out.find("\"unmodelled\": [\"norm\"]"), std::string::npos) << json.out;
  OnnxOptions allow;
  allow.allow_unknown = true;
  Model m = load_model(kDir + "unknown-op.onnx", {}, allow);
  EXPECT_EQ(m.layers[m.find("norm")].op, "unmodelled");
  EXPECT_EQ(m.layers.back().output, (Shape{3, 8, 8}));
}

TEST(OnnxImport, BadInputExits2WithTheFileNamed) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ridge-bad-onnx-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ifstream in(kDir + "tiny-cnn.onnx", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::ofstream(dir / "truncated.onnx", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  std::ofstream(dir / "text.onnx") << "name = \"not onnx\"\n";
  struct Case {
    std::string args, message;
  };
  for (const Case& c : std::vector<Case>{
           {(dir / "truncated.onnx").string(), "is not a readable ONNX model"},
           {(dir / "text.onnx").string(), "is not a readable ONNX model"},
           {kDir + "opset-99.onnx", "opset 99 is not supported"},
           {kDir + "dynamic-hw.onnx", "dimension 2 ('H') is symbolic and has no value"},
           {kDir + "no-broadcast.onnx", "add needs shapes that broadcast"},
           {kDir + "tiny-cnn.onnx --input image=1x3x8x8", "--input names 'image'"},
           {kDir + "tiny-cnn.onnx --input input=1x3xeight", "--input: expected NAME=DIMxDIMx..."},
       }) {
    auto r = ridge_test::run_ridge("analyze " + c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // The dynamic dimensions given, the graph reads: conv1 on 3x16x16.
  OnnxOptions given;
  given.inputs = {{"input", {1, 3, 16, 16}}};
  EXPECT_EQ(load_model(kDir + "dynamic-hw.onnx", {}, given).layers[0].counts.macs, 16 * 16 * 4 * 3 * 9);
  // ... or its symbolic dimensions H and W sized with --set model.H / model.W, and said so.
  Model set = load_model(kDir + "dynamic-hw.onnx", {{"H", "16", {}}, {"W", "16", {}}}, {});
  EXPECT_EQ(set.layers[0].counts.macs, 16 * 16 * 4 * 3 * 9);
  ASSERT_FALSE(set.notes.empty());
  EXPECT_NE(set.notes.back().find("H = 16, W = 16"), std::string::npos) << set.notes.back();
  auto r = ridge_test::run_ridge("analyze " + kDir + "dynamic-hw.onnx --set model.H=16 --set model.W=0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--set model.W=0: a dimension's size must be a positive integer"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ridge
