// Activations, dropout, flatten, add, mul and scale against counts worked out by hand.
// Each elementary operation, exp/tanh/erf included, is 1 FLOP.
#include <gtest/gtest.h>

#include "sim/workload/cost_analysis.hpp"
#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::model_of;
using testing::one_layer;

struct ActivationCase {
  const char* op;
  int64_t fwd_per_elem;  // see the table in sim/workload/ops/activation.cpp
  int64_t bwd_per_elem;
  bool keeps_output;     // else keeps its input
};

TEST(OpsActivation, EveryActivation) {
  const ActivationCase cases[] = {
      {"relu", 1, 1, true},       // max(x,0); backward a select
      {"relu6", 2, 3, false},     // min(max(x,0),6); PyTorch's hardtanh backward reads the input
      {"tanh", 1, 3, true},       // backward (1 - y^2) * g: square, subtract, multiply
      {"sigmoid", 4, 3, true},    // neg, exp, add, divide; backward y(1-y) * g
      {"silu", 5, 6, false},      // x * sigmoid(x): 4 + 1
      {"gelu", 5, 6, false},      // 0.5x(1+erf(x/sqrt2)): divide, erf, add, 2 multiplies
      {"hardswish", 5, 6, false},  // add, max, min, multiply, divide
  };
  for (const ActivationCase& k : cases) {
    SCOPED_TRACE(k.op);
    Layer l = one_layer("[2, 5]", std::string("op = \"") + k.op + "\"");  // 10 elements
    EXPECT_EQ(l.output, (Shape{2, 5}));
    EXPECT_EQ(l.counts.flops, 10 * k.fwd_per_elem);
    EXPECT_EQ(l.counts.bwd_input_other_flops, 10 * k.bwd_per_elem);
    EXPECT_EQ(l.counts.saves_output, k.keeps_output);
    EXPECT_EQ(l.counts.saves_input, !k.keeps_output);
    EXPECT_EQ(l.counts.input_elems, 10);
    EXPECT_EQ(l.counts.output_elems, 10);
    EXPECT_EQ(l.counts.macs, 0);
  }
  EXPECT_TRUE(one_layer("[4]", "op = \"relu\"\ninplace = true").counts.inplace);
}

TEST(OpsDropout, IdentityAtInferenceMaskInTraining) {
  // 3 -> dropout -> linear(2): dropout on 3 elements is 3 mask multiplies in training.
  Model m = model_of("[3]", R"(
[[layer]]
name = "d"
op = "dropout"
p = 0.5
[[layer]]
name = "fc"
op = "linear"
out_features = 2
)");
  RunSettings s;
  s.batch = 4;
  LayerCost infer = analyze_costs(m, s).layers[0];
  EXPECT_EQ(infer.flops, 0);
  EXPECT_EQ(infer.input_bytes + infer.output_bytes, 0);
  s.phase = Phase::training;
  LayerCost train = analyze_costs(m, s).layers[0];
  EXPECT_EQ(train.flops, 12);                // 4 samples x 3 elements
  EXPECT_EQ(train.input_bytes, 4 * 3 * 4);   // fp32
  EXPECT_EQ(m.layers[0].counts.saved_aux_bytes, 3);  // a byte of mask per element
  EXPECT_THROW(one_layer("[3]", "op = \"dropout\"\np = 1.0"), InputError);
}

TEST(OpsFlatten, IsAView) {
  EXPECT_EQ(one_layer("[2, 3, 4]", "op = \"flatten\"").output, (Shape{24}));
  EXPECT_EQ(one_layer("[2, 3, 4]", "op = \"flatten\"\nstart_dim = 1").output, (Shape{2, 12}));
  Model m = model_of("[2, 3, 4]", "[[layer]]\nname = \"f\"\nop = \"flatten\"\n");
  LayerCost c = analyze_costs(m, RunSettings{}).layers[0];
  EXPECT_EQ(c.input_bytes + c.output_bytes + c.flops, 0);
  EXPECT_THROW(one_layer("[2, 3]", "op = \"flatten\"\nstart_dim = 2"), InputError);
}

// [2, 3] input, a linear to [2, b_features] named "b", then the op under test on (input, b).
Layer binary(const std::string& op_body, int b_features = 3) {
  return model_of("[2, 3]", R"(
[[layer]]
name = "b"
op = "linear"
out_features = )" + std::to_string(b_features) + R"(
[[layer]]
name = "x"
inputs = ["@input", "b"]
)" + op_body + "\n")
      .layers.back();
}

TEST(OpsAdd, NInputs) {
  // Three [4] inputs: 2 adds per element, 12 elements read, 4 written.
  Model m = model_of("[4]", R"(
[[layer]]
name = "a"
op = "relu"
[[layer]]
name = "b"
op = "relu"
[[layer]]
name = "s"
op = "add"
inputs = ["@input", "a", "b"]
)");
  const LayerCounts& c = m.layers.back().counts;
  EXPECT_EQ(c.flops, 8);
  EXPECT_EQ(c.input_elems, 12);
  EXPECT_EQ(c.output_elems, 4);
  EXPECT_EQ(c.bwd_input_other_flops, 0);  // the gradient passes through
  EXPECT_EQ(binary("op = \"add\"").counts.flops, 6);
}

TEST(OpsMul, ElementwiseProduct) {
  Layer l = binary("op = \"mul\"");
  EXPECT_EQ(l.output, (Shape{2, 3}));
  EXPECT_EQ(l.counts.flops, 6);                   // 6 multiplies
  EXPECT_EQ(l.counts.input_elems, 12);            // both operands
  EXPECT_EQ(l.counts.bwd_input_other_flops, 12);  // dA = dY*B, dB = dY*A: 2 x 6
  EXPECT_TRUE(l.counts.saves_input);
}

TEST(OpsAddMul, ShapesMustMatch) {
  EXPECT_THROW(binary("op = \"add\"", 4), InputError);  // [2, 3] + [2, 4]
  EXPECT_THROW(binary("op = \"mul\"", 4), InputError);
}

TEST(OpsScale, OneMultiplyPerElement) {
  Layer l = one_layer("[5]", "op = \"scale\"\nfactor = 0.125");
  EXPECT_EQ(l.counts.flops, 5);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 5);  // dY * factor
  EXPECT_FALSE(l.counts.saves_input || l.counts.saves_output);
  EXPECT_THROW(one_layer("[5]", "op = \"scale\""), InputError);  // factor is required
  EXPECT_THROW(one_layer("[5]", "op = \"scale\"\nfactor = inf"), InputError);
}

}  // namespace
}  // namespace ridge
