// `ridge plot compare`: its bars are the comparison's numbers (sim/engine/device_comparison)
// over the first device's, each device keeps one colour and one fill pattern (told apart in
// grayscale), and a device without [price] gets no per-dollar bar and a note saying why.
// (Every format is rendered, compiled and read back in test_plot_compile.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "plots/compare_plot.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;

struct Compared {
  std::vector<HardwareSpec> specs;
  ComparisonResult result;
};

Compared compare(const std::string& model_name, const std::vector<std::string>& hws, RunSettings settings) {
  Compared c;
  Model model = load_model(model_name);
  CostAnalysis costs = analyze_costs(model, settings);
  for (const std::string& h : hws) c.specs.push_back(load_hardware(h));
  std::vector<DeviceUnderTest> devices;
  for (const HardwareSpec& s : c.specs) devices.push_back({&s, &select_hardware_model(s, "")});
  c.result = compare_devices(model, costs, devices, CostBasis{});
  return c;
}

RunSettings training(int64_t batch) {
  RunSettings s;
  s.batch = batch;
  s.phase = Phase::training;
  return s;
}

double number(const std::string& field) { return field == "NaN" ? NAN : std::stod(field); }

// The group names under the axis fit their third of the plot: a column (3.3 in at 9 pt,
// about 0.85 in a group) cannot hold "samples per $ (purchase)" (about 1.5 in), so it
// gets the short forms; a page (7 in, about 2 in a group) keeps the long ones.
TEST(PlotCompare, GroupNamesFitTheColumnPreset) {
  Compared c = compare("resnet50", {"gtx1080ti", "titan-x-pascal", "k80"}, training(64));
  auto xtics = [&](const PlotStyle& style) {
    std::string gp = compare_plot(c.result, style, "buy").files[0].content;
    size_t at = gp.find("set xtics");
    return gp.substr(at, gp.find('\n', at) - at);
  };
  PlotStyle column;
  column.width_in = 3.3;
  column.font_size = 9;
  column.size_given = true;
  column.preset = "column";
  EXPECT_EQ(xtics(column), "set xtics scale 0 nomirror ('samples/s' 1, 'per $' 2, 'per joule' 3)");
  PlotStyle page = column;
  page.width_in = 7;
  page.preset = "page";
  EXPECT_EQ(xtics(page),
            "set xtics scale 0 nomirror ('samples/s' 1, 'samples per $ (purchase)' 2, 'samples per joule' 3)");
}

TEST(PlotCompare, BarsAreTheComparisonsNumbersOverTheFirstDevice) {
  Compared c = compare("resnet50", {"gtx1080ti", "titan-x-pascal", "k80"}, training(64));
  PlotStyle style;
  PlotBundle b = compare_plot(c.result, style, "buy");
  auto rows = test::data_blocks(b.files[1].content).at(0);
  ASSERT_EQ(rows.size(), 3u);
  const ComparedDevice& first = c.result.devices[0];
  for (size_t i = 0; i < rows.size(); ++i) {
    const ComparedDevice& d = c.result.devices[i];
    ASSERT_EQ(rows[i].size(), static_cast<size_t>(kCompareColumns));
    EXPECT_EQ(rows[i][7], d.hardware);
    EXPECT_NEAR(number(rows[i][1]), d.samples_per_s, 1e-9 * d.samples_per_s);
    EXPECT_NEAR(number(rows[i][2]), *d.samples_per_usd, 1e-9 * *d.samples_per_usd);
    EXPECT_NEAR(number(rows[i][3]), 1 / *d.joules_per_sample, 1e-9 / *d.joules_per_sample);
    EXPECT_NEAR(number(rows[i][4]), d.samples_per_s / first.samples_per_s, 1e-9);
    EXPECT_NEAR(number(rows[i][5]), *d.samples_per_usd / *first.samples_per_usd, 1e-9);
    EXPECT_NEAR(number(rows[i][6]), *first.joules_per_sample / *d.joules_per_sample, 1e-9);
  }
  // The classic purchase answer, as drawn: the K80's per-dollar bar is below the 1080 Ti's (1).
  EXPECT_LT(number(rows[2][5]), 1.0);
  EXPECT_TRUE(b.notes.empty());
}

TEST(PlotCompare, DecodeCountsTokens) {
  // The figure's tokens/s are `ridge compare`'s: four sequences a step, one token each.
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  const std::string run = "llama-2-7b --hw a100 --hw h100 --phase decode --dtype fp16 --batch 4 --context 512";
  ridge_test::RidgeRun plot = ridge_test::run_ridge("plot compare " + run + " --output serve.svg", {dir.str(), ""});
  ASSERT_EQ(plot.status, 0) << plot.err;
  ridge_test::RidgeRun json = ridge_test::run_ridge("compare " + run + " --format json", {dir.str(), ""});
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json devices = nlohmann::json::parse(json.out)["devices"];
  auto rows = test::data_blocks(test::read_all(dir.path() / "serve.dat")).at(0);
  ASSERT_EQ(rows.size(), 2u);
  for (size_t i = 0; i < rows.size(); ++i) {
    const double time_s = devices[i]["time_s"].get<double>();
    EXPECT_NEAR(number(rows[i][1]), 4 / time_s, 1e-6 * 4 / time_s);
    EXPECT_NEAR(number(rows[i][1]), devices[i]["tokens_per_s"].get<double>(), 1e-6 * 4 / time_s);
  }
  EXPECT_NE(test::read_all(dir.path() / "serve.gp").find("tokens/s"), std::string::npos);
}

TEST(PlotCompare, EachDeviceHasItsOwnPatternAndColourInGrayscaleToo) {
  Compared c = compare("resnet50", {"gtx1080ti", "titan-x-pascal", "k80", "p100", "rtx3090", "a10", "a6000", "l40s"},
                       training(32));
  for (bool gray : {false, true}) {
    PlotStyle style;
    style.grayscale = gray;
    const std::string script = compare_plot(c.result, style, "eight").files[0].content;
    static const std::regex clause(R"(with boxes lt (\d+) fill pattern (\d+) border)");
    std::set<std::pair<std::string, std::string>> seen;
    std::set<std::string> patterns;
    for (auto it = std::sregex_iterator(script.begin(), script.end(), clause); it != std::sregex_iterator(); ++it) {
      seen.insert({(*it)[1], (*it)[2]});
      patterns.insert((*it)[2]);
    }
    EXPECT_EQ(seen.size(), 8u) << "one (colour, pattern) per device, the same in every group";
    EXPECT_EQ(patterns.size(), 8u) << "eight devices, eight fill patterns: they differ without colour";
  }
}

TEST(PlotCompare, ADeviceWithoutAPriceHasNoDollarBarAndANote) {
  // The K80 with its per-dollar figure taken away, as for a descriptor without [price].
  Compared c = compare("resnet50", {"gtx1080ti", "k80"}, training(16));
  c.result.devices[1].samples_per_usd.reset();
  PlotBundle b = compare_plot(c.result, PlotStyle{}, "noprice");
  auto rows = test::data_blocks(b.files[1].content).at(0);
  EXPECT_EQ(rows[1][2], "NaN");
  EXPECT_EQ(rows[1][5], "NaN");
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_NE(b.notes[0].find("k80: no bar for samples per $"), std::string::npos) << b.notes[0];
  EXPECT_NE(b.notes[0].find("[price]"), std::string::npos) << b.notes[0];
}

TEST(PlotCompare, CliWritesTheImageAndBadInputExits2) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  ridge_test::RidgeRun ok = ridge_test::run_ridge(
      "plot compare resnet50 --hw gtx1080ti --hw k80 --phase training --batch 16 --style column --output buy.png", {dir.str(), ""});
  ASSERT_EQ(ok.status, 0) << ok.err;
  test::expect_image(dir.path(), "buy", ImageFormat::png);
  for (const char* bad : {"plot compare resnet50 --output x.png", "plot compare --hw v100 --output x.png",
                          "plot compare resnet50 --hw v100 --price-basis lease --output x.png",
                          "plot compare resnet50 --hw v100 --years 0 --output x.png"}) {
    ridge_test::RidgeRun r = ridge_test::run_ridge(bad, {dir.str(), ""});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace ridge
