// Bad input through the real binary: every case must end with exit status 2, one
// `error:` line (plus at most a `hint:` line) on stderr, nothing on stdout, and no file
// where --output pointed (nor a temporary beside it). Where the mistake is in a model
// file, the line must start `error: FILE:LINE:COL:` with the line of the mistake, which
// each case marks in its text with a trailing `#<` comment.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>

#include "tests/run_ridge.hpp"

namespace fs = std::filesystem;

namespace {

using ridge_test::run_ridge;
using ridge_test::RidgeRun;

// A fresh folder per test: `work` for inputs, `dest` for --output (must stay empty).
class BadInput : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() / ("ridge-bad-input-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "work");
    fs::create_directories(root_ / "dest");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path write(const std::string& name, const std::string& text) {
    fs::path p = root_ / "work" / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

  fs::path output_file() const { return root_ / "dest" / "report.txt"; }

  // `ridge analyze MODEL EXTRA --output F` must fail as bad input; returns stderr's first line.
  std::string expect_rejected(const std::string& model, const std::string& extra = "") {
    RidgeRun r = run_ridge("analyze '" + model + "' " + extra + " --output '" + output_file().string() + "'");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(output_file()));
    EXPECT_TRUE(fs::is_empty(root_ / "dest")) << "a temporary was left beside the output";
    std::istringstream lines(r.err);
    std::string first, second, third;
    std::getline(lines, first);
    EXPECT_EQ(first.rfind("error: ", 0), 0u) << r.err;
    if (std::getline(lines, second)) {
      EXPECT_EQ(second.rfind("hint: ", 0), 0u) << r.err;
    }
    EXPECT_FALSE(std::getline(lines, third)) << "more than an error and a hint line:\n" << r.err;
    hint_ = second;
    last_error_ = first;
    return first;
  }

  // A model file whose mistake is on the line marked `#<`: checks the location prefix
  // `error: FILE:LINE:COL: ` and that the message contains `what`.
  void expect_located(const std::string& text, const std::string& what, const std::string& extra = "") {
    int line = 0, marked = 0;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      ++line;
      if (l.find("#<") != std::string::npos) marked = line;
    }
    ASSERT_GT(marked, 0) << "the case marks no line";
    fs::path file = write("model.toml", text);
    std::string first = expect_rejected(file.string(), extra);
    std::string prefix = "error: " + file.string() + ":" + std::to_string(marked) + ":";
    ASSERT_EQ(first.rfind(prefix, 0), 0u) << "expected the location " << prefix << "\ngot: " << first;
    // Then a column number and ': '.
    size_t i = prefix.size(), digits = 0;
    while (i < first.size() && std::isdigit(static_cast<unsigned char>(first[i]))) ++i, ++digits;
    EXPECT_GT(digits, 0u) << first;
    EXPECT_EQ(first.substr(i, 2), ": ") << first;
    EXPECT_NE(first.find(what), std::string::npos) << "expected '" << what << "' in: " << first;
  }

  fs::path root_;
  std::string hint_;        // the hint line of the last rejected run, if any
  std::string last_error_;  // its error line
};

const std::string kHead = "name = \"t\"\n[input]\nshape = [3, 8, 8]\n";  // lines 1-3

// --- the harness itself can see a written file and a success ---

TEST_F(BadInput, HarnessSeesAGoodRunWriteItsOutput) {
  fs::path file = write("ok.toml", kHead + "[[layer]]\nname = \"r\"\nop = \"relu\"\n");
  RidgeRun r = run_ridge("analyze '" + file.string() + "' --format csv --output '" + output_file().string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(output_file()));
  EXPECT_EQ(r.err, "");
}

// --- model files ---

TEST_F(BadInput, TomlSyntaxError) {
  expect_located("name = \"t\"\n[input  #<\nshape = [3]\n", "invalid TOML");
}

TEST_F(BadInput, TomlIntegerTooLarge) {
  expect_located("name = \"t\"\n[input]\nshape = [99999999999999999999]  #<\n", "64 bits");
}

TEST_F(BadInput, InvalidUtf8) { expect_located("\xff\xfe garbage  #<\n", "invalid TOML"); }

TEST_F(BadInput, MissingRequiredKey) {
  expect_located(kHead + "[[layer]]  #<\nname = \"c\"\nop = \"conv2d\"\nkernel = 3\n", "missing required key 'out_channels'");
}

TEST_F(BadInput, MissingLayerName) {
  expect_located(kHead + "[[layer]]  #<\nop = \"relu\"\n", "missing required key 'name'");
}

TEST_F(BadInput, MissingInputTable) {
  expect_located("name = \"t\"  #<\n[[layer]]\nname = \"r\"\nop = \"relu\"\n", "missing required table [input]");
}

TEST_F(BadInput, UnknownKeySuggestsTheCloseOne) {
  expect_located(kHead + "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nkernel = 3\nout_channels = 4\nstrid = 2  #<\n",
                 "unknown key 'strid'");
  EXPECT_NE(hint_.find("'stride'"), std::string::npos) << hint_;
}

TEST_F(BadInput, UnknownTopLevelKey) {
  expect_located("name = \"t\"\nsorce = \"x\"  #<\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
                 "unknown key 'sorce'");
}

TEST_F(BadInput, UnknownKeyInsideARepeatedBlock) {
  expect_located(kHead + "[[layer]]\nname = \"b\"\nrepeat = 2\n[[layer.body]]\nname = \"r\"\nop = \"relu\"\ninplce = true  #<\n",
                 "layer 'b.0.r' (relu): unknown key 'inplce'");
}

TEST_F(BadInput, MistypedKernel) {
  expect_located(kHead + "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nkernel = \"three\"  #<\nout_channels = 4\n",
                 "unknown name 'three'");  // a string is an expression over [params]
}

TEST_F(BadInput, MistypedModelName) {
  expect_located("name = 5  #<\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
                 "'name' must be a string (got an integer)");
}

TEST_F(BadInput, LayerNotATable) {
  expect_located("layer = [1, 2]  #<\nname = \"t\"\n[input]\nshape = [4]\n", "must be a table");
}

TEST_F(BadInput, NegativeInputSize) {
  expect_located("name = \"t\"\n[input]\nshape = [3, -8, 8]  #<\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
                 "must be positive (got -8)");
}

TEST_F(BadInput, ZeroInputSize) {
  expect_located("name = \"t\"\n[input]\nshape = [3, 0, 8]  #<\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
                 "must be positive (got 0)");
}

TEST_F(BadInput, ZeroOutChannels) {
  expect_located(kHead + "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nkernel = 3\nout_channels = 0  #<\n",
                 "'out_channels' must be positive (got 0)");
}

TEST_F(BadInput, NegativePadding) {
  expect_located(kHead + "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nkernel = 3\nout_channels = 4\npadding = -1  #<\n",
                 "'padding' must be zero or positive (got -1)");
}

TEST_F(BadInput, ZeroKernelInAPair) {
  expect_located(kHead + "[[layer]]\nname = \"p\"\nop = \"max_pool2d\"\nkernel = [2, 0]  #<\n", "'kernel' must be positive");
}

TEST_F(BadInput, ZeroRepeat) {
  expect_located(kHead + "[[layer]]\nname = \"b\"\nrepeat = 0  #<\n[[layer.body]]\nname = \"r\"\nop = \"relu\"\n",
                 "'repeat' must be positive (got 0)");
}

TEST_F(BadInput, UnknownOpSuggestsTheCloseOne) {
  expect_located(kHead + "[[layer]]\nname = \"c\"\nop = \"conv_2d\"  #<\n", "unknown op 'conv_2d'");
  EXPECT_NE(hint_.find("'conv2d'"), std::string::npos) << hint_;
}

TEST_F(BadInput, DuplicateLayerName) {
  expect_located(kHead + "[[layer]]\nname = \"r\"\nop = \"relu\"\n[[layer]]\nname = \"r\"  #<\nop = \"relu\"\n",
                 "two layers are called 'r'");
}

TEST_F(BadInput, AddOfDifferentShapes) {
  expect_located(kHead +
                     "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nkernel = 1\nout_channels = 4\n"
                     "[[layer]]  #<\nname = \"sum\"\nop = \"add\"\ninputs = [\"c\", \"@input\"]\n",
                 "add needs shapes that broadcast (each dimension equal or 1, aligned from the right), got 4x8x8 and 3x8x8");
}

TEST_F(BadInput, AddWithOneInput) {
  expect_located(kHead + "[[layer]]  #<\nname = \"sum\"\nop = \"add\"\n", "takes at least 2 input(s), got 1");
}

TEST_F(BadInput, KernelLargerThanThePaddedInput) {
  expect_located(kHead + "[[layer]]  #<\nname = \"c\"\nop = \"conv2d\"\nkernel = 11\npadding = 1\nout_channels = 4\n",
                 "kernel 11 (dilated) is larger than the padded input height 10");
}

TEST_F(BadInput, KernelTooLargeInTheSecondInstanceOfABlock) {
  // 8x8 -> 2x2 after the first instance (3x3, stride 3); then the 3x3 kernel no longer fits.
  expect_located(kHead + "[[layer]]\nname = \"down\"\nrepeat = 2\n[[layer.body]]  #<\nname = \"c\"\nop = \"conv2d\"\n"
                         "kernel = 3\nstride = 3\nout_channels = 3\n",
                 "layer 'down.1.c' (conv2d)");
}

TEST_F(BadInput, ConvOnAFlatInput) {
  expect_located("name = \"t\"\n[input]\nshape = [100]\n[[layer]]  #<\nname = \"c\"\nop = \"conv2d\"\nkernel = 1\nout_channels = 4\n",
                 "conv2d needs a [C, H, W] input, got 100");
}

TEST_F(BadInput, LinearWithWrongInFeatures) {
  expect_located("name = \"t\"\n[input]\nshape = [100]\n[[layer]]  #<\nname = \"fc\"\nop = \"linear\"\nin_features = 99\nout_features = 4\n",
                 "in_features = 99 but the input 100 has 100 features");
}

TEST_F(BadInput, CycleThroughInputs) {
  expect_located("name = \"t\"\n[input]\nshape = [4]\n"
                 "[[layer]]  #<\nname = \"a\"\nop = \"add\"\ninputs = [\"b\", \"@input\"]\n"
                 "[[layer]]\nname = \"b\"\nop = \"relu\"\ninputs = [\"a\"]\n",
                 "the layers 'a', 'b' form a cycle");
}

TEST_F(BadInput, CycleNamesOnlyItsMembers) {
  // 'c' reads the cycle's output but is not part of it.
  expect_located("name = \"t\"\n[input]\nshape = [4]\n"
                 "[[layer]]\nname = \"c\"\nop = \"relu\"\ninputs = [\"a\"]\n"
                 "[[layer]]  #<\nname = \"a\"\nop = \"relu\"\ninputs = [\"b\"]\n"
                 "[[layer]]\nname = \"b\"\nop = \"relu\"\ninputs = [\"a\"]\n",
                 "the layers 'a', 'b' form a cycle");
  EXPECT_EQ(last_error_.find("'c'"), std::string::npos) << last_error_;
}

TEST_F(BadInput, LayerReadingItself) {
  expect_located(kHead + "[[layer]]\nname = \"r\"\nop = \"relu\"\n[[layer]]  #<\nname = \"s\"\nop = \"add\"\ninputs = [\"r\", \"s\"]\n",
                 "layer 's' takes its own output as input");
}

TEST_F(BadInput, DanglingInput) {
  expect_located(kHead + "[[layer]]\nname = \"r\"\nop = \"relu\"\ninputs = [\"relu0\"]  #<\n", "input 'relu0' names no layer");
}

TEST_F(BadInput, InputShapeOverflows64Bits) {
  expect_located("name = \"t\"\n[input]\nshape = [4000000000, 4000000000, 4000000000]  #<\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
                 "more elements than a 64-bit count holds");
}

TEST_F(BadInput, LayerCountsOverflow64Bits) {
  expect_located(kHead + "[[layer]]  #<\nname = \"c\"\nop = \"conv2d\"\nkernel = 1\nout_channels = 1000000000000000000\n",
                 "overflow 64 bits");
}

TEST_F(BadInput, HugePaddingOverflowsInsteadOfWrappingAround) {
  expect_located(kHead + "[[layer]]  #<\nname = \"c\"\nop = \"conv2d\"\nkernel = 3\nout_channels = 4\npadding = 9000000000000000000\n",
                 "overflow 64 bits");
}

TEST_F(BadInput, HugeAdaptiveOutputSizeFailsFast) {
  // Used to walk every one of the 1e12 output cells per axis: a run killed by the time
  // limit (status 124). Now the window sum is closed-form and the counts overflow at once.
  expect_located(kHead + "[[layer]]  #<\nname = \"p\"\nop = \"adaptive_avg_pool2d\"\noutput_size = 1000000000000\n",
                 "overflow 64 bits");
}

TEST_F(BadInput, BatchThatOverflows64Bits) {
  // The location is the first layer whose batch-scaled counts overflow: alexnet's conv1.
  std::string first = expect_rejected("alexnet", "--batch 9223372036854775807");
  EXPECT_NE(first.find("alexnet.toml:"), std::string::npos) << first;
  EXPECT_NE(first.find("layer 'conv1': at batch 9223372036854775807 its counts overflow 64 bits"), std::string::npos)
      << first;
}

// --- names and command-line values ---

TEST_F(BadInput, UnknownZooNameListsTheCloseOnes) {
  EXPECT_NE(expect_rejected("resnet5").find("unknown model 'resnet5'"), std::string::npos);
  EXPECT_NE(hint_.find("'resnet50'"), std::string::npos) << hint_;
  expect_rejected("mobilenet");
  EXPECT_NE(hint_.find("'mobilenet_v2'"), std::string::npos) << hint_;
}

TEST_F(BadInput, MissingModelFile) {
  EXPECT_NE(expect_rejected((root_ / "work" / "nope.toml").string()).find("no model file"), std::string::npos);
}

TEST_F(BadInput, FolderAsModelFile) {
  EXPECT_NE(expect_rejected((root_ / "work").string()).find("is a folder, not a model file"), std::string::npos);
}

TEST_F(BadInput, BadCommandLineValues) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"--batch 0", "--batch must be a positive integer (got 0)"},
      {"--batch -4", "--batch must be a positive integer (got -4)"},
      {"--batch many", "'--batch' is invalid"},
      {"--batch 99999999999999999999", "'--batch' is invalid"},
      {"--dtype fp13", "--dtype: unknown data type 'fp13'"},
      {"--format xml", "--format: 'xml' is not a format this command writes"},
      {"--phase trianing", "--phase: unknown phase 'trianing'"},
      {"--phase training --optimizer adamm", "--optimizer: unknown optimizer 'adamm'"},
      {"--no-such-option", "unrecognised option '--no-such-option'"},
      {"--hw v100 --hw a100", "--hw is given 2 times; this command takes one"},
      {"--hw-model roofline", "--hw-model needs --hw"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    std::string first = expect_rejected("alexnet", c.args);
    EXPECT_NE(first.find(c.message), std::string::npos) << first;
  }
}

TEST_F(BadInput, BadCommands) {
  for (const char* args : {"frobnicate", "list gadgets", "analyze"}) {
    SCOPED_TRACE(args);
    RidgeRun r = run_ridge(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  }
}

}  // namespace
