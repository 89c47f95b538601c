// Regression tests for the output defects of issue #22: strings written unescaped into
// the files ridge makes (a TOML comment, plot labels in SVG and LaTeX), outputs that
// overwrote an input, /dev/stdout into a pipe refused, and a lost stdout (a full disk)
// reported as success. Each case is the input that broke ridge and what it must now do.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "sim/base/signal_cleanup.hpp"
#include "tests/plot_test_util.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

namespace fs = std::filesystem;
using ridge_test::run_ridge;
using ridge_test::RidgeRun;
using ridge_test::slurp;

class HardeningOutputs : public ridge_test::FolderTest {
 protected:
  // Runs `command` with bash in the test's folder; stdout and stderr go to out.txt.
  int shell(const std::string& command) {
    std::string full = "cd '" + root_.string() + "' && bash -c 'set -o pipefail; " + command + "' >out.txt 2>&1";
    int raw = std::system(full.c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
};

// True when a line of `text` starts with `prefix`.
bool has_line_starting(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return true;
  return false;
}

const std::string kDescriptor = RIDGE_SOURCE_DIR "/configs/calibration/dev-host-1core.toml";
const std::string kLayersCsv = RIDGE_SOURCE_DIR "/configs/calibration/data/dev-host-layers.csv";

// --- strings in TOML files ---

TEST_F(HardeningOutputs, CalibrateDataNameCannotInjectToml) {
  // --data with newlines wrote a live [efficiency] table into the descriptor's comment,
  // which passed the read-back and made every later timing 100x slower.
  const std::string data = "x\n[efficiency]\ncompute = 0.01\nsource = \"x\"\n#";
  RidgeRun r = run_ridge("calibrate '" + kLayersCsv + "' --hw '" + kDescriptor + "' --data '" + data + "' --output '" +
                         at("cal.toml") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string written = slurp(at("cal.toml"));
  EXPECT_FALSE(has_line_starting(written, "[efficiency]")) << written;
  EXPECT_FALSE(has_line_starting(written, "compute = 0.01")) << written;
  // The name reads back as given, escapes and all.
  EXPECT_TRUE(has_line_starting(written, "data = \"x\\u000A[efficiency]\\u000Acompute = 0.01\\u000Asource = \\\"x\\\"\\u000A#\""))
      << written;
  EXPECT_EQ(run_ridge("analyze mlp --hw '" + at("cal.toml") + "'").status, 0);
}

TEST_F(HardeningOutputs, ImportPathCannotInjectToml) {
  // The ONNX file's path went into the imported model's first comment as it was (a
  // folder's name here: the file's own name becomes the model's, which refuses newlines).
  fs::create_directory(at("a\ny = 1\n#"));
  const std::string onnx = at("a\ny = 1\n#/gelu.onnx");
  fs::copy_file(RIDGE_SOURCE_DIR "/tests/data/onnx/gelu-chain.onnx", onnx);
  RidgeRun r = run_ridge("import '" + onnx + "' --output '" + at("m.toml") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string written = slurp(at("m.toml"));
  // The comment stays one line (a top-level `y = 1` would be an unknown key on reading back).
  EXPECT_EQ(written.find("# Imported by"), 0u) << written;
  EXPECT_NE(written.substr(0, written.find('\n')).find("a\\u000Ay = 1\\u000A#/gelu.onnx"), std::string::npos) << written;
  RidgeRun back = run_ridge("analyze '" + at("m.toml") + "' --hw v100");
  EXPECT_EQ(back.status, 0) << back.err;
}

// --- outputs ---

TEST_F(HardeningOutputs, OutputNamingAnInputFileIsRefused) {
  std::string model = write("m.toml", slurp(RIDGE_SOURCE_DIR "/models/mlp.toml"));
  const std::string before = slurp(model);
  RidgeRun r = run_ridge("analyze '" + model + "' --hw v100 --output '" + model + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("the output would overwrite an input file of this run"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(model), before);
  // Through a link, and the descriptor of a calibration.
  fs::create_symlink(model, at("link.toml"));
  EXPECT_EQ(run_ridge("memory '" + model + "' --output '" + at("link.toml") + "'").status, 2);
  std::string chip = write("chip.toml", slurp(kDescriptor));
  RidgeRun cal = run_ridge("calibrate '" + kLayersCsv + "' --hw '" + chip + "' --output '" + chip + "'");
  EXPECT_EQ(cal.status, 2) << cal.err;
  EXPECT_EQ(slurp(chip), slurp(kDescriptor));
  // Another name is written as before.
  EXPECT_EQ(run_ridge("analyze '" + model + "' --hw '" + chip + "' --output '" + at("report.txt") + "'").status, 0);
  EXPECT_TRUE(fs::exists(at("report.txt")));
}

TEST_F(HardeningOutputs, OutputDevStdoutIntoAPipeWorks) {
  // The README says --output /dev/stdout works; into a pipe it was refused (exit 1).
  ASSERT_EQ(shell("\"" RIDGE_BINARY "\" analyze mlp --hw v100 --format csv --output /dev/stdout | cat > piped.csv"), 0)
      << slurp(at("out.txt"));
  RidgeRun direct = run_ridge("analyze mlp --hw v100 --format csv");
  EXPECT_EQ(slurp(at("piped.csv")), direct.out);
  EXPECT_FALSE(direct.out.empty());
}

TEST_F(HardeningOutputs, StdoutOnAFullDiskIsAnError) {
  // `> /dev/full` exited 0 with nothing written.
  EXPECT_EQ(shell("\"" RIDGE_BINARY "\" list models > /dev/full"), 1);
  EXPECT_NE(slurp(at("out.txt")).find("error: writing to the standard output failed"), std::string::npos)
      << slurp(at("out.txt"));
  EXPECT_EQ(shell("\"" RIDGE_BINARY "\" analyze mlp --hw v100 --format json > /dev/full"), 1);
}

TEST_F(HardeningOutputs, ASignalBeforeATemporaryIsRegisteredWaitsForTheRegistration) {
  // A signal just after a temporary was created (the file opened, the plot folder made)
  // and before its cleanup was registered left it behind. write_file_atomically and the
  // plot's folder now create and register inside SignalsHeld: here a SIGTERM raised in
  // that window is delivered only once the registration exists, and removes the file.
  const std::string tmp = at("output.tmp-x");
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::unique_ptr<ridge::SignalCleanup> cleanup;
    {
      ridge::SignalsHeld held;
      std::ofstream(tmp) << "partial";
      ::raise(SIGTERM);  // arrives between the creation and the registration
      cleanup = std::make_unique<ridge::SignalCleanup>(tmp, ridge::SignalCleanup::Kind::file);
    }
    ::_exit(0);  // not reached: the held SIGTERM is delivered when `held` ends
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(fs::exists(tmp));
}

// --- names in plot labels ---

// A one-layer model whose layer is named `name` (TOML escapes allowed).
std::string named_layer_model(const std::string& name) {
  return "name = \"m\"\n[input]\nshape = [64]\n[[layer]]\nname = \"" + name + "\"\nop = \"linear\"\nout_features = 64\n";
}

TEST_F(HardeningOutputs, CdataEndInANameKeepsTheSvgValidXml) {
  if (!ridge::test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint is not installed";
  std::string model = write("m.toml", named_layer_model("a]]>b"));
  RidgeRun r = run_ridge("plot layers '" + model + "' --hw v100 --output '" + at("fig.svg") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(shell("xmllint --noout fig.svg"), 0) << slurp(at("out.txt"));
}

TEST_F(HardeningOutputs, CjkEmojiAndLongNamesGiveATexThatCompiles) {
  if (!ridge::test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (std::system("command -v pdflatex >/dev/null 2>&1") != 0) GTEST_SKIP() << "pdflatex is not installed";
  // A CJK name, an emoji and a 256-byte name (the longest a reader takes) in one model.
  std::string model = write("m.toml", "name = \"\xe6\xa8\xa1\xe5\x9e\x8b \xf0\x9f\x9a\x80\"\n[input]\nshape = [64]\n"
                                      "[[layer]]\nname = \"\xe5\xb1\x82\"\nop = \"linear\"\nout_features = 64\n"
                                      "[[layer]]\nname = \"\xf0\x9f\x94\xa5\"\nop = \"relu\"\n"
                                      "[[layer]]\nname = \"" + std::string(256, 'w') + "\"\nop = \"linear\"\nout_features = 8\n");
  RidgeRun r = run_ridge("plot layers '" + model + "' --hw v100 --output '" + at("fig.tex") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  write("paper.tex", "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{color}\n\\begin{document}\n"
                     "\\input{fig.tex}\n\\end{document}\n");
  EXPECT_EQ(shell("pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape paper.tex"), 0) << slurp(at("out.txt"));
  // And the PNG of the same model draws.
  RidgeRun png = run_ridge("plot layers '" + model + "' --hw v100 --output '" + at("fig.png") + "'");
  EXPECT_EQ(png.status, 0) << png.err;
}

}  // namespace
