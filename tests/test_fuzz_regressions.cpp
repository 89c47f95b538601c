// Replays the fuzz targets' inputs through the same code libFuzzer runs
// (tests/fuzz/fuzz_inputs.hpp), in the normal build: the shipped seed files, and every
// input a fuzz run kept in tests/fuzz/regressions/ (crashes, leaks, timeouts once found
// and since fixed). A reader may reject an input (InputError); anything else aborts.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "tests/fuzz/fuzz_inputs.hpp"
#include "tests/run_ridge.hpp"

namespace fs = std::filesystem;

namespace {

// Every file of tests/fuzz/{seeds,regressions}/TARGET/ through `run`; returns how many.
template <typename Run>
int replay(const std::string& target, Run run) {
  int n = 0;
  for (const char* kind : {"seeds", "regressions"}) {
    fs::path dir = fs::path(RIDGE_SOURCE_DIR) / "tests" / "fuzz" / kind / target;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      SCOPED_TRACE(e.path().string());
      run(ridge_test::slurp(e.path()));
      ++n;
    }
  }
  return n;
}

TEST(FuzzReplay, ModelInputs) { EXPECT_GE(replay("model", ridge_fuzz::model_input), 7); }
TEST(FuzzReplay, DescriptorInputs) { EXPECT_GE(replay("descriptor", ridge_fuzz::descriptor_input), 11); }
TEST(FuzzReplay, SetInputs) { EXPECT_GE(replay("set", ridge_fuzz::set_input), 6); }
TEST(FuzzReplay, SweepInputs) { EXPECT_GE(replay("sweep", ridge_fuzz::sweep_input), 4); }
TEST(FuzzReplay, SweepCsvInputs) { EXPECT_GE(replay("sweep_csv", ridge_fuzz::sweep_csv_input), 2); }
TEST(FuzzReplay, OnnxInputs) { EXPECT_GE(replay("onnx", ridge_fuzz::onnx_input), 7); }
TEST(FuzzReplay, MeasuredInputs) { EXPECT_GE(replay("measured", ridge_fuzz::measured_input), 3); }

TEST(FuzzReplay, TheEngineCheckSeesANonFiniteTime) {
  // The check the targets rely on must be able to fail.
  EXPECT_DEATH(ridge_fuzz::check_time(std::numeric_limits<double>::infinity(), "a step time"), "a step time is inf");
  EXPECT_DEATH(ridge_fuzz::check_time(-1, "a layer time"), "a layer time is -1");
}

}  // namespace
