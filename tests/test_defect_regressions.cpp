// Regression tests for the defects of issue #14, found by an independent campaign of
// hand-written bad inputs, mutated configs and sanitizer runs. Each case is the input
// that broke ridge (a crash, a hang, a wrapped count, a silent wrong model, a message
// without its location) and the answer it must now give: exit 2 with one located
// `error:` line, or the value computed by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "sim/workload/model_reader.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace fs = std::filesystem;

namespace {

using ridge_test::run_ridge;
using ridge_test::RidgeRun;

class Defect : public ridge_test::FolderTest {
 protected:
  // `ridge ARGS` must exit 2 with one `error:` line (and at most a `hint:` line); the
  // error line must start with `error: PREFIX` and contain `what`. Returns stderr.
  std::string expect_error(const std::string& args, const std::string& prefix, const std::string& what) {
    RidgeRun r = run_ridge(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    std::istringstream lines(r.err);
    std::string first, second, third;
    std::getline(lines, first);
    EXPECT_EQ(first.rfind("error: " + prefix, 0), 0u) << "expected the prefix 'error: " << prefix << "'\ngot: " << r.err;
    EXPECT_NE(first.find(what), std::string::npos) << "expected '" << what << "' in: " << first;
    if (std::getline(lines, second)) {
      EXPECT_EQ(second.rfind("hint: ", 0), 0u) << r.err;
    }
    EXPECT_FALSE(std::getline(lines, third)) << "more than an error and a hint line:\n" << r.err;
    return r.err;
  }
};

const std::string kChip = RIDGE_SOURCE_DIR "/tests/data/chip120.toml";

std::string vary_range(const std::string& key, const std::string& unit, int64_t count) {
  return "[[vary]]\nkey = \"" + key + "\"\nunit = \"" + unit + "\"\nfrom = 1\nto = 1000\ncount = " +
         std::to_string(count) + "\n";
}

// --- names longer than the file system allows ---

TEST_F(Defect, ANameTooLongForAFileIsUnknownNotAnInternalError) {
  // A 300-character shipped name made configs/hw/NAME.toml (models/NAME.toml) too long to
  // look up: "internal: filesystem error: File name too long", exit 1 (found by fuzz_sweep in CI).
  const std::string name(300, 'a');
  expect_error("analyze mlp --hw " + name, "", "unknown hardware '" + name + "'");
  // Not a zoo name, so taken as a file name, which cannot be read.
  expect_error("analyze " + name + " --hw v100", name + ": ", "cannot read the model file");
}

// --- sweeps: point counts that wrap or cannot fit in memory ---

TEST_F(Defect, SweepPointCountThatWrapsTo0IsRefused) {
  // 4 x 65,536 values: 2^64 points, which a size_t product wrapped to 0 (SIGFPE, exit 136).
  std::string file = write("wrap.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\n" +
                                            vary_range("memory.HBM2.bandwidth", "GB/s", 65536) +
                                            vary_range("memory.HBM2.capacity", "GB", 65536) +
                                            vary_range("compute.fp32", "TFLOPS", 65536) +
                                            vary_range("compute.fp16", "TFLOPS", 65536));
  expect_error("sweep '" + file + "'", file + ": ", "the sweep has at least 2^64 points");
}

TEST_F(Defect, SweepOf10To10PointsIsRefusedBeforeRunning) {
  std::string file = write("big.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\n" +
                                           vary_range("memory.HBM2.bandwidth", "GB/s", 100000) +
                                           vary_range("compute.fp32", "TFLOPS", 100000));
  expect_error("sweep '" + file + "'", file + ": ", "the sweep has 10000000000 points");
}

TEST_F(Defect, SweepOf10To7PointsIsRefusedNotBadAlloc) {
  // 10^7 points needed over 10 GB and ended in `internal: std::bad_alloc`.
  std::string file = write("big.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\nbatch = [" +
                                           [] {
                                             std::string b;
                                             for (int i = 1; i <= 100; ++i) b += (i > 1 ? ", " : "") + std::to_string(i);
                                             return b;
                                           }() +
                                           "]\n" + vary_range("memory.HBM2.bandwidth", "GB/s", 100000));
  expect_error("sweep '" + file + "'", file + ": ", "more than the limit of 300000");
}

TEST_F(Defect, PerLayerRowsAreBounded) {
  // mlp has 9 layers: 120,000 batches with --per-layer are 1,080,000 rows, over the 1,000,000 limit.
  std::string batches;
  for (int i = 1; i <= 120000; ++i) batches += (i > 1 ? "," : "") + std::to_string(i);
  std::string file = write("rows.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\nbatch = [" + batches + "]\n");
  expect_error("sweep '" + file + "' --per-layer", file + ": ", "--per-layer would write 1080000 rows");
}

TEST_F(Defect, TooManyJobsIsABadValueNotAnAbort) {
  // --jobs 100000 under a memory limit aborted ("terminate called without an active exception").
  std::string file = write("s.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\n");
  expect_error("sweep '" + file + "' --jobs 100000", "--jobs must be 1 to 1024", "(got 100000)");
}

// AddressSanitizer reserves more address space than the limit below allows; GCC says it is
// on with __SANITIZE_ADDRESS__, clang (the checked build, scripts/build-asan) with __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIDGE_TEST_UNDER_ASAN
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(RIDGE_TEST_UNDER_ASAN)
TEST_F(Defect, ThreadsTheSystemRefusesDoNotAbortTheSweep) {
  // 1,024 groups (batches), 1,024 threads of 8 MiB stacks under a 1 GB address-space limit:
  // thread creation fails part way, and the sweep runs on the threads it got.
  std::string batches;
  for (int i = 1; i <= 1024; ++i) batches += (i > 1 ? ", " : "") + std::to_string(i);
  std::string file = write("s.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\nbatch = [" + batches + "]\n");
  std::string out = (root_ / "out.csv").string();
  std::string cmd = "sh -c \"ulimit -v 1000000; '" RIDGE_BINARY "' sweep '" + file + "' --jobs 1024 --output '" + out +
                    "' >/dev/null 2>&1\"";
  int raw = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 0);
  // The same bytes as one thread writes.
  std::string one = (root_ / "one.csv").string();
  ASSERT_EQ(run_ridge("sweep '" + file + "' --jobs 1 --output '" + one + "'").status, 0);
  EXPECT_EQ(ridge_test::slurp(out), ridge_test::slurp(one));
}
#endif

// --- 64-bit overflow ---

TEST_F(Defect, ByteSumOfA2To60InputAndReluIsAnError) {
  // Input and output bytes of the relu are 2^62 each; their sum 2^63 wrapped (intensity 0, exit 0).
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [1152921504606846976]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n");
  expect_error("analyze '" + m + "'", m + ":4:", "layer 'r': at batch 1 its counts overflow 64 bits");
}

TEST_F(Defect, MemoryTimelineOverflowIsAnErrorNotANegativeCount) {
  // Training keeps the 2^59-element input and relu output (fp32: 2^61 B each) and adds their
  // gradients: the live bytes pass 2^63 (printed as -9223372036854775808).
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [576460752303423488]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n"
                                  "[[layer]]\nname = \"s\"\nop = \"relu\"\n");
  std::string err = expect_error("memory '" + m + "' --phase training", "", "overflows 64 bits");
  // At batch 1 a smaller batch cannot help.
  EXPECT_EQ(err.find("smaller --batch"), std::string::npos) << err;
  EXPECT_NE(err.find("even one sample is too large"), std::string::npos) << err;
}

TEST_F(Defect, PoolingStrideNearInt64MaxWithCeilMode) {
  // PyTorch's rule by hand: out = ceil((8 - 2) / s) + 1 = 2 for any s >= 6, then the last
  // window would start at (2 - 1) x s >= 8, past the input, so out = 1. (span + s - 1 overflowed.)
  ridge::Model m = ridge::read_model_string(
      "name = \"t\"\n[input]\nshape = [1, 8, 8]\n[[layer]]\nname = \"p\"\nop = \"max_pool2d\"\nkernel = 2\n"
      "stride = 9223372036854775807\nceil_mode = true\n",
      "m.toml");
  EXPECT_EQ(m.layers[0].output, (ridge::Shape{1, 1, 1}));
}

// --- non-finite and subnormal values ---

TEST_F(Defect, DropoutPNan) {
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [4]\n[[layer]]\nname = \"d\"\nop = \"dropout\"\np = nan\n");
  expect_error("analyze '" + m + "'", m + ":7:", "'p' must be a number, not nan");
}

TEST_F(Defect, FlopsPerCycleInfinite) {
  std::string hw = write("hw.toml",
                         "name = \"h\"\nkind = \"cpu\"\nsource = \"test\"\n[compute]\ncores = 4\nclock = \"2 GHz\"\n"
                         "flops_per_cycle = { fp32 = inf }\n[[memory]]\nname = \"DRAM\"\ncapacity = \"16 GiB\"\nbandwidth = \"50 GB/s\"\n");
  expect_error("analyze mlp --hw '" + hw + "'", hw + ":7:", "'fp32' must be finite (got inf)");
}

TEST_F(Defect, EfficiencySubnormal) {
  std::string hw = write("hw.toml", "name = \"h\"\nkind = \"gpu\"\nsource = \"test\"\n[compute]\nfp32 = \"1 TFLOPS\"\n"
                                    "[[memory]]\nname = \"HBM\"\ncapacity = \"16 GiB\"\nbandwidth = \"50 GB/s\"\n"
                                    "[efficiency]\ncompute = 1e-320\nsource = \"x\"\n");
  expect_error("analyze mlp --hw '" + hw + "'", hw + ":11:", "'compute' is too close to zero");
}

TEST_F(Defect, SweepRangeFromSubnormal) {
  // from = 1e-310 ended in `internal: stod` (exit 1).
  std::string file = write("s.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip +
                                         "\"]\n[[vary]]\nkey = \"efficiency.compute\"\nfrom = 1e-310\nto = 1\ncount = 3\n");
  expect_error("sweep '" + file + "'", file + ":5:", "'from' is too close to zero");
}

TEST_F(Defect, SweepValueInfinite) {
  std::string file = write("s.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip +
                                         "\"]\n[[vary]]\nkey = \"efficiency.compute\"\nvalues = [0.5, inf]\n");
  expect_error("sweep '" + file + "'", file + ":5:", "a value must be finite (got inf)");
}

// --- silent wrong models ---

TEST_F(Defect, TiedToALayerWithoutWeights) {
  // Tying a 7x16 linear to a relu dropped its 112 weights from the parameter count.
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [16]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n"
                                  "[[layer]]\nname = \"fc\"\nop = \"linear\"\nout_features = 7\ntied_to = \"r\"\n");
  expect_error("analyze '" + m + "'", m + ":11:", "tied_to 'r' (relu) has no weight matrix to share");
}

TEST_F(Defect, TiedToAWeightOfAnotherShape) {
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [16]\n"
                                  "[[layer]]\nname = \"a\"\nop = \"linear\"\nout_features = 16\n"
                                  "[[layer]]\nname = \"b\"\nop = \"linear\"\nout_features = 7\ntied_to = \"a\"\n");
  expect_error("analyze '" + m + "'", m + ":12:", "its weight [7, 16] cannot be tied to 'a', whose weight is [16, 16]");
}

TEST_F(Defect, TiedToAnEmbeddingOfTheSameShapeIsAccepted) {
  // GPT-2's lm_head: an embedding [V, D] = [10, 4] and a linear 4 -> 10 whose weight is [10, 4].
  ridge::Model m = ridge::read_model_string(
      "name = \"t\"\n[input]\nshape = [3]\n[[layer]]\nname = \"wte\"\nop = \"embedding\"\nnum_embeddings = 10\n"
      "embedding_dim = 4\n[[layer]]\nname = \"head\"\nop = \"linear\"\nout_features = 10\nbias = false\ntied_to = \"wte\"\n",
      "m.toml");
  EXPECT_EQ(m.layers[1].counts.params, 0);
  EXPECT_EQ(m.layers[1].counts.weight_elems, 40);
}

TEST_F(Defect, DataOnHostWithoutALink) {
  // chip120 has no [link]: --data-on host used to charge 0 s for the transfer.
  expect_error("analyze mlp --hw '" + kChip + "' --data-on host", kChip + ": ", "has no [link], so --data-on host");
}

TEST_F(Defect, CheckpointThatRaisesThePeakSaysItCostsMemory) {
  // Checkpointing every layer of this chain keeps each segment's input for its recompute,
  // which raises the peak: the report must say it costs memory, not "saves -80 B".
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [1000]\n"
                                  "[[layer]]\nname = \"a\"\nop = \"linear\"\nout_features = 10\n"
                                  "[[layer]]\nname = \"b\"\nop = \"linear\"\nout_features = 4000\n"
                                  "[[layer]]\nname = \"c\"\nop = \"tanh\"\n"
                                  "[[layer]]\nname = \"d\"\nop = \"linear\"\nout_features = 10\n");
  RidgeRun r = run_ridge("memory '" + m + "' --checkpoint every=1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("more: the recompute holds more than it frees"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("saves -"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("checkpoint saves"), std::string::npos) << r.out;
}

// --- message shape ---

TEST_F(Defect, UnknownHardwareModelInADescriptorIsLocated) {
  std::string hw = write("hw.toml", "name = \"h\"\nkind = \"gpu\"\nmodel = \"roofline2\"\nsource = \"test\"\n"
                                    "[compute]\nfp32 = \"1 TFLOPS\"\n[[memory]]\nname = \"HBM\"\ncapacity = \"16 GiB\"\nbandwidth = \"50 GB/s\"\n");
  std::string err = expect_error("analyze mlp --hw '" + hw + "'", hw + ":3:", "unknown hardware model 'roofline2'");
  EXPECT_NE(err.find("'roofline'"), std::string::npos) << err;
}

TEST_F(Defect, SetValueWithANewlineIsOneLine) {
  RidgeRun r = run_ridge("analyze mlp --hw v100 --set $'name=a\\nb'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), r.err.find("\nhint: ") == std::string::npos ? 1 : 2) << r.err;
  EXPECT_NE(r.err.find("a\\nb"), std::string::npos) << r.err;
}

TEST_F(Defect, SetKeyWhoseTableIsMissingBlamesTheSet) {
  // chip120 has no [link]; link.bandwidth alone makes a link without a name.
  expect_error("analyze mlp --hw '" + kChip + "' --set 'link.bandwidth=32 GB/s'", "--set link.bandwidth=32 GB/s: ",
               "link: missing required key 'name'");
}

TEST_F(Defect, VaryKeyWhoseTableIsMissingBlamesTheVaryValue) {
  std::string file = write("s.toml", "models = [\"mlp\"]\nhardware = [\"" + kChip +
                                         "\"]\n[[vary]]\nkey = \"link.bandwidth\"\nvalues = [\"32 GB/s\"]\n");
  expect_error("sweep '" + file + "'", file + ":5:", "link: missing required key 'name'");
}

TEST_F(Defect, ControlCharactersInNamesAreRejected) {
  std::string layer = write("l.toml", "name = \"t\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\\u001b[31m\"\nop = \"relu\"\n");
  expect_error("analyze '" + layer + "'", layer + ":5:", "'name' must not contain control characters (got character 0x1b)");
  std::string model = write("m.toml", "name = \"a\\nb\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n");
  expect_error("analyze '" + model + "'", model + ":1:", "(got character 0x0a)");
}

TEST_F(Defect, PipeInANameIsEscapedInMarkdown) {
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [4]\n[[layer]]\nname = \"a|b\"\nop = \"relu\"\n");
  RidgeRun r = run_ridge("analyze '" + m + "' --format md");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("a\\|b"), std::string::npos) << r.out;
}

// --- plot sweep on hand-written CSVs ---

TEST_F(Defect, SweepPlotOnValuesBelowDoubleResolutionEnds) {
  // 1e16 and 1e16 + 2 differ by less than a tic step can advance: the tic loop never ended.
  std::string csv = write("s.csv", "hardware,batch,samples_per_s\nh,1,1e16\nh,2,10000000000000002\n");
  RidgeRun r = run_ridge("plot sweep '" + csv + "' --output '" + (root_ / "p.svg").string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(root_ / "p.svg"));
}

TEST_F(Defect, SweepPlotRejectsANonPositiveBatch) {
  std::string csv = write("s.csv", "hardware,batch,samples_per_s\nh,1,10\nh,0,20\n");
  expect_error("plot sweep '" + csv + "' --output '" + (root_ / "p.svg").string() + "'", csv + ":3:3: ",
               "column 'batch' must be a positive number up to 1e300 (got '0')");
  EXPECT_FALSE(fs::exists(root_ / "p.svg"));
}

TEST_F(Defect, SweepPlotRejectsValuesNear1e308) {
  std::string csv = write("s.csv", "hardware,batch,samples_per_s\nh,1,1e308\nh,2,1.7e308\n");
  expect_error("plot sweep '" + csv + "' --output '" + (root_ / "p.svg").string() + "'", csv + ":2:5: ",
               "column 'samples_per_s' must be a positive number up to 1e300");
}

}  // namespace
