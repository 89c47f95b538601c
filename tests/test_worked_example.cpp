// The worked example of DESIGN.md, computed by hand there: AlexNet conv1 (input
// 3x227x227, 96 kernels 11x11, stride 4, padding 0), batch 1.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

TEST(WorkedExample, AlexNetConv1Counts) {
  Model m = load_model("alexnet");
  int i = m.find("conv1");
  ASSERT_GE(i, 0);
  const Layer& conv1 = m.layers[i];
  EXPECT_EQ(conv1.output, (Shape{96, 55, 55}));
  CostAnalysis c = analyze_costs(m, RunSettings{});
  const LayerCost& l = c.layers[i];
  EXPECT_EQ(l.macs, 105'415'200);          // 55*55*3*11*11*96
  EXPECT_EQ(l.input_bytes, 154'587 * 4);   // 227*227*3 elements, fp32
  EXPECT_EQ(l.output_bytes, 290'400 * 4);  // 55*55*96
  EXPECT_EQ(l.weight_bytes, 34'944 * 4);   // 34,848 weights + 96 biases
  EXPECT_EQ(l.params, 34'944);
  // FLOPs = 2 x MACs + one bias add per output element.
  EXPECT_EQ(l.flops, 2 * 105'415'200 + 290'400);
}

TEST(WorkedExample, BatchScalesActivationsNotWeights) {
  Model m = load_model("alexnet");
  RunSettings s;
  s.batch = 8;
  s.dtype = DType::fp16;
  CostAnalysis c = analyze_costs(m, s);
  const LayerCost& l = c.layers[m.find("conv1")];
  EXPECT_EQ(l.macs, 8LL * 105'415'200);
  EXPECT_EQ(l.input_bytes, 8LL * 154'587 * 2);
  EXPECT_EQ(l.weight_bytes, 34'944 * 2);
}

}  // namespace
}  // namespace ridge
