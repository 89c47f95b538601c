// A calibrated descriptor says which layers it has no fit for: those run at the pure
// roofline, and analyze marks them per layer (JSON/CSV `calibrated`), lists their classes
// in the totals (`uncalibrated_classes`) and in a note under the table.
// configs/hw/v100-calibrated.toml fits conv_kxk, conv_1x1 and linear at fp32 and fp16,
// nothing else (DeepBench measured only GEMMs and convolutions).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

using ridge_test::run_ridge;

std::map<std::string, bool> calibrated_by_layer(const nlohmann::json& report) {
  std::map<std::string, bool> out;
  for (const auto& layer : report["layers"]) out[layer["name"].get<std::string>()] = layer["calibrated"].get<bool>();
  return out;
}

TEST(UncalibratedLayers, MarkedPerLayerAndListedByClass) {
  auto r = run_ridge("analyze alexnet --hw v100-calibrated --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, bool> cal = calibrated_by_layer(j);
  // fp32: linear and conv_kxk (AlexNet's convolutions are all kxk) have a fit, elementwise
  // and max_pool not.
  EXPECT_TRUE(cal.at("fc6"));
  EXPECT_TRUE(cal.at("fc8"));
  EXPECT_TRUE(cal.at("conv1"));
  EXPECT_FALSE(cal.at("relu1"));
  EXPECT_FALSE(cal.at("pool1"));
  std::vector<std::string> classes = j["totals"]["uncalibrated_classes"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(classes.begin(), classes.end(), "elementwise"), classes.end());
  EXPECT_NE(std::find(classes.begin(), classes.end(), "max_pool"), classes.end());
  EXPECT_EQ(std::find(classes.begin(), classes.end(), "conv_kxk"), classes.end());
  EXPECT_EQ(std::find(classes.begin(), classes.end(), "linear"), classes.end());

  // fp16: the conv_kxk fit applies too.
  auto half = run_ridge("analyze alexnet --hw v100-calibrated --dtype fp16 --format json");
  ASSERT_EQ(half.status, 0) << half.err;
  EXPECT_TRUE(calibrated_by_layer(nlohmann::json::parse(half.out)).at("conv1"));
}

TEST(UncalibratedLayers, NoteUnderTheTableAndNoKeyWithoutCalibration) {
  auto table = run_ridge("analyze alexnet --hw v100-calibrated");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("uncalibrated: "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("elementwise ("), std::string::npos) << table.out;
  // --efficiency none drops the calibration: nothing to say.
  auto pure = run_ridge("analyze alexnet --hw v100-calibrated --efficiency none --format json");
  ASSERT_EQ(pure.status, 0) << pure.err;
  nlohmann::json j = nlohmann::json::parse(pure.out);
  EXPECT_FALSE(j["layers"][0].contains("calibrated"));
  EXPECT_FALSE(j["totals"].contains("uncalibrated_classes"));
  auto plain = run_ridge("analyze alexnet --hw v100");
  EXPECT_EQ(plain.out.find("uncalibrated"), std::string::npos);
}

}  // namespace
}  // namespace ridge
