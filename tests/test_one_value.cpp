// One number, one name, one value: the same point (alexnet, batch 8, fp32, inference,
// on v100) reported by `analyze --format json`, `query --format json`, `sweep
// --per-layer` (CSV and JSON) and the roofline plot's .dat must carry the same values
// under the same keys, exactly (every machine view writes doubles in shortest
// round-trip form, so equal doubles compare equal as text and as numbers).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/csv_rows.hpp"
#include "tests/plot_test_util.hpp"
#include "tests/run_ridge.hpp"

namespace {

namespace fs = std::filesystem;
using ridge_test::csv_rows;
using ridge_test::run_ridge;

const char* const kRun = "alexnet --hw v100 --batch 8";

nlohmann::json json_of(const std::string& args) {
  ridge_test::RidgeRun r = run_ridge(args);
  EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& layer_named(const nlohmann::json& layers, const std::string& name) {
  for (const auto& l : layers)
    if (l["name"] == name) return l;
  static const nlohmann::json none;
  ADD_FAILURE() << "no layer " << name;
  return none;
}

TEST(OneValue, AnalyzeQueryAndSweepAgreeOnEveryKey) {
  nlohmann::json analyze = json_of(std::string("analyze ") + kRun + " --format json");
  nlohmann::json query = json_of(std::string("query ") + kRun + " --layer conv2 --format json");
  const nlohmann::json& conv2 = layer_named(analyze["layers"], "conv2");
  // Every key the analyze layer carries, the query carries with the same value.
  for (const auto& [key, value] : conv2.items()) EXPECT_EQ(query[key], value) << key;
  EXPECT_EQ(query["arithmetic_intensity"], conv2["arithmetic_intensity"]);

  fs::path dir = fs::temp_directory_path() / ("ridge-one-value-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "s.toml") << "models = [\"alexnet\"]\nhardware = [\"v100\"]\nbatch = [8]\n";
  ridge_test::RidgeRun layers = run_ridge("sweep " + (dir / "s.toml").string() + " --per-layer --format csv");
  ASSERT_EQ(layers.status, 0) << layers.err;
  bool found = false;
  for (const auto& row : csv_rows(layers.out)) {
    if (row.at("name") != "conv2") continue;
    found = true;
    for (const char* key : {"time_s", "compute_time_s", "memory_time_s", "overhead_time_s", "bound"})
      EXPECT_EQ(row.at(key), conv2[key].is_string() ? conv2[key].get<std::string>() : conv2[key].dump()) << key;
  }
  EXPECT_TRUE(found);
  nlohmann::json points = json_of("sweep " + (dir / "s.toml").string() + " --format json");
  ASSERT_EQ(points["points"].size(), 1u);
  const nlohmann::json& point = points["points"][0];
  for (const char* key : {"time_s", "compute_time_s", "memory_time_s", "link_time_s", "overhead_time_s", "attained_flops",
                          "peak_fraction", "samples_per_s", "memory_bound_share"})
    EXPECT_EQ(point[key], analyze["totals"][key]) << key;
  fs::remove_all(dir);
}

TEST(OneValue, RooflinePlotDataHoldsTheAnalyzedValues) {
  if (!ridge::test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps installs it)";
  nlohmann::json analyze = json_of(std::string("analyze ") + kRun + " --format json");
  const nlohmann::json& conv2 = layer_named(analyze["layers"], "conv2");
  fs::path dir = fs::temp_directory_path() / ("ridge-one-value-plot-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ridge_test::RidgeRun r = run_ridge(std::string("plot roofline ") + kRun + " --output " + (dir / "r.png").string());
  ASSERT_EQ(r.status, 0) << r.err;
  bool found = false;
  for (const auto& block : ridge::test::data_blocks(ridge::test::read_all(dir / "r.dat")))
    for (const auto& row : block)
      if (row.size() == 8 && row[7] == "conv2") {  // intensity roofline_attained share marker time_s index bound name
        found = true;
        EXPECT_EQ(std::stod(row[0]), conv2["arithmetic_intensity"].get<double>());
        EXPECT_EQ(std::stod(row[1]), conv2["roofline_attained_flops"].get<double>());
        EXPECT_EQ(std::stod(row[2]), conv2["step_share"].get<double>());
        EXPECT_EQ(std::stod(row[4]), conv2["time_s"].get<double>());
        EXPECT_EQ(row[6], conv2["bound"]);
      }
  EXPECT_TRUE(found);
  fs::remove_all(dir);
}

}  // namespace
