// Names from model and hardware files reach gnuplot as data, never as code: layer and
// model names that try backquotes, system(), macros, quotes, '#' and LaTeX commands
// render as text, and nothing they ask for runs. (Newlines and other control characters
// in names are rejected by the readers; test_defect_regressions.cpp checks that.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "plots/gnuplot_text.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

namespace fs = std::filesystem;
using plots::TextMarkup;

const char* const kPwned[] = {"/tmp/ridge_pwned_A", "/tmp/ridge_pwned_B", "/tmp/ridge_pwned_C",
                              "/tmp/ridge_pwned_D", "/tmp/ridge_pwned_E"};

// A model whose name and layer names are payloads. Layer names may not hold '.' or
// '@' (the model reader's rule), so the paths have no dots.
std::string hostile_model() {
  return R"TOML(name = "evil `touch /tmp/ridge_pwned_C` \"q\" # system('touch /tmp/ridge_pwned_D') \\input{x}"
source = "test"

[input]
shape = [64]

[[layer]]
name = "`touch /tmp/ridge_pwned_A`"
op = "linear"
out_features = 64

[[layer]]
name = "system('touch /tmp/ridge_pwned_B')"
op = "relu"

[[layer]]
name = "x\" y # z `touch /tmp/ridge_pwned_E` $HOME %s \\write18{touch} {}"
op = "linear"
out_features = 64

[[layer]]
name = "\"; system(\"touch /tmp/ridge_pwned_E\"); \""
op = "linear"
out_features = 8
)TOML";
}

class HostileNames : public ::testing::TestWithParam<const char*> {};

TEST_P(HostileNames, StayInertAndThePlotRenders) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  for (const char* p : kPwned) fs::remove(p);
  test::TempDir dir;
  fs::path model = dir.path() / "evil.toml";
  std::ofstream(model) << hostile_model();
  const std::string ext = GetParam();
  for (const std::string kind : {"roofline", "layers"}) {
    SCOPED_TRACE(kind + " " + ext);
    fs::path out = dir.path() / (kind + "." + ext);
    test::CliResult r = test::run_cli("plot " + kind + " '" + model.string() + "' --hw v100" + (kind == "roofline" ? " --labels 8" : "") +
                                      " --output '" + out.string() + "'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_GT(fs::file_size(out), 200u);
    // What an author does: re-run the script in its folder.
    std::string rerun = "cd '" + dir.str() + "' && gnuplot '" + kind + ".gp' >/dev/null 2>&1";
    EXPECT_EQ(std::system(rerun.c_str()), 0);
  }
  for (const char* p : kPwned) EXPECT_FALSE(fs::exists(p)) << p << " was created: a name ran as a command";
  // The names are there, as text, in the data.
  std::string dat = test::read_all(dir.path() / "roofline.dat");
  EXPECT_NE(dat.find("touch /tmp/ridge"), std::string::npos);
  // And drawn as text: the heaviest layers' labels are in the SVG, literally (in full, or
  // where the full name finds no free spot, its part after the last '/' or '.').
  if (ext == "svg") {
    EXPECT_NE(test::read_all(dir.path() / "roofline.svg").find("ridge_pwned_A` 25"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, HostileNames, ::testing::Values("png", "svg", "tex"));

// The sweep plot's new texts (title, facet titles, legend, axis label of the varied
// field) come from the CSV: all of them go through the .dat file, none into the script.
TEST_P(HostileNames, SweepCsvTextStaysInData) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  for (const char* p : kPwned) fs::remove(p);
  test::TempDir dir;
  const std::string ext = GetParam();
  fs::path csv = dir.path() / "evil.csv";
  std::ofstream(csv) << "model,hardware,dtype,batch,mem.`touch /tmp/ridge_pwned_C`,time_s,samples_per_s\n"
                        "\"`touch /tmp/ridge_pwned_A`\",\"system('touch /tmp/ridge_pwned_B')\",fp16,1,1,0.1,10\n"
                        "\"`touch /tmp/ridge_pwned_A`\",\"system('touch /tmp/ridge_pwned_B')\",fp16,8,2,0.2,40\n"
                        "\"x\"\" @m #z $HOME \\input{x}\",v100,\"`touch /tmp/ridge_pwned_D`\",1,1,0.1,10\n"
                        "\"x\"\" @m #z $HOME \\input{x}\",v100,\"`touch /tmp/ridge_pwned_D`\",8,2,0.2,40\n";
  fs::path out = dir.path() / ("sweep." + ext);
  test::CliResult r = test::run_cli("plot sweep '" + csv.string() + "' --output '" + out.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_GT(fs::file_size(out), 200u);
  std::string rerun = "cd '" + dir.str() + "' && gnuplot sweep.gp >/dev/null 2>&1";
  EXPECT_EQ(std::system(rerun.c_str()), 0);
  for (const char* p : kPwned) EXPECT_FALSE(fs::exists(p)) << p << " was created: a name ran as a command";
  std::string gp = test::read_all(dir.path() / "sweep.gp"), dat = test::read_all(dir.path() / "sweep.dat");
  // (LaTeX output escapes the braces: input\{x\} in the data.)
  for (const char* name : {"pwned", "system(", "input{", "input\\{", "HOME", "evil.csv"})
    EXPECT_EQ(gp.find(name), std::string::npos) << name << " is in the script";
  for (const char* name : {"pwned", "system(", "input", "HOME"})
    EXPECT_NE(dat.find(name), std::string::npos) << name << " is not in the data";
}

TEST(GnuplotText, DataStringsAreOneInertField) {
  EXPECT_EQ(plots::data_string("a b", TextMarkup::plain), "\"a b\"");
  EXPECT_EQ(plots::data_string("say \"hi\"", TextMarkup::plain), "\"say ''hi''\"");
  EXPECT_EQ(plots::data_string("a\nb\tc", TextMarkup::plain), "\"a b c\"");
  EXPECT_EQ(plots::data_string("`x` #1", TextMarkup::plain), "\"`x` #1\"");
  // gnuplot reads one level of backslash escapes in a data field: each backslash doubled.
  EXPECT_EQ(plots::data_string("50% a_b", TextMarkup::latex), R"("50\\% a\\_b")");
  EXPECT_EQ(plots::data_string("a\\tb", TextMarkup::plain), R"("a\\tb")");
}

TEST(GnuplotText, ScriptStringsAreSingleQuoted) {
  EXPECT_EQ(plots::gp_string("it's", TextMarkup::plain), "'it''s'");
  EXPECT_EQ(plots::gp_string("`cmd` @m", TextMarkup::plain), "'`cmd` @m'");
  EXPECT_EQ(plots::gp_string("a\nb", TextMarkup::plain), "'a b'");
  EXPECT_EQ(plots::gp_string("\\input{x} $", TextMarkup::latex), "'\\textbackslash{}input\\{x\\} \\$'");
}

}  // namespace
}  // namespace ridge
