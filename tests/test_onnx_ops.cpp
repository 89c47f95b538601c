// ONNX ops added for issue #28, each against a count worked out by hand from the
// formulas stated in sim/workload/ops/activation.cpp and normalization.cpp (and in
// the README's "Layer types" table): the graphs are written here in protobuf text, so the
// suite needs neither torch nor the onnx Python package. Also: a weight shared by an
// embedding and an output head counted once, GroupNorm's exporter constants not counted
// as parameters, a general Einsum and ScatterND's indices (MViT v2), and shapes that
// disagree refused.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/text_format.h>
#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include "onnx_text.hpp"
#include "run_ridge.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"
#include "sim/workload/repeat_blocks.hpp"

namespace ridge {
namespace {

using namespace onnx_test;

// x: 4 x 2 x 2 = 16 elements per sample; every op below keeps that shape.
TEST(OnnxOps, ActivationsCountTheirStatedFlopsPerElement) {
  const std::string body = node("leaky", "LeakyRelu", "x", "a1", float_attr("alpha", 0.1)) +  // 2 per element
                           node("elu", "Elu", "a1", "a2") +                                    // 4
                           node("selu", "Selu", "a2", "a3") +                                  // 5
                           node("softplus", "Softplus", "a3", "a4") +                          // 3
                           node("mish", "Mish", "a4", "a5") +                                  // 5
                           node("hardtanh", "Clip", "a5", "a6", float_attr("min", -1) + float_attr("max", 1)) +  // 2
                           node("clamp_min", "Clip", "a6 lo", "a7") +                          // 1 (one bound)
                           node("reciprocal", "Reciprocal", "a7", "a8") +                      // 1
                           node("sin", "Sin", "a8", "a9") + node("cos", "Cos", "a9", "a10") +  // 1, 1
                           node("prelu", "PRelu", "a10 slope", "a11") +                        // 2, 4 slopes
                           node("lrn", "LRN", "a11", "y", "attribute { name: \"size\" type: INT i: 3 } ") +
                           "initializer { name: \"lo\" data_type: 1 float_data: -2 } "
                           "initializer { name: \"slope\" data_type: 1 dims: 4 dims: 1 dims: 1 } ";
  Model m = onnx_model(onnx_text(body));
  struct Expected {
    const char* name;
    const char* op;
    int64_t flops;
  };
  // LRN across 3 channels: 2 * 3 + 3 = 9 per element (normalization.cpp).
  const Expected expected[] = {{"leaky", "leaky_relu", 32}, {"elu", "elu", 64},      {"selu", "selu", 80},
                               {"softplus", "softplus", 48}, {"mish", "mish", 80},   {"hardtanh", "clip", 32},
                               {"clamp_min", "clip", 16},    {"reciprocal", "reciprocal", 16},
                               {"sin", "sin", 16},           {"cos", "cos", 16},     {"prelu", "prelu", 32},
                               {"lrn", "local_response_norm", 144}};
  ASSERT_EQ(m.layers.size(), std::size(expected));
  for (size_t i = 0; i < m.layers.size(); ++i) {
    EXPECT_EQ(m.layers[i].name, expected[i].name);
    EXPECT_EQ(m.layers[i].op, expected[i].op) << expected[i].name;
    EXPECT_EQ(m.layers[i].counts.flops, expected[i].flops) << expected[i].name;
    EXPECT_EQ(m.layers[i].output, (Shape{4, 2, 2})) << expected[i].name;
  }
  EXPECT_EQ(m.layers[m.find("prelu")].counts.params, 4);  // one slope per channel
  int64_t params = 0;
  for (const Layer& l : m.layers) params += l.counts.params;
  EXPECT_EQ(params, 4);
}

// x: 4 x 2 x 2 per sample (ONNX axes 1, 2, 3). ReduceMax over H and W: 4 outputs of
// R = 4, 3 compares each = 12; ReduceMin over C: 4 outputs of R = 4, 12; ReduceL2 over
// C: 4 squares + 3 adds + 1 root per output = 2 x 16 inputs = 32; ArgMax over C
// (keepdims 0): 12 compares, output [2, 2].
TEST(OnnxOps, ReductionsCountTheirComparesAndTheL2sSquares) {
  const std::string ints = "attribute { name: \"axes\" type: INTS ints: ";
  const std::string body =
      node("max", "ReduceMax", "x", "m", ints + "2 ints: 3 } ") + node("min", "ReduceMin", "x", "n", ints + "1 } ") +
      node("l2", "ReduceL2", "x", "l", ints + "1 } ") +
      node("arg", "ArgMax", "x", "y", "attribute { name: \"axis\" type: INT i: 1 } attribute { name: \"keepdims\" type: INT i: 0 } ");
  Model m = onnx_model(onnx_text(body, "1 4 2 2"));
  ASSERT_EQ(m.layer_names(), (std::vector<std::string>{"max", "min", "l2", "arg"}));
  EXPECT_EQ(m.layers[0].op, "reduce_max");
  EXPECT_EQ(m.layers[0].output, (Shape{4, 1, 1}));
  EXPECT_EQ(m.layers[0].counts.flops, 12);
  EXPECT_EQ(m.layers[1].op, "reduce_min");
  EXPECT_EQ(m.layers[1].counts.flops, 12);
  EXPECT_EQ(m.layers[2].op, "reduce_l2");
  EXPECT_EQ(m.layers[2].counts.flops, 32);
  EXPECT_EQ(m.layers[3].op, "argmax");
  EXPECT_EQ(m.layers[3].output, (Shape{2, 2}));
  EXPECT_EQ(m.layers[3].counts.flops, 12);
}

TEST(OnnxOps, AReluClipStaysRelu6) {
  Model m = onnx_model(onnx_text(node("r6", "Clip", "x", "y", float_attr("min", 0) + float_attr("max", 6))));
  EXPECT_EQ(m.layers[0].op, "relu6");
}

// An output head reading the token embedding's own initializer (transposed, as torch's
// training-mode export writes a tied nn.Linear): ids [5] look up rows of a [10, 4] table,
// the head multiplies [5, 4] by its transpose [4, 10]: 5 * 4 * 10 = 200 MACs. The table's
// 40 elements are parameters once, not 80.
TEST(OnnxOps, AWeightSharedByTheEmbeddingAndTheHeadIsCountedOnce) {
  const std::string body = node("/embed/Gather", "Gather", "table x", "e") +
                           node("/head/Transpose", "Transpose", "table", "tt",
                                "attribute { name: \"perm\" type: INTS ints: 1 ints: 0 } ") +
                           node("/head/MatMul", "MatMul", "e tt", "y") +
                           "initializer { name: \"table\" data_type: 1 dims: 10 dims: 4 } ";
  toml::table table = onnx_table(onnx_text(body, "1 5", 7));
  Model m = read_model_table(table, "t.onnx");
  const Layer& head = m.layers[m.find("head")];
  EXPECT_EQ(head.op, "linear");
  EXPECT_EQ(head.counts.macs, 200);
  EXPECT_EQ(head.counts.params, 0);
  EXPECT_EQ(m.layers[m.find("embed")].counts.params, 40);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.params, 40);
  // ... and so does the model file `ridge import` writes (the head is tied_to embed).
  table.insert_or_assign("layer", fold_repeats(*table.get_as<toml::array>("layer")));
  std::ostringstream os;
  os << toml::toml_formatter(table);
  EXPECT_NE(os.str().find("tied_to = 'embed'"), std::string::npos) << os.str();
  EXPECT_EQ(analyze_costs(read_model_string(os.str(), "t.toml"), RunSettings{}).totals.params, 40);
}

TEST(OnnxOps, TwoDifferentWeightsAreNotTied) {
  const std::string body = node("/embed/Gather", "Gather", "table x", "e") + node("/head/MatMul", "MatMul", "e w", "y") +
                           "initializer { name: \"table\" data_type: 1 dims: 10 dims: 4 } "
                           "initializer { name: \"w\" data_type: 1 dims: 4 dims: 10 } ";
  EXPECT_EQ(analyze_costs(onnx_model(onnx_text(body, "1 5", 7)), RunSettings{}).totals.params, 80);
}

// torch's GroupNorm(2 groups, 4 channels) export before opset 18: Reshape to [N, 2, 8],
// InstanceNormalization by the exporter's ones and zeros (2 each), Reshape back to
// [N, 4, 2, 2], then the learned gamma and beta [4, 1, 1]: 8 parameters, not 8 + 4.
TEST(OnnxOps, GroupNormsExporterConstantsAreNoParameters) {
  const std::string body =
      node("/gn/Reshape", "Reshape", "x s1", "r") + node("/gn/InstanceNormalization", "InstanceNormalization", "r ones zeros", "i") +
      node("/gn/Reshape_1", "Reshape", "i s2", "b") + node("/gn/Mul", "Mul", "b gamma", "g") + node("/gn/Add", "Add", "g beta", "y") +
      "initializer { name: \"s1\" data_type: 7 dims: 3 int64_data: 0 int64_data: 2 int64_data: -1 } "
      "initializer { name: \"s2\" data_type: 7 dims: 4 int64_data: 0 int64_data: 4 int64_data: 2 int64_data: 2 } "
      "initializer { name: \"ones\" data_type: 1 dims: 2 float_data: 1 float_data: 1 } "
      "initializer { name: \"zeros\" data_type: 1 dims: 2 float_data: 0 float_data: 0 } "
      "initializer { name: \"gamma\" data_type: 1 dims: 4 dims: 1 dims: 1 } "
      "initializer { name: \"beta\" data_type: 1 dims: 4 dims: 1 dims: 1 } ";
  Model m = onnx_model(onnx_text(body));
  const Layer& norm = m.layers[m.find("gn.InstanceNormalization")];  // "gn" is the first Reshape's
  EXPECT_EQ(norm.op, "instancenorm");
  EXPECT_EQ(norm.counts.params, 0);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.params, 8);
}

// An export whose weights are fp16 (16 of them, beside 4 fp32 ones) is analysed at fp16
// unless --dtype says otherwise: a linear 4 -> 4 at batch 1 reads its 16 weights as
// 16 x 2 B = 32 B, not 64 B.
TEST(OnnxOps, AnFp16FileIsAnalysedAtFp16ByDefault) {
  namespace fs = std::filesystem;
  const std::string body = node("/fc/MatMul", "MatMul", "x w", "h") + node("/b/Add", "Add", "h bias", "y") +
                           "initializer { name: \"w\" data_type: 10 dims: 4 dims: 4 } "
                           "initializer { name: \"bias\" data_type: 1 dims: 4 } ";
  const std::string text = onnx_text(body, "1 4");
  Model m = onnx_model(text);
  ASSERT_TRUE(m.dtype.has_value());
  EXPECT_EQ(*m.dtype, DType::fp16);
  onnx::ModelProto proto;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &proto));
  fs::path file = fs::temp_directory_path() / ("ridge-fp16-" + std::to_string(::getpid()) + ".onnx");
  std::ofstream(file, std::ios::binary) << proto.SerializeAsString();
  auto plain = ridge_test::run_ridge("analyze " + file.string() + " --format json");
  auto fp32 = ridge_test::run_ridge("analyze " + file.string() + " --dtype fp32 --format json");
  fs::remove(file);
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(fp32.status, 0) << fp32.err;
  auto weight_bytes = [](const std::string& json) {
    nlohmann::json j = nlohmann::json::parse(json);
    return j["layers"][0]["weight_bytes"].get<double>();
  };
  EXPECT_EQ(weight_bytes(plain.out), 32);
  EXPECT_EQ(weight_bytes(fp32.out), 64);
}

// A video block on x [1, 2, 4, 6, 6] (N, C, D, H, W): Conv 3x3x3 pad 1 stride [1, 2, 2]
// -> [3, 4, 3, 3] (108 outputs x 54 MACs, 165 parameters), BatchNormalization (2 x 3
// parameters, 2 FLOPs per element), MaxPool 1x3x3 stride [1, 3, 3] -> [3, 4, 1, 1] (12
// windows of 9: 12 x 8 compares), Resize x2 nearest on D, H, W -> [3, 8, 2, 2],
// GlobalAveragePool -> [3, 1, 1, 1] (96 adds); and Conv1d on [1, 2, 6] by a [4, 2, 3]
// weight -> [4, 4] (16 outputs x 6 MACs). The layers are named by rank.
TEST(OnnxOps, ConvolutionsAndPoolsOverOneAndThreeSpatialAxes) {
  const std::string body =
      node("conv", "Conv", "x w b", "c", ints_attr("pads", "1 1 1 1 1 1") + ints_attr("strides", "1 2 2")) +
      node("bn", "BatchNormalization", "c g be m v", "n") +
      node("pool", "MaxPool", "n", "p", ints_attr("kernel_shape", "1 3 3") + ints_attr("strides", "1 3 3")) +
      node("up", "Resize", "p sc", "r") + node("gap", "GlobalAveragePool", "r", "y") +
      "initializer { name: \"w\" data_type: 1 dims: 3 dims: 2 dims: 3 dims: 3 dims: 3 } "
      "initializer { name: \"b\" data_type: 1 dims: 3 } initializer { name: \"g\" data_type: 1 dims: 3 } "
      "initializer { name: \"be\" data_type: 1 dims: 3 } initializer { name: \"m\" data_type: 1 dims: 3 } "
      "initializer { name: \"v\" data_type: 1 dims: 3 } "
      "initializer { name: \"sc\" data_type: 1 dims: 5 float_data: 1 float_data: 1 float_data: 2 float_data: 2 float_data: 2 } ";
  Model m = onnx_model(onnx_text(body, "1 2 4 6 6"));
  ASSERT_EQ(m.layers.size(), 5u);
  EXPECT_EQ(m.layers[0].op, "conv3d");
  EXPECT_EQ(m.layers[0].output, (Shape{3, 4, 3, 3}));
  EXPECT_EQ(m.layers[0].counts.macs, 5832);
  EXPECT_EQ(m.layers[0].counts.params, 165);
  EXPECT_EQ(m.layers[1].counts.params, 6);
  EXPECT_EQ(m.layers[1].counts.flops, 216);
  EXPECT_EQ(m.layers[2].op, "max_pool3d");
  EXPECT_EQ(m.layers[2].output, (Shape{3, 4, 1, 1}));
  EXPECT_EQ(m.layers[2].counts.flops, 96);
  EXPECT_EQ(m.layers[3].output, (Shape{3, 8, 2, 2}));
  EXPECT_EQ(m.layers[4].op, "global_avg_pool3d");
  EXPECT_EQ(m.layers[4].output, (Shape{3, 1, 1, 1}));
  EXPECT_EQ(m.layers[4].counts.flops, 96);

  Model m1 = onnx_model(onnx_text(node("conv", "Conv", "x w", "y", ints_attr("strides", "1")) +
                                      "initializer { name: \"w\" data_type: 1 dims: 4 dims: 2 dims: 3 } ",
                                  "1 2 6"));
  EXPECT_EQ(m1.layers[0].op, "conv1d");
  EXPECT_EQ(m1.layers[0].output, (Shape{4, 4}));
  EXPECT_EQ(m1.layers[0].counts.macs, 96);
}

// torchvision's detection models take one image [3, H, W] with no batch axis: normalised
// by per-channel constants [3, 1, 1], then unsqueezed to [1, 3, H, W] for the backbone.
// Read as one sample (not a batch of 3 [H, W] ones): the Conv 3 -> 2, 3x3 pad 1 on 4x4
// makes 2 x 16 outputs of 27 MACs, 864 per image, and --batch 2 counts two images.
TEST(OnnxOps, AnInputWithoutABatchAxisIsOneSample) {
  const std::string body =
      node("norm", "Sub", "x mean", "a") + node("scale", "Div", "a std", "b") +
      node("batch", "Unsqueeze", "b zero", "c") + node("conv", "Conv", "c w", "y", ints_attr("pads", "1 1 1 1")) +
      "initializer { name: \"mean\" data_type: 1 dims: 3 dims: 1 dims: 1 float_data: 0.5 float_data: 0.5 float_data: 0.5 } "
      "initializer { name: \"std\" data_type: 1 dims: 3 dims: 1 dims: 1 float_data: 0.2 float_data: 0.2 float_data: 0.2 } "
      "initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: 0 } "
      "initializer { name: \"w\" data_type: 1 dims: 2 dims: 3 dims: 3 dims: 3 } ";
  Model m = onnx_model(onnx_text(body, "3 4 4"));
  EXPECT_EQ(m.input, (Shape{3, 4, 4}));
  const Layer& conv = m.layers.back();
  EXPECT_EQ(conv.op, "conv2d");
  EXPECT_EQ(conv.output, (Shape{2, 4, 4}));
  EXPECT_EQ(conv.counts.macs, 864);
  RunSettings two;
  two.batch = 2;
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.macs, 864);
  EXPECT_EQ(analyze_costs(m, two).totals.macs, 1728);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "the ONNX input has no batch axis: a sample is one [3x4x4] input, --batch N counts N of them");
  // A fixed first axis that nothing shows to be the sample's own stays the batch.
  Model batched = onnx_model(onnx_text(node("fc", "MatMul", "x w", "y") +
                                           "initializer { name: \"w\" data_type: 1 dims: 8 dims: 4 } ",
                                       "2 8"));
  EXPECT_EQ(batched.input, (Shape{8}));
}

std::string equation(const std::string& e) { return "attribute { name: \"equation\" type: STRING s: \"" + e + "\" } "; }

// MViT's decomposed relative position Einsums, small: x [N, h 2, w 3, c 4] by a learned
// R [h 2, k 5, c 4] ("bhwc,hkc->bhwk": b and h batch letters, c contracted, w and k
// free): per sample [2, 3, 5], 2 x 3 x 4 x 5 = 120 MACs. Again with the output's batch
// second ("...->hbwk"), the same product: R's 40 elements counted once. Two activations,
// x and its transpose t [N, w 3, h 2, c 4] read as "bwkc" (k = 2): "bhwc,bwkc->bhwk",
// no matmul (the operands' leading letters differ), per sample [2, 3, 2], 2 x 3 x 4 x 2
// = 48 MACs.
TEST(OnnxOps, AnEinsumIsTheProductOfItsLetters) {
  const std::string body =
      node("/rel_h/Einsum", "Einsum", "x r", "e1", equation("bhwc,hkc->bhwk")) +
      node("/rel_w/Einsum", "Einsum", "x r", "e2", equation("bhwc,hkc->hbwk")) +
      node("/t/Transpose", "Transpose", "x", "t", ints_attr("perm", "0 2 1 3")) +
      node("/pair/Einsum", "Einsum", "x t", "y", equation("bhwc,bwkc->bhwk")) + init("r", "2 5 4");
  Model m = onnx_model(onnx_text(body, "1 2 3 4"));
  for (const char* name : {"rel_h", "rel_w"}) {
    const Layer& l = m.layers[m.find(name)];
    EXPECT_EQ(l.op, "einsum") << name;
    EXPECT_EQ(l.output, (Shape{2, 3, 5})) << name;
    EXPECT_EQ(l.counts.macs, 120) << name;
  }
  const Layer& pair = m.layers[m.find("pair")];
  EXPECT_EQ(pair.op, "einsum");
  EXPECT_EQ(pair.output, (Shape{2, 3, 2}));
  EXPECT_EQ(pair.counts.macs, 48);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.params, 40);
}

// torch's `attn[:, :, 1:, 1:] = u` on x [N, 4, 2, 2]: ScatterND of the activation u
// [N, 4, 1, 1] (a Slice of x) at indices [N, 4, 1, 1, 4] (computed, as the exporter's
// are from shapes): the indices' first axis is the updates' batch, not x's second
// (broadcasting would align it so), and they are no parameters. Per sample it reads x's
// 16, the indices' 4 x 4 = 16 and u's 4 elements, and writes 16.
TEST(OnnxOps, AScatterNdsIndicesMeetTheBatchWhereItsUpdatesDo) {
  std::string idx;
  for (int c = 0; c < 4; ++c) idx += "int64_data: 0 int64_data: " + std::to_string(c) + " int64_data: 1 int64_data: 1 ";
  const std::string body =
      node("/attn/Slice", "Slice", "x starts ends axes", "u") +
      node("/attn/Constant", "Constant", "", "idx",
           "attribute { name: \"value\" type: TENSOR t { data_type: 7 dims: 1 dims: 4 dims: 1 dims: 1 dims: 4 " + idx +
               "} } ") +
      node("/attn/ScatterND", "ScatterND", "x idx u", "y") +
      "initializer { name: \"starts\" data_type: 7 dims: 2 int64_data: 1 int64_data: 1 } "
      "initializer { name: \"ends\" data_type: 7 dims: 2 int64_data: 2 int64_data: 2 } "
      "initializer { name: \"axes\" data_type: 7 dims: 2 int64_data: 2 int64_data: 3 } ";
  Model m = onnx_model(onnx_text(body));
  const Layer& l = m.layers.back();
  EXPECT_EQ(l.op, "scatter");
  EXPECT_EQ(l.output, (Shape{4, 2, 2}));
  EXPECT_EQ(l.counts.input_elems, 16 + 16 + 4);
  EXPECT_EQ(l.counts.output_elems, 16);
  EXPECT_EQ(analyze_costs(m, RunSettings{}).totals.params, 0);
}

TEST(OnnxOps, ShapesThatDisagreeAreRefused) {
  // x [1, 4, 2, 2]: a MatMul's weight [3, 5] reads 3 features of x's last axis of 2.
  expect_refused(onnx_text(node("n", "MatMul", "x w", "y") + "initializer { name: \"w\" data_type: 1 dims: 3 dims: 5 } "),
                 "node 'n' (MatMul): the weight [3x5] multiplies 3 features, but the input [1x4x2x2] has 2");
  // A grouped Conv: weight [8, 1, 1, 1] x 2 groups reads 2 channels; x has 4.
  expect_refused(onnx_text(node("n", "Conv", "x w", "y", "attribute { name: \"group\" type: INT i: 2 } ") +
                           "initializer { name: \"w\" data_type: 1 dims: 8 dims: 1 dims: 1 dims: 1 } "),
                 "node 'n' (Conv): the weight [8x1x1x1] reads 2 input channels, but the input [4x2x2] has 4");
  // ... while 4 groups of 1 channel fit.
  EXPECT_NO_THROW(onnx_table(onnx_text(node("n", "Conv", "x w", "y", "attribute { name: \"group\" type: INT i: 4 } ") +
                                       "initializer { name: \"w\" data_type: 1 dims: 8 dims: 1 dims: 1 dims: 1 } ")));
  // ConvTranspose's weight is [C_in, C_out / groups, kh, kw]: [2, 4, 1, 1] reads 2 channels.
  expect_refused(onnx_text(node("n", "ConvTranspose", "x w", "y") +
                           "initializer { name: \"w\" data_type: 1 dims: 2 dims: 4 dims: 1 dims: 1 } "),
                 "node 'n' (ConvTranspose): the weight [2x4x1x1] reads 2 input channels, but the input [4x2x2] has 4");
  // Raw data of 8 bytes is 2 floats, not the 6 of a [2, 3] tensor; a shape-only one is fine.
  expect_refused(onnx_text(node("n", "Relu", "x", "y") +
                           "initializer { name: \"w\" data_type: 1 dims: 2 dims: 3 raw_data: \"\\000\\000\\000\\000\\000\\000\\000\\000\" } "),
                 "tensor 'w' of shape [2x3] holds 2 values, fewer than its shape's 6");
  EXPECT_NO_THROW(onnx_table(onnx_text(node("n", "Relu", "x", "y") + "initializer { name: \"w\" data_type: 1 dims: 2 dims: 3 } ")));
}

}  // namespace
}  // namespace ridge
