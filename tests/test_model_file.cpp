// Model-file features: default inputs, named inputs, blocks with repeat, `@input`,
// scoped names, a block's name as an alias of its output, tied_to, and located errors.
#include <gtest/gtest.h>

#include "sim/workload/model_reader.hpp"
#include "tests/model_text.hpp"

namespace ridge {
namespace {

using testing::model_of;

const Layer& named(const Model& m, const std::string& name) {
  int i = m.find(name);
  if (i < 0) throw std::runtime_error("no layer " + name);
  return m.layers[i];
}

// The names of a layer's inputs ("@model" for the model's input).
std::vector<std::string> input_names(const Model& m, const std::string& name) {
  std::vector<std::string> out;
  for (int i : named(m, name).inputs) out.push_back(i == kModelInput ? "@model" : m.layers[i].name);
  return out;
}

using Names = std::vector<std::string>;

TEST(ModelFile, DefaultInputIsThePreviousLayer) {
  Model m = model_of("[4]", R"(
[[layer]]
name = "a"
op = "linear"
out_features = 3
[[layer]]
name = "b"
op = "relu"
)");
  EXPECT_EQ(input_names(m, "a"), Names{"@model"});
  EXPECT_EQ(input_names(m, "b"), Names{"a"});
  EXPECT_EQ(named(m, "b").output, (Shape{3}));
}

TEST(ModelFile, NamedInputsAndTopLevelAtInput) {
  Model m = model_of("[4]", R"(
[[layer]]
name = "a"
op = "relu"
[[layer]]
name = "b"
op = "linear"
out_features = 4
inputs = ["@input"]
[[layer]]
name = "s"
op = "add"
inputs = ["a", "b"]
)");
  EXPECT_EQ(input_names(m, "b"), Names{"@model"});
  EXPECT_EQ(input_names(m, "s"), (Names{"a", "b"}));
}

// A residual block repeated 3 times: fc -> relu -> add(relu, @input).
const char* kBlocks = R"(
[[layer]]
name = "stem"
op = "linear"
out_features = 4
[[layer]]
name = "blk"
repeat = 3
  [[layer.body]]
  name = "fc"
  op = "linear"
  out_features = 4
  [[layer.body]]
  name = "act"
  op = "relu"
  [[layer.body]]
  name = "sum"
  op = "add"
  inputs = ["act", "@input"]
[[layer]]
name = "after_block"
op = "relu"
[[layer]]
name = "uses_alias"
op = "add"
inputs = ["blk", "blk.0"]
)";

TEST(ModelFile, BlocksRepeatWithScopedNames) {
  Model m = model_of("[4]", kBlocks);
  // stem + 3 x 3 + 2 = 12 layers; names are scoped by block and instance.
  ASSERT_EQ(m.layers.size(), 12u);
  for (int i = 0; i < 3; ++i) {
    std::string p = "blk." + std::to_string(i) + ".";
    EXPECT_GE(m.find(p + "fc"), 0);
    // Within an instance, "act" is that instance's act.
    EXPECT_EQ(input_names(m, p + "sum")[0], p + "act");
  }
  // The linear counts once per instance: 3 x (4*4 + 4) params, plus the stem's 20.
  int64_t params = 0;
  for (const Layer& l : m.layers) params += l.counts.params;
  EXPECT_EQ(params, 4 * 20);
}

TEST(ModelFile, AtInputIsTheBlockInstancesInput) {
  Model m = model_of("[4]", kBlocks);
  EXPECT_EQ(input_names(m, "blk.0.fc"), Names{"stem"});
  EXPECT_EQ(input_names(m, "blk.0.sum"), (Names{"blk.0.act", "stem"}));
  EXPECT_EQ(input_names(m, "blk.1.fc"), Names{"blk.0.sum"});
  EXPECT_EQ(input_names(m, "blk.2.sum"), (Names{"blk.2.act", "blk.1.sum"}));
}

TEST(ModelFile, BlockNameIsAnAliasOfItsOutput) {
  Model m = model_of("[4]", kBlocks);
  EXPECT_EQ(input_names(m, "after_block"), Names{"blk.2.sum"});  // the default input
  // "blk" is the last instance's output, "blk.0" the first instance's.
  EXPECT_EQ(input_names(m, "uses_alias"), (Names{"blk.2.sum", "blk.0.sum"}));
}

TEST(ModelFile, RepeatOneHasNoInstanceIndex) {
  Model m = model_of("[4]", R"(
[[layer]]
name = "blk"
  [[layer.body]]
  name = "fc"
  op = "linear"
  out_features = 2
)");
  EXPECT_GE(m.find("blk.fc"), 0);
}

// The error a model text raises (empty if none).
std::string error_of(const std::string& layers, std::string* hint = nullptr) {
  try {
    model_of("[4]", layers);
  } catch (const InputError& e) {
    if (hint) *hint = e.hint();
    return to_string(e.where()) + ": " + e.what();
  }
  return "";
}

TEST(ModelFile, UnknownInputIsLocatedWithASuggestion) {
  std::string hint;
  std::string e = error_of("[[layer]]\nname = \"conv\"\nop = \"relu\"\n"
                           "[[layer]]\nname = \"b\"\nop = \"relu\"\ninputs = [\"cnv\"]\n",
                           &hint);
  EXPECT_NE(e.find("test.toml:10:"), std::string::npos) << e;  // line 10 holds `inputs` (3 header lines, then 3 + 4)
  EXPECT_NE(e.find("'cnv'"), std::string::npos) << e;
  EXPECT_NE(hint.find("conv"), std::string::npos) << hint;
}

TEST(ModelFile, TiedToMustNameALayer) {
  const std::string base = "[[layer]]\nname = \"emb\"\nop = \"linear\"\nout_features = 4\n"
                           "[[layer]]\nname = \"head\"\nop = \"linear\"\nout_features = 4\nbias = false\n";
  EXPECT_EQ(error_of(base + "tied_to = \"emb\"\n"), "");
  std::string hint;
  std::string e = error_of(base + "tied_to = \"embb\"\n", &hint);
  EXPECT_NE(e.find("test.toml:13:"), std::string::npos) << e;  // 3 header lines + 4 + 6: the tied_to line
  EXPECT_NE(e.find("tied_to 'embb' names no layer"), std::string::npos) << e;
  EXPECT_NE(hint.find("emb"), std::string::npos);
  EXPECT_NE(error_of(base + "tied_to = \"head\"\n").find("itself"), std::string::npos);
}

TEST(ModelFile, ShapeMismatchNamesLayerLocationAndShapes) {
  std::string e = error_of("[[layer]]\nname = \"a\"\nop = \"linear\"\nout_features = 3\n"
                           "[[layer]]\nname = \"s\"\nop = \"add\"\ninputs = [\"a\", \"@input\"]\n");
  EXPECT_NE(e.find("test.toml:8:"), std::string::npos) << e;  // 3 header lines + 4: the [[layer]] of "s"
  EXPECT_NE(e.find("layer 's' (add)"), std::string::npos) << e;
  EXPECT_NE(e.find("3, 4"), std::string::npos) << e;  // input shapes: 3, 4
}

TEST(ModelFile, OtherErrors) {
  EXPECT_NE(error_of("[[layer]]\nname = \"a\"\nop = \"rleu\"\n").find("unknown op 'rleu'"), std::string::npos);
  EXPECT_NE(error_of("[[layer]]\nname = \"a\"\nop = \"relu\"\n[[layer]]\nname = \"a\"\nop = \"relu\"\n")
                .find("two layers are called 'a'"),
            std::string::npos);
  EXPECT_NE(error_of("[[layer]]\nname = \"a\"\nop = \"relu\"\ninputs = [\"b\"]\n"
                     "[[layer]]\nname = \"b\"\nop = \"relu\"\ninputs = [\"a\"]\n")
                .find("cycle"),
            std::string::npos);
  EXPECT_NE(error_of("[[layer]]\nname = \"a\"\nop = \"softmax\"\ndim = 1\n").find("dim"), std::string::npos);
  EXPECT_NE(error_of("[[layer]]\nname = \"a@b\"\nop = \"relu\"\n").find("must not contain"), std::string::npos);
  EXPECT_NE(error_of("[[layer]]\nname = \"m\"\nop = \"matmul\"\n").find("takes 2 input(s), got 1"),
            std::string::npos);
}

}  // namespace
}  // namespace ridge
