// Bad-input classes as a table: each row is one input error a reader can raise, the
// command that provokes it through the real binary, and the message it must print
// (exit 2, one `error:` line located in the file where there is one, at most a `hint:`).
// A second test counts the input-error throw sites (`throw InputError` and `fail(`) in
// each reader source and fails when one has more sites than rows here plus its recorded
// backlog of sites covered elsewhere or not yet by this table: a new throw needs a row.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <map>
#include <regex>

#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

struct Case {
  const char* reader;   // the source file whose throw site this row provokes
  const char* file;     // text of `in.toml` written before the command ("" for none)
  const char* command;  // shell command; RIDGE is the binary, run in the test's folder
  const char* message;  // must appear in the error line
  bool located;         // the error line starts with `error: in.toml:LINE:COL:`
};

#define SWEEP "models = [\"mlp\"]\nhardware = [\"v100\"]\n"
#define VARY "[[vary]]\nkey = \"memory.HBM2.bandwidth\"\n"
#define SET "RIDGE analyze mlp --hw v100 --set "
#define PLOT_CSV "hardware,dtype,batch,samples_per_s,bound\nv100,fp16,1,10,compute\na100,fp16,1,20,compute\n"

const Case kCases[] = {
    // sim/engine/sweep_file.cpp
    {"sim/engine/sweep_file.cpp", "hardware = [\"v100\"]\n", "RIDGE sweep in.toml", "missing required list 'models'", true},
    {"sim/engine/sweep_file.cpp", "models = \"mlp\"\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' must be a list", true},
    {"sim/engine/sweep_file.cpp", "models = []\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' is an empty list", true},
    {"sim/engine/sweep_file.cpp", "models = [1]\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "every element of 'models' must be a string", true},
    {"sim/engine/sweep_file.cpp", SWEEP "dtype = [\"fp13\"]\n", "RIDGE sweep in.toml", "sweep: unknown dtype 'fp13'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "unit = \"\"\nvalues = [1]\n", "RIDGE sweep in.toml", "'unit' must not be empty", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [\"1 TB/s\"]\nfrom = 1\n", "RIDGE sweep in.toml", "give either 'values' or a range", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [inf]\n", "RIDGE sweep in.toml", "a value must be finite (got inf)", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [true]\n", "RIDGE sweep in.toml", "a value must be a string", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\nstep = 1\ncount = 2\n", "RIDGE sweep in.toml", "'count' and 'step' are both given", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\n", "RIDGE sweep in.toml", "a range needs 'step' or 'count'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\ncount = 2\nscale = \"cubic\"\n", "RIDGE sweep in.toml", "'scale' must be \"linear\" or \"log\"", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY, "RIDGE sweep in.toml", "[[vary]] #1: no values", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 2\nto = 1\ncount = 2\n", "RIDGE sweep in.toml", "'to' must be greater than 'from'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 0\nto = 1\ncount = 2\nscale = \"log\"\n", "RIDGE sweep in.toml", "a log scale needs from > 0", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\ncount = 1\n", "RIDGE sweep in.toml", "'count' must be 2 to 100000", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\nstep = 0\n", "RIDGE sweep in.toml", "'step' must be greater than 0", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 0\nto = 1000000\nstep = 1\n", "RIDGE sweep in.toml", "more than 100000 values", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 1000\ncount = 1000\n[[vary]]\nkey = \"compute.fp32\"\nfrom = 1\nto = 1000\ncount = 1000\n",
     "RIDGE sweep in.toml", "the sweep has 1000000 points", false},
    {"sim/engine/sweep_file.cpp", SWEEP "hw_model = [\"roofline2\"]\n", "RIDGE sweep in.toml", "unknown hardware model 'roofline2'", true},
    {"sim/engine/sweep_file.cpp", SWEEP "batch = [0]\n", "RIDGE sweep in.toml", "a batch must be a positive integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "vary = 1\n", "RIDGE sweep in.toml", "'vary' must be an array of tables", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [\"1 TB/s\"]\n" VARY "values = [\"2 TB/s\"]\n", "RIDGE sweep in.toml", "is varied twice", true},
    {"sim/engine/sweep_file.cpp", "", "RIDGE sweep missing.toml", "cannot read sweep file 'missing.toml'", false},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"decode\"]\ncontext = [-1]\n", "RIDGE sweep in.toml",
     "a context must be a non-negative integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"decode\"]\n", "RIDGE sweep in.toml", "phase \"decode\" needs context = [...]", true},
    {"sim/engine/sweep_file.cpp", SWEEP "context = [128]\n", "RIDGE sweep in.toml", "'context' applies to phase = [\"decode\"] only", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"prefill\"]\nseq = [0]\n", "RIDGE sweep in.toml",
     "a seq must be a positive integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"prefill\", \"inference\"]\nseq = [128]\n", "RIDGE sweep in.toml",
     "'seq' applies to phase = [\"prefill\"] only", true},
    // sim/workload/model_reader.cpp and ops (most are in the backlog below)
    {"sim/workload/model_reader.cpp", "name = \"m\"\nmax_positions = 0\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\n",
     "RIDGE analyze ./in.toml", "'max_positions' must be a positive integer (got 0)", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = \"a + 1\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' is defined in terms of itself", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = 1.5\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' must be an integer or an expression string", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml --set model.b=3", "the model has no parameter 'b' to set", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [0]\nstarts = [0, 1]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "starts, ends and steps must have one entry per axis", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [5]\nstarts = [0]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "'axes' must be in [-2, 2) for the input 4x8 (got 5)", false},
    {"sim/workload/ops/normalization.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\neps = -1\n",
     "RIDGE analyze ./in.toml", "'eps' must be positive", false},
    // the layer types ONNX import added (conv_transpose2d, instancenorm, resize)
#define IMAGE "name = \"m\"\n[input]\nshape = [3, 8, 8]\n[[layer]]\nname = \"l\"\n"
    {"sim/workload/ops/conv_transpose2d.cpp", IMAGE "op = \"conv_transpose2d\"\nout_channels = 4\n", "RIDGE analyze ./in.toml",
     "'kernel' is required", false},
    {"sim/workload/ops/conv_transpose2d.cpp", IMAGE "op = \"conv_transpose2d\"\nout_channels = 4\nkernel = 3\noutput_padding = 1\n",
     "RIDGE analyze ./in.toml", "'output_padding' must be smaller than the stride or the dilation", false},
    {"sim/workload/ops/normalization.cpp", IMAGE "op = \"instancenorm\"\neps = 0\n", "RIDGE analyze ./in.toml",
     "'eps' must be positive", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\n", "RIDGE analyze ./in.toml", "'size' is required", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\nsize = 16\nmode = \"cubic\"\n", "RIDGE analyze ./in.toml",
     "'mode' must be \"nearest\" or \"linear\"", false},
    {"sim/workload/ops/moe.cpp",
     "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"r\"\nop = \"linear\"\nout_features = 4\n[[layer]]\nname = \"e\"\n"
     "op = \"moe\"\ninputs = [\"@input\", \"r\"]\nnum_experts = 4\ntop_k = 5\nintermediate_size = 16\n",
     "RIDGE analyze ./in.toml", "'top_k' must be at most num_experts = 4 (got 5)", false},
    // sim/base/units.cpp (datasheet quantities, here through --set compute.fp32)
    {"sim/base/units.cpp", "", SET "'compute.fp32='", "is empty", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=abc TFLOPS'", "does not start with a number", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1e999 TFLOPS'", "is out of range", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=\"120\"'", "has no unit", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1.2.3TFLOPS'", "is not a number followed by a unit", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120 GB/s'", "is a bandwidth ('GB/s'), not a compute rate", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120 XFLOPS'", "has an unknown unit 'XFLOPS'", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=-120 TFLOPS'", "must be positive", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=0 TFLOPS'", "must be greater than zero", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1e300 PFLOPS'", "is too large", false},
    {"sim/base/units.cpp", "", SET "'overhead.kernel_launch=1e-300 ps'", "is too close to zero to compute with", false},
    {"sim/base/units.cpp", "name = \"h\"\nkind = \"gpu\"\nsource = \"t\"\n[compute]\nfp32 = \"1 TFLOPS\"\n[[memory]]\nname = \"D\"\nbandwidth = \"1 TB/s\"\n",
     "RIDGE analyze mlp --hw in.toml", "missing required key 'capacity'", true},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120'", "must be a number with a unit in quotes", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=12 0 TFLOPS'", "(got \"12 0 TFLOPS\")", false},
    // sim/base/input_file.cpp
    {"sim/base/input_file.cpp", "name = \"x\"\n", "truncate -s 1G in.toml && RIDGE analyze ./in.toml", "more than the limit of 16 MiB", false},
    {"sim/base/input_file.cpp", "", "mkfifo f && (head -c 17000000 /dev/zero > f &) && RIDGE analyze ./f", "the input is more than the limit of 16 MiB",
     false},
    // plots/sweep_figure.cpp: the figure's axes as chosen (in.toml holds a sweep CSV here)
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --x hardware --output o.png",
     "--x hardware: not a column that can be numbers on the x axis", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --colour dtype --output o.png",
     "--colour dtype: every row drawn has dtype=fp16", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --y bound --output o.png",
     "--y bound: not a quantity of this CSV", false},
};

// Throw sites per reader that this table does not provoke: covered by the other bad-input
// tests (test_bad_input, test_defect_regressions, test_limits, test_descriptor,
// test_sweep_file, test_plot) or not yet by a row here. Lower a number when you add rows;
// a new throw site must come with a row.
const std::map<std::string, int> kBacklog = {
    {"sim/workload/model_reader.cpp", 27}, {"sim/workload/ops/conv2d.cpp", 1},  {"sim/workload/ops/embedding.cpp", 1},
    {"sim/workload/ops/layout.cpp", 6},    {"sim/workload/ops/normalization.cpp", 2}, {"sim/workload/ops/pooling.cpp", 3},
    {"sim/workload/ops/structural.cpp", 3}, {"hw/descriptor_reader.cpp", 33},     {"sim/base/toml_fields.cpp", 20},
    {"plots/sweep_table.cpp", 14},         {"plots/sweep_figure.cpp", 3},        {"plots/sweep_plot.cpp", 1},
    {"sim/engine/measured_layers.cpp", 13},
};

class InputErrorTable : public ridge_test::FolderTest {
 protected:
  // Runs rows [first, last) of `reader`'s rows (tests stay under 2 s each).
  void run_rows(const std::string& reader, int first = 0, int last = 1000) {
    int rows = 0, index = -1;
    for (const Case& c : kCases) {
      if (c.reader != reader) continue;
      ++index;
      if (index < first || index >= last) continue;
      ++rows;
      SCOPED_TRACE(c.command);
      if (*c.file) write("in.toml", c.file);
      std::string cmd = c.command;
      for (size_t at; (at = cmd.find("RIDGE")) != std::string::npos;) cmd.replace(at, 5, "'" RIDGE_BINARY "'");
      int raw = std::system(("cd '" + root_.string() + "' && " + cmd + " >out.txt 2>err.txt").c_str());
      std::string err = ridge_test::slurp(root_ / "err.txt");
      EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 2) << err;
      std::istringstream lines(err);
      std::string first, second, third;
      std::getline(lines, first);
      EXPECT_EQ(first.rfind("error: ", 0), 0u) << err;
      EXPECT_NE(first.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << first;
      if (c.located) {
        EXPECT_TRUE(std::regex_search(first, std::regex("^error: in\\.toml:[0-9]+:[0-9]+: "))) << first;
      }
      if (std::getline(lines, second)) {
        EXPECT_EQ(second.rfind("hint: ", 0), 0u) << err;
      }
      EXPECT_FALSE(std::getline(lines, third)) << err;
      EXPECT_EQ(ridge_test::slurp(root_ / "out.txt"), "");
      std::filesystem::remove_all(root_);
      std::filesystem::create_directories(root_);
    }
    EXPECT_GT(rows, 0);
  }
};

TEST_F(InputErrorTable, SweepFileLists) { run_rows("sim/engine/sweep_file.cpp", 0, 12); }
TEST_F(InputErrorTable, SweepFileRangesAndLimits) { run_rows("sim/engine/sweep_file.cpp", 12); }
TEST_F(InputErrorTable, Units) { run_rows("sim/base/units.cpp"); }
TEST_F(InputErrorTable, InputFile) { run_rows("sim/base/input_file.cpp"); }
TEST_F(InputErrorTable, ModelFilesAndOps) {
  for (const char* reader : {"sim/workload/model_reader.cpp", "sim/workload/ops/layout.cpp",
                             "sim/workload/ops/normalization.cpp", "sim/workload/ops/moe.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, ImportedLayerTypes) {
  run_rows("sim/workload/ops/conv_transpose2d.cpp");
  run_rows("sim/workload/ops/resize.cpp");
}
TEST_F(InputErrorTable, SweepPlotChoices) { run_rows("plots/sweep_figure.cpp"); }

// Lines of `source` that raise an input error: `throw InputError(` or a `fail(` call
// (TomlFields::fail, or units' local `fail`).
int throw_sites(const std::string& source) {
  std::string text = ridge_test::slurp(std::filesystem::path(RIDGE_SOURCE_DIR) / source);
  std::istringstream lines(text);
  static const std::regex site(R"(throw InputError\(|(^|[^A-Za-z_])fail\()");
  static const std::regex definition(R"(void TomlFields::fail|\[\[noreturn\]\] void fail)");
  int n = 0;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, site) && !std::regex_search(line, definition)) ++n;
  return n;
}

TEST(InputErrorCoverage, EveryReaderThrowSiteHasARowOrIsInTheBacklog) {
  std::map<std::string, int> rows;
  for (const Case& c : kCases) ++rows[c.reader];
  std::map<std::string, int> expected = kBacklog;
  for (const auto& [reader, n] : rows) expected[reader] += n;
  for (const auto& [reader, n] : expected) {
    int sites = throw_sites(reader);
    EXPECT_EQ(sites, n) << reader << " has " << sites << " input-error throw sites; the table has " << rows[reader]
                        << " rows for it and the backlog " << (kBacklog.count(reader) ? kBacklog.at(reader) : 0)
                        << ": a new throw needs a row in kCases (or, if you removed one, lower the backlog)";
  }
}

}  // namespace
