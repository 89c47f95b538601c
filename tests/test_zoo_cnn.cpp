// The CNN zoo against figures from outside ridge: torchvision's published parameter
// counts and GFLOPS, and AlexNet / MLP counts worked out by hand from the architecture.
//
// Published source: torchvision's model documentation, the weights tables ("num_params"
// and "GFLOPS" rows of the IMAGENET1K_V1 weights), e.g.
//   https://pytorch.org/vision/stable/models/generated/torchvision.models.vgg16.html
//   https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html
//   https://pytorch.org/vision/stable/models/generated/torchvision.models.mobilenet_v2.html
//   https://pytorch.org/vision/stable/models/generated/torchvision.models.video.r3d_18.html
//     (KINETICS400_V1: num_params 33371472, GFLOPS 40.70)
// torchvision's "GFLOPS" are in fact GMACs of conv + linear at batch 1 (input 224x224;
// for the video models one clip of 16 frames of 112x112), which is what ridge's `macs`
// counts; they are given to 2 decimals. By hand for r3d_18: stem 1,416,167,424 MACs,
// layer1 22,196,256,768, layer2 9,762,242,560, layer3 4,881,121,280, layer4
// 2,440,560,640, fc 204,800: 40,696,553,472 = 40.70 G.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

struct Published {
  const char* model;
  int64_t params;
  double gflops;  // as printed: GMACs rounded to 2 decimals
};
void PrintTo(const Published& p, std::ostream* os) { *os << p.model; }

class ZooPublished : public testing::TestWithParam<Published> {};

TEST_P(ZooPublished, ParamsAndGmacsEqualTorchvisionDocs) {
  const Published& p = GetParam();
  Model m = load_model(p.model);
  CostAnalysis c = analyze_costs(m, RunSettings{});
  EXPECT_EQ(c.totals.params, p.params);
  // Rounded to 2 decimals as torchvision prints it: compare in hundredths.
  EXPECT_EQ(std::llround(static_cast<double>(c.totals.macs) / 1e7), std::llround(p.gflops * 100))
      << "total MACs " << c.totals.macs;
}

INSTANTIATE_TEST_SUITE_P(Torchvision, ZooPublished,
                         testing::Values(Published{"vgg16", 138'357'544, 15.47},
                                         Published{"resnet50", 25'557'032, 4.09},
                                         Published{"mobilenet_v2", 3'504'872, 0.30},
                                         Published{"r3d_18", 33'371'472, 40.70}),
                         [](const auto& info) { return std::string(info.param.model); });

const LayerCost& cost_of(const Model& m, const CostAnalysis& c, const std::string& layer) {
  int i = m.find(layer);
  if (i < 0) throw std::runtime_error("no layer " + layer);
  return c.layers[i];
}

// AlexNet as first published (two groups on conv2, conv4, conv5; input 3x227x227),
// by hand: params = out * (in / groups) * k * k + out biases; MACs = output elements x
// (in / groups) * k * k for convs, in x out for the fully connected layers.
struct AlexNetRow {
  const char* layer;
  int64_t params;
  int64_t macs;
};
const AlexNetRow kAlexNet[] = {
    {"conv1", 96 * 3 * 11 * 11 + 96, 55 * 55 * 96 * (3 * 11 * 11)},      // 34,944      105,415,200
    {"conv2", 256 * 48 * 5 * 5 + 256, 27 * 27 * 256 * (48 * 5 * 5)},    // 307,456     223,948,800
    {"conv3", 384 * 256 * 3 * 3 + 384, 13 * 13 * 384 * (256 * 3 * 3)},  // 885,120     149,520,384
    {"conv4", 384 * 192 * 3 * 3 + 384, 13 * 13 * 384 * (192 * 3 * 3)},  // 663,936     112,140,288
    {"conv5", 256 * 192 * 3 * 3 + 256, 13 * 13 * 256 * (192 * 3 * 3)},  // 442,624      74,760,192
    {"fc6", 9216LL * 4096 + 4096, 9216 * 4096},                         // 37,752,832   37,748,736
    {"fc7", 4096LL * 4096 + 4096, 4096 * 4096},                         // 16,781,312   16,777,216
    {"fc8", 4096LL * 1000 + 1000, 4096 * 1000},                         // 4,097,000     4,096,000
};

TEST(ZooAlexNet, ParamsAndMacsByHand) {
  Model m = load_model("alexnet");
  CostAnalysis c = analyze_costs(m, RunSettings{});
  int64_t params = 0;
  for (const AlexNetRow& r : kAlexNet) {
    EXPECT_EQ(cost_of(m, c, r.layer).params, r.params) << r.layer;
    EXPECT_EQ(cost_of(m, c, r.layer).macs, r.macs) << r.layer;
    params += r.params;
  }
  // The per-layer sums written out: 34,944 + 307,456 + 885,120 + 663,936 + 442,624 +
  // 37,752,832 + 16,781,312 + 4,097,000, and likewise for the MACs column.
  EXPECT_EQ(params, 60'965'224);
  EXPECT_EQ(c.totals.params, 60'965'224);
  EXPECT_EQ(c.totals.macs, 724'406'816);
}

// 1000-100-100-100-100-10 with ReLU: 100,100 + 3 x 10,100 + 1,010 parameters.
TEST(ZooMlp, ParamsAndMacsByHand) {
  Model m = load_model("mlp");
  CostAnalysis c = analyze_costs(m, RunSettings{});
  EXPECT_EQ(c.totals.params, 131'410);
  EXPECT_EQ(c.totals.macs, 1000 * 100 + 3 * 100 * 100 + 100 * 10);
  EXPECT_EQ(m.layers.back().output, (Shape{10}));
  int relus = 0;
  for (const Layer& l : m.layers) relus += l.op == "relu";
  EXPECT_EQ(relus, 4);
}

TEST(ZooShapes, Vgg16Pool5AndClassifierInput) {
  Model m = load_model("vgg16");
  EXPECT_EQ(m.layers[m.find("pool5")].output, (Shape{512, 7, 7}));
  EXPECT_EQ(m.layers[m.find("avgpool")].output, (Shape{512, 7, 7}));
  EXPECT_EQ(m.layers[m.find("flatten")].output, (Shape{25088}));
  // 13 convs (2 + 2 + 3 + 3 + 3), 3 linear layers.
  int convs = 0, linears = 0;
  for (const Layer& l : m.layers) convs += l.op == "conv2d", linears += l.op == "linear";
  EXPECT_EQ(convs, 13);
  EXPECT_EQ(linears, 3);
}

TEST(ZooShapes, ResNet50FinalFeatureMap) {
  Model m = load_model("resnet50");
  EXPECT_EQ(m.layers[m.find("maxpool")].output, (Shape{64, 56, 56}));
  EXPECT_EQ(m.layers[m.find("layer1.0.relu3")].output, (Shape{256, 56, 56}));
  EXPECT_EQ(m.layers[m.find("layer2.0.conv2")].output, (Shape{128, 28, 28}));  // v1.5: stride on the 3x3
  EXPECT_EQ(m.layers[m.find("layer2.0.conv1")].output, (Shape{128, 56, 56}));
  EXPECT_EQ(m.layers[m.find("layer4.rest.1.relu3")].output, (Shape{2048, 7, 7}));
  EXPECT_EQ(m.layers[m.find("fc")].output, (Shape{1000}));
  // 3 + 4 + 6 + 3 = 16 bottlenecks, each with one residual add; 4 downsample convs.
  int adds = 0, convs = 0;
  for (const Layer& l : m.layers) adds += l.op == "add", convs += l.op == "conv2d";
  EXPECT_EQ(adds, 16);
  EXPECT_EQ(convs, 1 + 16 * 3 + 4);
}

TEST(ZooShapes, ResNet50ShortcutsTakeTheBlockInput) {
  Model m = load_model("resnet50");
  auto inputs_of = [&](const std::string& name) { return m.layers[m.find(name)].inputs; };
  // The first identity block of stage 2 adds the output of the downsampling block.
  EXPECT_EQ(inputs_of("layer2.rest.0.add"),
            (std::vector<int>{m.find("layer2.rest.0.bn3"), m.find("layer2.0.relu3")}));
  // The next one adds the previous instance's output.
  EXPECT_EQ(inputs_of("layer2.rest.1.add"),
            (std::vector<int>{m.find("layer2.rest.1.bn3"), m.find("layer2.rest.0.relu3")}));
  // The downsample branch reads the stage input: the end of the previous stage.
  EXPECT_EQ(inputs_of("layer3.0.downsample_conv"), (std::vector<int>{m.find("layer2.rest.2.relu3")}));
}

TEST(ZooShapes, MobileNetV2) {
  Model m = load_model("mobilenet_v2");
  EXPECT_EQ(m.layers[m.find("stem_conv")].output, (Shape{32, 112, 112}));
  EXPECT_EQ(m.layers[m.find("ir7.0.project_bn")].output, (Shape{320, 7, 7}));
  EXPECT_EQ(m.layers[m.find("head_relu")].output, (Shape{1280, 7, 7}));
  // The first block has no expansion: 32 channels straight into the depthwise conv.
  EXPECT_EQ(m.find("ir1.0.expand_conv"), -1);
  EXPECT_EQ(m.layers[m.find("ir2.0.expand_conv")].output, (Shape{96, 112, 112}));  // 16 x 6
  // Shortcuts where stride 1 and in == out: n-1 per group, (2-1)+(3-1)+(4-1)+(3-1)+(3-1) = 10.
  int adds = 0, relu6 = 0;
  for (const Layer& l : m.layers) adds += l.op == "add", relu6 += l.op == "relu6";
  EXPECT_EQ(adds, 10);
  EXPECT_EQ(relu6, 1 + 1 + 16 * 2 + 1);  // stem, ir1 (dw only), 16 expanded blocks x 2, head
  EXPECT_EQ(m.layers[m.find("ir3.rest.1.add")].inputs,
            (std::vector<int>{m.find("ir3.rest.1.project_bn"), m.find("ir3.rest.0.add")}));
  int d = m.find("dropout");
  ASSERT_GE(d, 0);
  EXPECT_EQ(m.layers[d + 1].name, "classifier");
}

}  // namespace
}  // namespace ridge
