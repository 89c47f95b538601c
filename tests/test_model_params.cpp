// Model files grown up: integer expressions, the [params] table and its overrides
// (--set model.NAME, sweep [[vary]] model.NAME), numpy broadcasting of element-wise
// ops, the parameter op and concat of one input. Expected values are worked out by
// hand in the comments.
#include <gtest/gtest.h>

#include "run_ridge.hpp"
#include "model_text.hpp"
#include "sim/base/int_expression.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/engine/sweep_run.hpp"

namespace ridge {
namespace {

using testing::model_of;
using testing::one_layer;

int64_t eval(const std::string& text) {
  IntParams p = {{"seq", 1024}, {"hidden", 768}, {"heads", 12}};
  return evaluate_int_expression(
      text,
      [&](std::string_view n) -> std::optional<int64_t> {
        auto it = p.find(n);
        return it == p.end() ? std::nullopt : std::optional<int64_t>(it->second);
      },
      {"f.toml", 3, 10});
}

TEST(IntExpression, PrecedenceParenthesesAndNames) {
  EXPECT_EQ(eval("seq + 1"), 1025);
  EXPECT_EQ(eval("hidden * 4"), 3072);
  EXPECT_EQ(eval("hidden / heads"), 64);
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("-seq + 2 * seq"), 1024);
  EXPECT_EQ(eval("  7  "), 7);
  EXPECT_EQ(eval("10 - 4 - 3"), 3);  // left to right
}

TEST(IntExpression, ErrorsPointAtTheCharacter) {
  try {
    eval("hidden / 5");  // 768 / 5 leaves 3
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().column, 10 + 7);  // the '/' is the 8th character
    EXPECT_NE(std::string(e.what()).find("768 / 5 is not a whole number"), std::string::npos);
  }
  try {
    eval("hiden * 2");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().column, 10);
    EXPECT_NE(std::string(e.what()).find("unknown name 'hiden'"), std::string::npos);
  }
  EXPECT_THROW(eval("9223372036854775807 + 1"), InputError);
  EXPECT_THROW(eval("4294967296 * 4294967296"), InputError);
  EXPECT_THROW(eval("99999999999999999999"), InputError);
  EXPECT_THROW(eval("seq / 0"), InputError);
  EXPECT_THROW(eval("(seq"), InputError);
  EXPECT_THROW(eval("seq +"), InputError);
  EXPECT_THROW(eval(""), InputError);
  EXPECT_THROW(eval("seq 2"), InputError);
  EXPECT_THROW(eval("1.5"), InputError);
}

const char* kParamModel = R"(name = "p"
[params]
seq = 16
hidden = 8
ffn = "hidden * 4"
[input]
shape = ["seq", "hidden"]
[[layer]]
name = "up"
op = "linear"
out_features = "ffn"
[[layer]]
name = "split"
op = "reshape"
shape = ["seq", 2, "ffn / 2"]
[[layer]]
name = "blocks"
repeat = "hidden / 4"
  [[layer.body]]
  name = "act"
  op = "relu"
)";

TEST(ModelParams, ExpressionsInShapesCountsAndRepeats) {
  Model m = read_model_string(kParamModel, "p.toml");
  EXPECT_EQ(m.input, (Shape{16, 8}));
  // up: 8 -> 32 on 16 rows: 16*8*32 = 4096 MACs, 8*32 + 32 = 288 params.
  EXPECT_EQ(m.layers[0].counts.macs, 4096);
  EXPECT_EQ(m.layers[0].counts.params, 288);
  EXPECT_EQ(m.layers[1].output, (Shape{16, 2, 16}));
  EXPECT_EQ(m.layers.size(), 2u + 2u);  // repeat = 8 / 4
  EXPECT_EQ(m.params.at("ffn"), 32);
}

TEST(ModelParams, OverridesChangeEveryUse) {
  // seq 32, hidden 4 -> ffn 16: up 32*4*16 = 2048 MACs, 4*16 + 16 = 80 params; 1 block.
  Model m = read_model_string(kParamModel, "p.toml", {{"seq", "32", {}}, {"hidden", "2 * 2", {}}});
  EXPECT_EQ(m.input, (Shape{32, 4}));
  EXPECT_EQ(m.layers[0].counts.macs, 2048);
  EXPECT_EQ(m.layers[0].counts.params, 80);
  EXPECT_EQ(m.layers.size(), 3u);
}

TEST(ModelParams, BadParamsAndOverridesAreLocatedErrors) {
  try {
    read_model_string(kParamModel, "p.toml", {{"sq", "32", {}}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no parameter 'sq'"), std::string::npos);
    EXPECT_NE(e.hint().find("seq"), std::string::npos);
  }
  // hidden = 6 makes ffn / 2 = 12 fine but repeat = 6 / 4 not whole (line 18).
  try {
    read_model_string(kParamModel, "p.toml", {{"hidden", "6", {}}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 18);
    EXPECT_NE(std::string(e.what()).find("6 / 4 is not a whole number"), std::string::npos);
  }
  EXPECT_THROW(read_model_string("name = \"c\"\n[params]\na = \"b + 1\"\nb = \"a\"\n[input]\nshape = [1]\n"
                                 "[[layer]]\nname = \"r\"\nop = \"relu\"\n", "c.toml"),
               InputError);  // a cycle
  EXPECT_THROW(model_of("[\"nope\"]", "[[layer]]\nname = \"r\"\nop = \"relu\"\n"), InputError);
  EXPECT_THROW(model_of("[4]", "[[layer]]\nname = \"r\"\nop = \"linear\"\nout_features = \"2 *\"\n"), InputError);
}

int64_t gpt2_macs(int64_t S) {
  // d = 768, V = 50257, 12 blocks (see test_zoo_transformers): per block 12*S*d^2 for the
  // projections and MLP, plus fused causal attention that skips the masked half: Q.K^T
  // and P.V over the S(S+1)/2 unmasked pairs, 2 x S(S+1)/2 x d; plus lm_head S*d*V.
  const int64_t d = 768, V = 50257;
  return 12 * (12 * S * d * d + S * (S + 1) * d) + S * d * V;
}

TEST(ModelParams, Gpt2AndBertFollowSeq) {
  Model base = load_model("gpt2");
  Model longer = load_model("gpt2", {{"seq", "2048", {}}});
  EXPECT_EQ(analyze_costs(base, RunSettings{}).totals.macs, gpt2_macs(1024));
  EXPECT_EQ(analyze_costs(longer, RunSettings{}).totals.macs, gpt2_macs(2048));
  EXPECT_EQ(longer.input, (Shape{2048}));
  // BERT at S = 512: per layer 12*S*d^2 + 2*S^2*d, 12 layers, pooler d*d.
  const int64_t S = 512, d = 768;
  Model bert = load_model("bert-base", {{"seq", "512", {}}});
  EXPECT_EQ(analyze_costs(bert, RunSettings{}).totals.macs, 12 * (12 * S * d * d + 2 * S * S * d) + d * d);
}

TEST(ModelParams, CommandLineSetReachesTheModel) {
  auto ok = ridge_test::run_ridge("analyze gpt2 --set model.seq=2048 --format json");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("79047426048"), std::string::npos);  // lm_head: 2048 * 768 * 50257 MACs
  auto typo = ridge_test::run_ridge("analyze gpt2 --set model.sequence=2048");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("error: the model has no parameter 'sequence'"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("hint:"), std::string::npos);
}

TEST(ModelParams, SweepVariesAModelParameter) {
  SweepPlan plan = plan_sweep(parse_sweep(R"(models = ["bert-base"]
hardware = ["a100"]
[[vary]]
key = "model.seq"
values = [128, 256]
[[vary]]
key = "memory.HBM2e.bandwidth"
values = ["1 TB/s", "2 TB/s"]
)", "s.toml"));
  ASSERT_EQ(plan.models.size(), 2u);
  SweepResult r = run_sweep(plan, {});
  ASSERT_EQ(r.points.size(), 4u);
  // Row order: the seq value, then the bandwidth; flops follow the model at that seq.
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(r.points[i].ok()) << r.points[i].status_text();
    Model m = load_model("bert-base", {{"seq", i < 2 ? "128" : "256", {}}});
    double flops = to_arrays(layer_work(m, analyze_costs(m, RunSettings{}))).flops.sum();
    EXPECT_DOUBLE_EQ(r.points[i].flops, flops) << i;
  }
  EXPECT_NE(r.points[0].flops, r.points[2].flops);
  try {
    plan_sweep(parse_sweep("models = [\"bert-base\"]\nhardware = [\"a100\"]\n[[vary]]\nkey = \"model.sq\"\nvalues = [1]\n", "s.toml"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(e.hint().find("model.seq"), std::string::npos);
  }
}

// `op` applied to the model input (per-sample `input`) and a parameter of `param` shape.
Layer with_parameter(const std::string& input, const std::string& param, const std::string& op) {
  return model_of(input, "[[layer]]\nname = \"p\"\nop = \"parameter\"\nshape = " + param +
                             "\n[[layer]]\nname = \"x\"\nop = \"" + op + "\"\ninputs = [\"@input\", \"p\"]\n")
      .layers.back();
}

TEST(Broadcasting, ElementwiseOpsBroadcastAsNumpyDoes) {
  // [4, 1] * [3]: output [4, 3]; 12 multiplies, 4 + 3 elements read; backward
  // 2 per output element plus the sums over broadcast positions (12-4) + (12-3).
  Layer l = with_parameter("[4, 1]", "[3]", "mul");
  EXPECT_EQ(l.output, (Shape{4, 3}));
  EXPECT_EQ(l.counts.flops, 12);
  EXPECT_EQ(l.counts.input_elems, 7);
  EXPECT_EQ(l.counts.output_elems, 12);
  EXPECT_EQ(l.counts.bwd_input_other_flops, 24 + 8 + 9);
  for (const char* op : {"add", "sub", "div"}) {
    Layer b = with_parameter("[2, 5, 6]", "[5, 1]", op);
    EXPECT_EQ(b.output, (Shape{2, 5, 6})) << op;
    EXPECT_EQ(b.counts.flops, 60) << op;  // one op per output element
  }
  // div backward: 3 per output element + the parameter's sum over 60 - 5 positions.
  EXPECT_EQ(with_parameter("[2, 5, 6]", "[5, 1]", "div").counts.bwd_input_other_flops, 180 + 55);
  EXPECT_THROW(with_parameter("[4, 3]", "[4]", "add"), InputError);  // 3 against 4 in the last dimension
}

TEST(ParameterOp, ClassTokenAndPositionEmbedding) {
  // ViT-B/16 tokens: 196 patches of 768, a class token [1, 768] in front (concat),
  // a position embedding [197, 768] added. Params 768 + 197*768 = 152,064 (torchvision
  // vit_b_16's class_token and encoder.pos_embedding).
  Model m = model_of("[196, 768]", R"(
[[layer]]
name = "class_token"
op = "parameter"
shape = [1, 768]
[[layer]]
name = "tokens"
op = "concat"
inputs = ["class_token", "@input"]
[[layer]]
name = "pos_embedding"
op = "parameter"
shape = [197, 768]
[[layer]]
name = "x"
op = "add"
inputs = ["tokens", "pos_embedding"]
)");
  EXPECT_EQ(m.layers[1].output, (Shape{197, 768}));
  EXPECT_EQ(m.layers[0].counts.params + m.layers[2].counts.params, 152'064);
  EXPECT_TRUE(m.layers[0].inputs.empty());
  EXPECT_EQ(m.layers[3].counts.flops, 197 * 768);
  EXPECT_THROW(one_layer("[4]", "op = \"parameter\"\nshape = []"), InputError);
  EXPECT_THROW(model_of("[4]", "[[layer]]\nname = \"p\"\nop = \"parameter\"\nshape = [4]\ninputs = [\"@input\"]\n"),
               InputError);  // takes no inputs
}

TEST(ConcatOp, OneInputIsACopy) {
  Layer l = one_layer("[2, 3]", "op = \"concat\"\ninputs = [\"@input\"]");
  EXPECT_EQ(l.output, (Shape{2, 3}));
  EXPECT_EQ(l.counts.input_elems, 6);
  EXPECT_EQ(l.counts.output_elems, 6);
  EXPECT_FALSE(l.counts.is_view);
}

}  // namespace
}  // namespace ridge
