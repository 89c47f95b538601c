// The paper presets for the layer chart and the sweep (issue #26): the figure is as wide as
// the preset says and no taller than its height, draws the bars that fit (not 2 or 3),
// draws an "other" too long for the bars' scale to scale in a panel of its own, keeps its
// key inside the figure, and blames --size only when it was given; and a grayscale
// overlay tells its three devices apart by dash and marker, in grays only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

namespace fs = std::filesystem;

struct Drawn {
  ridge_test::RidgeRun run;
  std::string script, data, svg;
};

// `ridge plot ARGS --output fig.svg` in `dir`, with what it wrote.
Drawn draw(const test::TempDir& dir, const std::string& args) {
  Drawn d;
  d.run = ridge_test::run_ridge("plot " + args + " --output fig.svg", {dir.str(), ""});
  d.script = test::read_all(dir.path() / "fig.gp");
  d.data = test::read_all(dir.path() / "fig.dat");
  d.svg = test::read_all(dir.path() / "fig.svg");
  return d;
}

// The SVG's width and height in inches (its attributes).
std::pair<double, double> svg_size(const std::string& svg) {
  std::smatch m;
  if (!std::regex_search(svg, m, std::regex(R"re(width="([0-9.]+)in" height="([0-9.]+)in")re"))) return {0, 0};
  return {std::stod(m[1]), std::stod(m[2])};
}

// Every `at screen X, screen Y` of the script (labels, the key's samples) lies inside the figure.
void expect_texts_inside(const std::string& script) {
  static const std::regex at(R"(screen (-?[0-9.e+-]+), screen (-?[0-9.e+-]+))");
  size_t n = 0;
  for (auto it = std::sregex_iterator(script.begin(), script.end(), at); it != std::sregex_iterator(); ++it, ++n) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    EXPECT_TRUE(x >= 0 && x <= 1 && y >= 0 && y <= 1) << (*it)[0];
  }
  EXPECT_GT(n, 5u);
}

TEST(PlotPresets, LayersKeepThePresetsWidthAndDrawTheBarsThatFit) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  // column: 3.3 in wide, at most 4.5 in tall; page: 7 in, at most 6.5 in (plot_style.cpp).
  for (auto [preset, width, height] : {std::tuple{"column", 3.3, 4.5}, std::tuple{"page", 7.0, 6.5}})
    for (const char* model : {"resnet50", "bert-base", "alexnet"}) {
      SCOPED_TRACE(std::string(model) + " --style " + preset);
      test::TempDir dir;
      const Drawn d = draw(dir, std::string("layers ") + model + " --hw a100 --group none --style " + preset);
      ASSERT_EQ(d.run.status, 0) << d.run.err;
      const auto [w, h] = svg_size(d.svg);
      EXPECT_NEAR(w, width, 0.01);
      EXPECT_LE(h, height + 0.01);
      // Round two's column drew 2 or 3 bars; AlexNet has 23 layers, the others over 150.
      const size_t bars = test::data_blocks(d.data).at(0).size();
      EXPECT_GE(bars, std::string(preset) == "column" ? 10u : 20u);
      expect_texts_inside(d.script);
    }
}

// resnet50 at batch 1 on an A100: the 162 layers past the 13 a column draws take most of
// the step. "other" is drawn in a panel of its own, beside the drawn bars' sum, whose
// axis reaches past it: the two add up to the step, and neither is cut.
TEST(PlotPresets, ALongOtherIsDrawnToScaleInItsOwnPanel) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  const Drawn d = draw(dir, "layers resnet50 --hw a100 --group none --style column");
  ASSERT_EQ(d.run.status, 0) << d.run.err;
  const auto blocks = test::data_blocks(d.data);
  ASSERT_EQ(blocks.size(), 2u);
  const auto& bars = blocks[0];
  const auto& totals = blocks[1];
  ASSERT_EQ(totals.size(), 2u);
  double drawn = 0, longest = 0;
  for (size_t i = 0; i + 1 < bars.size(); ++i) drawn += std::stod(bars[i][5]), longest = std::max(longest, std::stod(bars[i][5]));
  const double other = std::stod(bars.back()[5]);
  EXPECT_EQ(bars.back()[7].rfind("other (", 0), 0u);
  EXPECT_GT(other, 1.5 * longest);  // too long for the bars' own scale
  EXPECT_NEAR(std::stod(totals[0][5]), drawn, drawn * 1e-9);
  EXPECT_NEAR(std::stod(totals[1][5]), other, other * 1e-9);
  // The second panel's axis: xrange [0:X] in units of `unit` seconds.
  std::smatch m;
  std::string second = d.script.substr(d.script.find("the bars drawn above, summed"));
  ASSERT_TRUE(std::regex_search(second, m, std::regex(R"(set xrange \[0:([0-9.e+-]+)\][^]*unit = ([0-9.e+-]+))")));
  const double axis_s = std::stod(m[1]) * std::stod(m[2]);
  EXPECT_GE(axis_s, other);
  EXPECT_LE(axis_s, 2 * std::max(other, drawn));
  // And the main panel draws every bar but "other".
  EXPECT_NE(d.script.find("every ::0::" + std::to_string(bars.size() - 2)), std::string::npos);
}

// Without --group, a column's per-layer chart of resnet50 would leave its 150 smallest
// layers, most of the step, in "other" (the test above): it draws one bar per block
// (resnet50's stem, layer1.0, layer1.rest.0 ... layer4.rest.1 and fc) and says so.
TEST(PlotPresets, ADeepNetworkIsDrawnByBlockWhereLayersWouldLeaveMostInOther) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  const Drawn d = draw(dir, "layers resnet50 --hw a100 --style column");
  ASSERT_EQ(d.run.status, 0) << d.run.err;
  EXPECT_NE(d.run.err.find("one bar per block"), std::string::npos) << d.run.err;
  const auto bars = test::data_blocks(d.data).at(0);
  double step = 0, other = 0;
  for (const auto& b : bars) {
    step += std::stod(b[5]);
    if (b[7].rfind("other (", 0) == 0) other = std::stod(b[5]);
    else EXPECT_TRUE(std::regex_match(b[7], std::regex(R"(layer[1-4]\.(rest\.)?[0-9]+|conv1|bn1|relu|maxpool|avgpool|fc|flatten)"))) << b[7];
  }
  EXPECT_GE(bars.size(), 10u);
  EXPECT_LT(other, 0.5 * step);
  // AlexNet's 23 layers fit: one bar each.
  test::TempDir small;
  const Drawn a = draw(small, "layers alexnet --hw a100 --style column");
  ASSERT_EQ(a.run.status, 0) << a.run.err;
  EXPECT_EQ(a.run.err.find("one bar per block"), std::string::npos) << a.run.err;
}

// The rows of the .dat block whose `# [index N]` comment contains `title`.
size_t rows_of_block(const std::string& data, const std::string& title) {
  const size_t at = data.find(title);
  if (at == std::string::npos) return 0;
  std::istringstream in(data.substr(data.find('\n', at) + 1));
  size_t n = 0;
  for (std::string line; std::getline(in, line) && line.rfind("# [index", 0) != 0;)
    if (!line.empty()) ++n;
  return n;
}

// Llama-2-7B decoding on an A100 in a journal column: every layer sits near 1 FLOP/B,
// far left of the ridge points (65.6 and 158 FLOP/B at fp16). Round two kept two
// decades right of the ridge for the roofs' labels, squeezing the points into a corner
// where 0 of 8 could be named and the HBM2e label was dropped. Now the x axis ends at
// most a decade past the DRAM ridge point, the heaviest points are named and no
// bandwidth, ridge or roof label is left out.
TEST(PlotPresets, ADecodeRooflineInAColumnNamesItsHeaviestPointsAndEveryLine) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  const Drawn d = draw(dir, "roofline llama-2-7b --hw a100 --phase decode --context 1024 --style column");
  ASSERT_EQ(d.run.status, 0) << d.run.err;
  EXPECT_EQ(d.run.err.find("left out the label"), std::string::npos) << d.run.err;
  EXPECT_GE(rows_of_block(d.data, "labels of the heaviest layers"), 2u) << d.run.err;
  // The line labels: the run's roof, both bandwidths, both ridge points.
  EXPECT_EQ(rows_of_block(d.data, "roof, bandwidth and ridge labels"), 5u);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(d.script, m, std::regex(R"(set xrange \[([0-9.e+-]+):([0-9.e+-]+)\])")));
  const auto ridges = test::data_blocks(d.data);
  double ridge = 0;
  for (const auto& block : ridges)
    for (const auto& row : block)
      if (row.size() == 3 && (row[2] == "0" || row[2] == "1")) ridge = std::max(ridge, std::stod(row[0]));
  ASSERT_GT(ridge, 100);  // HBM2e: 158 FLOP/B
  EXPECT_LE(std::stod(m[2]), 10 * ridge);
}

TEST(PlotPresets, ErrorsNameSizeOnlyWhenItWasGiven) {
  for (const char* args : {"layers resnet50 --hw a100 --style column --font-size 72 --output f.png",
                           "sweep in.csv --style column --font-size 40 --output f.png"}) {
    test::TempDir dir;
    std::ofstream(dir.path() / "in.csv") << test::sample_sweep_csv();
    const auto r = ridge_test::run_ridge(std::string("plot ") + args, {dir.str(), ""});
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find("error: the figure is too small for"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--size"), std::string::npos) << r.err;
  }
  test::TempDir dir;
  const auto r = ridge_test::run_ridge("plot layers resnet50 --hw a100 --size 1.5x1.5 --output f.png", {dir.str(), ""});
  EXPECT_NE(r.err.find("error: --size is too small for"), std::string::npos) << r.err;
}

// One model's sweep has two panels: side by side on a page, under each other in a column
// (round two refused both).
TEST(PlotPresets, SweepStacksItsPanelsInAColumn) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  for (auto [preset, width, stacked] : {std::tuple{"column", 3.3, true}, std::tuple{"page", 7.0, false}}) {
    SCOPED_TRACE(preset);
    test::TempDir dir;
    std::ofstream(dir.path() / "in.csv") << test::sample_sweep_csv();
    const Drawn d = draw(dir, std::string("sweep in.csv --style ") + preset);
    ASSERT_EQ(d.run.status, 0) << d.run.err;
    EXPECT_NEAR(svg_size(d.svg).first, width, 0.01);
    std::set<std::string> lefts;
    static const std::regex lmargin(R"(set lmargin at screen ([0-9.e+-]+);)");
    for (auto it = std::sregex_iterator(d.script.begin(), d.script.end(), lmargin); it != std::sregex_iterator(); ++it)
      if ((*it)[1] != "0") lefts.insert((*it)[1]);  // 0: the layer of texts over the whole figure
    EXPECT_EQ(lefts.size(), stacked ? 1u : 2u);  // the two panels' left edges
  }
}

// Three GPUs overlaid in grayscale: each device's run roof has its own dash pattern and
// its points their own marker, and every colour in the script and the SVG is a gray.
TEST(PlotPresets, AGrayscaleOverlayTellsItsDevicesApartByDashAndMarker) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  const Drawn d = draw(dir, "roofline resnet50 --hw v100 --hw a100 --hw h100 --grayscale");
  ASSERT_EQ(d.run.status, 0) << d.run.err;
  std::set<std::string> dashes, markers;
  static const std::regex roof(R"(with lines lt ([123]) lw 2\.5 dt (\S+))");
  for (auto it = std::sregex_iterator(d.script.begin(), d.script.end(), roof); it != std::sregex_iterator(); ++it)
    dashes.insert((*it)[1].str() + (*it)[2].str());
  static const std::regex point(R"(with points pt ([0-9]+) ps variable lc rgb)");
  for (auto it = std::sregex_iterator(d.script.begin(), d.script.end(), point); it != std::sregex_iterator(); ++it)
    markers.insert((*it)[1]);
  std::set<std::string> dash_only;
  for (const std::string& s : dashes) dash_only.insert(s.substr(1));
  EXPECT_EQ(dash_only.size(), 3u) << "one dash pattern per device's roof";
  EXPECT_EQ(markers.size(), 3u) << "one marker shape per device's points";
  static const std::regex hex(R"(rgb '#(?:[0-9A-Fa-f]{2})?([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})')");
  for (auto it = std::sregex_iterator(d.script.begin(), d.script.end(), hex); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE((*it)[1] == (*it)[2] && (*it)[2] == (*it)[3]) << (*it)[0];
  static const std::regex svg_rgb(R"(rgb\(\s*([0-9]+),\s*([0-9]+),\s*([0-9]+)\))");
  size_t colours = 0;
  for (auto it = std::sregex_iterator(d.svg.begin(), d.svg.end(), svg_rgb); it != std::sregex_iterator(); ++it, ++colours)
    EXPECT_TRUE((*it)[1] == (*it)[2] && (*it)[2] == (*it)[3]) << (*it)[0];
  EXPECT_GT(colours, 10u);
}

// A descriptor file given by path is named in an overlay's key by the `name` it declares
// (configs/hw/a100.toml: "NVIDIA A100 SXM4 80 GB"), not by its file name.
TEST(PlotPresets, AnOverlayKeyNamesADescriptorByItsName) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  fs::copy_file(fs::path(RIDGE_SOURCE_DIR) / "configs/hw/a100.toml", dir.path() / "mygpu.toml");
  const Drawn d = draw(dir, "roofline resnet50 --hw mygpu.toml --hw v100");
  ASSERT_EQ(d.run.status, 0) << d.run.err;
  EXPECT_NE(d.script.find("title 'NVIDIA A100 SXM4 80 GB: "), std::string::npos);
  EXPECT_EQ(d.script.find("mygpu"), std::string::npos);
  EXPECT_NE(d.script.find("title 'v100: "), std::string::npos);
}

}  // namespace
}  // namespace ridge
