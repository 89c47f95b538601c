// Every command on every shipped descriptor (configs/hw/ and configs/calibration/, the
// calibrated ones included), as a user would run them: each must exit 0. Issue #22 found
// `generate` crashing on every calibrated descriptor because nothing ran it there. The
// descriptors are listed from the folders when the test runs, so a new one is covered
// without editing this file. The numbers themselves are checked elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

namespace fs = std::filesystem;
using ridge_test::run_ridge;
using ridge_test::RidgeRun;

// Every descriptor ridge ships, as a path (a name resolves to the same file).
std::vector<std::string> shipped_descriptors() {
  std::vector<std::string> out;
  for (const char* folder : {RIDGE_SOURCE_DIR "/configs/hw", RIDGE_SOURCE_DIR "/configs/calibration"})
    for (const auto& e : fs::directory_iterator(folder))
      if (e.is_regular_file() && e.path().extension() == ".toml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void expect_runs(const std::string& args) {
  RidgeRun r = run_ridge(args);
  EXPECT_EQ(r.status, 0) << "ridge " << args << "\n" << r.err;
  EXPECT_FALSE(r.out.empty() && args.find("--output") == std::string::npos) << "ridge " << args << " printed nothing";
}

class EveryCommand : public ridge_test::FolderTest, public testing::WithParamInterface<std::string> {};

TEST_P(EveryCommand, RunsOnTheDescriptor) {
  const std::string hw = "--hw '" + GetParam() + "' --dtype fp32";  // fp32: every chip, CPUs too, computes it
  expect_runs("analyze gpt2 " + hw);
  expect_runs("analyze resnet50 " + hw + " --phase training --batch 8 --hw-model hierarchical");
  expect_runs("query alexnet " + hw + " --layer conv1");
  expect_runs("query gpt2 " + hw + " --phase decode --context 64");
  expect_runs("memory gpt2 " + hw + " --phase decode");
  expect_runs("memory mlp " + hw + " --phase training --batch 64");
  expect_runs("generate gpt2 " + hw + " --prompt 16 --gen 3");
  expect_runs("plot roofline mlp " + hw + " --output '" + at("roof.svg") + "'");
  EXPECT_TRUE(fs::exists(at("roof.svg")));
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shipped, EveryCommand, testing::ValuesIn(shipped_descriptors()), test_name);

class EveryCommandOnce : public ridge_test::FolderTest {};

TEST_F(EveryCommandOnce, SweepAndItsPlotOverEveryDescriptor) {
  std::string hardware;
  for (const std::string& d : shipped_descriptors()) hardware += (hardware.empty() ? "\"" : ", \"") + d + "\"";
  std::string sweep = write("all.toml", "models = [\"mlp\", \"gpt2\"]\nhardware = [" + hardware + "]\ndtype = [\"fp32\"]\n");
  expect_runs("sweep '" + sweep + "' --output '" + at("all.csv") + "'");
  // A panel draws at most 12 series: the calibrated descriptors against their pure ones.
  std::string where;
  for (const std::string& d : shipped_descriptors())
    if (d.find("calibrated") != std::string::npos || d.find("v100") != std::string::npos) where += " --where 'hardware=" + d + "'";
  expect_runs("plot sweep '" + at("all.csv") + "' --where model=mlp" + where + " --output '" + at("sweep.png") + "'");
  expect_runs("plot layers alexnet --hw v100-calibrated --output '" + at("layers.pdf") + "'");
}

TEST_F(EveryCommandOnce, ListImportAndCalibrate) {
  expect_runs("list models");
  expect_runs("list hardware");
  expect_runs("list hw-models");
  expect_runs("import '" RIDGE_SOURCE_DIR "/tests/data/onnx/gelu-chain.onnx' --output '" + at("m.toml") + "'");
  expect_runs("analyze '" + at("m.toml") + "' --hw v100-calibrated");
  // The shipped calibration, refitted from its own data, and the result used.
  expect_runs("calibrate '" RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100.csv' --hw v100 --cv-by fold --output '" +
              at("v100-cal.toml") + "'");
  expect_runs("generate gpt2 --hw '" + at("v100-cal.toml") + "' --prompt 8 --gen 2");
  // Refitting a calibrated descriptor replaces its [calibration] and the comment above it:
  // the comment was written once more on every refit.
  expect_runs("calibrate '" RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100.csv' --hw '" + at("v100-cal.toml") +
              "' --cv-by fold --output '" + at("v100-cal2.toml") + "'");
  std::ifstream refit(at("v100-cal2.toml"));
  std::string line;
  int comments = 0;
  while (std::getline(refit, line)) comments += line.rfind("# Written by ridge calibrate", 0) == 0;
  EXPECT_EQ(comments, 1);
}

}  // namespace
