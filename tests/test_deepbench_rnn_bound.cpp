// ridge's pure roofline against Baidu DeepBench's published V100 RNN forward times
// (configs/calibration/data/deepbench-v100-rnn.csv, from results/train/DeepBench_NV_V100.xlsx
// by scripts/deepbench-rnn-to-csv): every kernel, as a one-layer model file (its cell with
// input_mode = "skip", input [T, H], --batch N), is counted at DeepBench's FLOPs and timed
// by `ridge analyze --hw v100` at or below the measurement (the roofline is a bound).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/csv_rows.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

// DeepBench's RNN training set (code/kernels/rnn_problems.h) has 53 kernels, each timed
// in fp32 and in fp16.
TEST(DeepBenchRnn, EveryKernelIsCountedAsDeepBenchAndTheRooflineIsABound) {
  const auto rows = ridge_test::csv_rows(ridge_test::slurp(RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100-rnn.csv"));
  ASSERT_EQ(rows.size(), 106u);
  ridge_test::TempDir dir;
  for (const auto& r : rows) {
    const std::string cell = r.at("cell"), model = dir.str() + "/" + r.at("layer") + ".toml";
    std::ofstream(model) << "name = \"rnn\"\n[input]\nshape = [" << r.at("steps") << ", " << r.at("hidden")
                         << "]\n[[layer]]\nname = \"cell\"\nop = \"" << cell << "\"\nhidden_size = " << r.at("hidden")
                         << "\ninput_mode = \"skip\"\n" << (cell == "rnn" ? "nonlinearity = \"relu\"\n" : "");
    auto run = ridge_test::run_ridge("analyze '" + model + "' --hw v100 --batch " + r.at("batch") + " --dtype " +
                                     r.at("dtype") + " --format json");
    ASSERT_EQ(run.status, 0) << run.err;
    const auto totals = nlohmann::json::parse(run.out)["totals"];
    EXPECT_EQ(2 * totals["macs"].get<int64_t>(), std::stoll(r.at("flops"))) << r.at("layer");
    EXPECT_LE(totals["time_s"].get<double>(), std::stod(r.at("seconds"))) << r.at("layer") << " " << r.at("dtype");
  }
}

}  // namespace
