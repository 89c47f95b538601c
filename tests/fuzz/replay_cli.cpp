// Replays the command-line fuzz target's inputs in the suite (ctest fuzz_cli_replay):
// every file of tests/fuzz/seeds/cli/ and tests/fuzz/regressions/cli/ goes through
// run_cli_input, the step libFuzzer runs (tests/fuzz/fuzz_cli.cpp), linked with the
// commands (ridge_cli) as the fuzz target is. A crash or sanitizer report ends the
// process and fails the test. The seeds are the fuzzer's starting points, so each must
// also be run (not skipped by the target's filter) and succeed: a seed that stopped
// at an input error would leave the fuzzer exploring error paths only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_cli.hpp"

namespace fs = std::filesystem;

namespace {

// The files of tests/fuzz/KIND/cli/, by name (read before run_cli_input changes directory).
std::vector<std::pair<std::string, std::string>> inputs(const char* kind) {
  std::vector<std::pair<std::string, std::string>> out;
  const fs::path dir = fs::path(RIDGE_SOURCE_DIR) / "tests" / "fuzz" / kind / "cli";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out.emplace_back(e.path().filename().string(), text.str());
  }
  return out;
}

int run(const std::string& text) {
  return ridge_fuzz::run_cli_input(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

TEST(FuzzCliReplay, EverySeedRunsAndSucceeds) {
  const bool gnuplot = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  const auto seeds = inputs("seeds");
  EXPECT_GE(seeds.size(), 15u) << "the seed folder was not found or lost files";
  for (const auto& [name, text] : seeds) {
    const int status = run(text);
    EXPECT_NE(status, ridge_fuzz::kSkipped) << name << ": the fuzz target's filter skips this seed";
    if (!gnuplot && name.rfind("plot-", 0) == 0) continue;  // ridge draws plots with gnuplot
    EXPECT_EQ(status, 0) << name;
  }
}

TEST(FuzzCliReplay, EveryRegressionInputEndsWithAnExitStatus) {
  // Each was once a crash, leak or hang; it may now be refused (exit 2) or fail (exit 1).
  for (const auto& [name, text] : inputs("regressions")) {
    const int status = run(text);
    EXPECT_TRUE(status == ridge_fuzz::kSkipped || (status >= 0 && status <= 2)) << name << ": exit status " << status;
  }
}

TEST(FuzzCliReplay, TheFilterSkipsPathsOutsideTheShippedFiles) {
  // The replay must be able to tell a skipped input from a run one.
  EXPECT_EQ(run("analyze\n/etc/passwd"), ridge_fuzz::kSkipped);
  EXPECT_EQ(run("probe"), ridge_fuzz::kSkipped);
  EXPECT_EQ(run("analyze\nmlp\n--set\n-o/tmp/x"), ridge_fuzz::kSkipped);  // an option, not a --set value
  EXPECT_EQ(run("analyze\nno-such-model"), 2);
}

}  // namespace
