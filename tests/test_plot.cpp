// `ridge plot`: the .dat numbers are the engine's,
// the roofs meet at the ridge point, and gnuplot's absence is a clear exit-1 error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "plots/gnuplot_runner.hpp"
#include "plots/layers_plot.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;
namespace fs = std::filesystem;

struct TimedRun {
  Model model;
  RunSettings settings;
  std::vector<TimedHardware> runs;
};

TimedRun timed(const std::string& model, const std::vector<std::string>& hws, int64_t batch = 1, DType dtype = DType::fp32) {
  TimedRun r{load_model(model), {}, {}};
  r.settings.batch = batch;
  r.settings.dtype = dtype;
  CostAnalysis costs = analyze_costs(r.model, r.settings);
  for (const std::string& h : hws) {
    HardwareSpec spec = load_hardware(h);
    spec.drop_efficiency();  // datasheet roofs (--efficiency none): the figures below are the datasheets'
    RunResult t = derive(r.model, costs, spec, select_hardware_model(spec, ""));
    r.runs.push_back({spec, t});
  }
  return r;
}

PlotStyle style_for(ImageFormat f) {
  PlotStyle s;
  s.format = f;
  return s;
}

void expect_rel(double got, double want, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), 1e-9 * std::fabs(want)) << what << ": " << got << " vs " << want;
}

// (Every kind in every format is rendered, compiled and read back in test_plot_compile.cpp.)

// --- the numbers in the .dat are the engine's ---

TEST(PlotRoofline, PointsAreTheEnginesNumbers) {
  TimedRun r = timed("alexnet", {"v100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  PlotBundle b = roofline_plot(req, style_for(ImageFormat::png), "roof");
  auto blocks = test::data_blocks(b.files[1].content);
  // Block 5 of hardware 1 holds the layers; its first row is the key's header.
  const auto& rows = blocks.at(5);
  const RunResult& t = r.runs[0].timing;
  size_t expected = 0;
  for (const LayerResult& l : t.layers) expected += (l.arithmetic_intensity > 0 && l.roofline_attained_flops > 0);
  ASSERT_EQ(rows.size(), expected + 1);
  // The header names the columns by the layer schema's keys.
  EXPECT_EQ(rows[0], (std::vector<std::string>{"NVIDIA V100 SXM2 16 GB", "roofline_attained_flops", "step_share", "marker_size",
                                               "time_s", "layer_index", "bound", "name"}));
  for (size_t i = 1; i < rows.size(); ++i) {
    size_t layer = static_cast<size_t>(std::stoul(rows[i].at(5)));
    const LayerResult& l = t.layers.at(layer);
    SCOPED_TRACE(r.model.layers[layer].name);
    EXPECT_EQ(rows[i].at(7), r.model.layers[layer].name);
    expect_rel(std::stod(rows[i][0]), l.arithmetic_intensity, "intensity");
    // At its roofline position: FLOPs over max(compute, memory), launches aside.
    expect_rel(std::stod(rows[i][1]), l.work.flops / std::max(l.timing.compute_s, l.timing.memory_s), "roofline attained");
    expect_rel(std::stod(rows[i][4]), l.timing.time_s, "time");
    expect_rel(std::stod(rows[i][2]), l.timing.time_s / t.totals.timing.time_s, "share");
  }
}

// bert-base at batch 1 on an A100: most layers are launch-bound (issue #11). They sit
// at their roofline position, above what they attain with their launches, as squares
// the key explains.
TEST(PlotRoofline, LaunchBoundLayersSitAtTheirRooflinePositionAsSquares) {
  TimedRun r = timed("bert-base", {"a100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8, .group = false};
  PlotBundle b = roofline_plot(req, style_for(ImageFormat::png), "roof");
  const auto blocks = test::data_blocks(b.files[1].content);
  const RunResult& t = r.runs[0].timing;
  size_t launch_bound = 0;
  for (size_t i = 1; i < blocks.at(5).size(); ++i) {
    const auto& row = blocks[5][i];
    const LayerResult& l = t.layers.at(std::stoul(row.at(5)));
    EXPECT_EQ(row.at(6), l.bound.label);
    if (l.bound.kind != Bound::Kind::overhead) continue;
    ++launch_bound;
    // Launches take more than compute and memory together, so the roofline position is
    // over twice what the layer attains with them.
    EXPECT_GT(std::stod(row.at(1)), 2 * l.attained_flops) << row.at(7);
  }
  EXPECT_GT(launch_bound, 10u);
  const std::string& gp = b.files[0].content;
  EXPECT_NE(gp.find("launch-bound (launches aside)"), std::string::npos);
  EXPECT_NE(gp.find("strcol(7) eq 'overhead' ? $2 : NaN"), std::string::npos);
}

// Two devices in a journal column (--style paper, 3.3 in at 8 pt): each device's roof
// and DRAM bandwidth go into its key entry (V100 15.7 TFLOP/s and 900 GB/s, A100 19.5
// TFLOP/s and 2.04 TB/s at fp32, from their descriptors) instead of labels by the
// roofs, and layer labels take free spots only: none is boxed over the lines.
TEST(PlotRoofline, PaperOverlayNamesRoofsInTheKeyAndKeepsLabelsOffTheLines) {
  TimedRun r = timed("resnet50", {"v100", "a100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  PlotStyle paper = make_style("f.pdf", {"paper", "", {}, "", {}});
  PlotBundle b = roofline_plot(req, paper, "roof");
  const std::string& gp = b.files[0].content;
  EXPECT_NE(gp.find("title 'v100: 15.7 TFLOP/s, 900 GB/s'"), std::string::npos) << gp;
  EXPECT_NE(gp.find("title 'a100: 19.5 TFLOP/s, 2.04 TB/s'"), std::string::npos) << gp;
  const auto blocks = test::data_blocks(b.files[1].content);
  // An empty block holds one "NaN NaN" row (gnuplot needs a row to read).
  auto texts = [&](size_t i) {
    size_t n = 0;
    for (const auto& row : blocks.at(i)) n += row.at(0) != "NaN";
    return n;
  };
  for (size_t h = 0; h < 2; ++h) EXPECT_EQ(texts(h * 8 + 6), 0u) << "roof labels by the roofs of hardware " << h;
  EXPECT_GT(texts(16), 0u);  // some layers are labelled, in free spots
  EXPECT_EQ(gp.find("boxed"), std::string::npos) << "no label in an opaque box";
}

// A number in `gp` after `key` (as "size 3.3in," gives 3.3 after "size ").
double number_after(const std::string& gp, const std::string& key) {
  size_t at = gp.find(key);
  if (at == std::string::npos) throw std::runtime_error("no '" + key + "' in the script");
  return std::stod(gp.substr(at + key.size()));
}

// --style paper fixes a journal column's width; the height is where it starts. Before,
// a three-device overlay's five key rows left under an inch for the plot and ridge
// refused the figure ("--size is too small"). Each key row after the first now makes the
// figure taller by a row (9 pt x 1.25 line height x 0.9, pdfcairo's row spacing, = 0.1406 in), and
// the plot area keeps its height.
TEST(PlotRoofline, PaperOverlayGrowsTallerWithItsKeyNotShorterInItsPlot) {
  PlotStyle paper = make_style("f.pdf", {"paper", "", {}, "", {}});
  struct Figure {
    double width, height, plot_height;
  };
  auto figure = [&](const std::vector<std::string>& hw) {
    TimedRun r = timed("resnet50", hw);
    RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
    const std::string gp = roofline_plot(req, paper, "roof").files[0].content;
    const double w = number_after(gp, "pdfcairo size "), h = number_after(gp, "in,");
    return Figure{w, h, h * (number_after(gp, "set tmargin at screen ") - number_after(gp, "set bmargin at screen "))};
  };
  const Figure two = figure({"v100", "a100"}), three = figure({"v100", "a100", "h100"});
  EXPECT_DOUBLE_EQ(two.width, 3.3);
  EXPECT_DOUBLE_EQ(three.width, 3.3);
  EXPECT_NEAR(three.height - two.height, 9 * 1.25 / 72 * 0.9, 1e-9);
  EXPECT_NEAR(three.plot_height, two.plot_height, 1e-9);
  EXPECT_GT(three.plot_height, 1.5);
  // --size (at the same 8 pt) keeps the height it was given.
  PlotStyle sized = make_style("f.pdf", {"", "3.3x2.6", {}, "", 8});
  TimedRun r = timed("resnet50", {"v100", "a100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  EXPECT_DOUBLE_EQ(number_after(roofline_plot(req, sized, "roof").files[0].content, "in,"), 2.6);
}

// Where only the run's roofs are named (an overlay in a column names them in its key),
// the other dtypes' roofs do not stretch the y axis. V100 and A100 at fp32 (15.7 and
// 19.5 TFLOP/s; the highest roof of either, configs/hw/a100.toml's datasheet int8, 624
// TOP/s): it ends at the decade above 1.5 x 19.5 T, 100 TFLOP/s, not at the decade
// above 1.5 x 624 T, 1 PFLOP/s.
TEST(PlotRoofline, UnnamedRoofsDoNotStretchTheAxis) {
  TimedRun r = timed("resnet50", {"v100", "a100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  auto y_top = [](const std::string& gp) {
    const size_t at = gp.find("set yrange [");
    return at == std::string::npos ? std::string() : gp.substr(gp.find(':', at), gp.find('\n', at) - gp.find(':', at));
  };
  EXPECT_EQ(y_top(roofline_plot(req, make_style("f.pdf", {"paper", "", {}, "", {}}), "roof").files[0].content), ":1e+14]");
  // So at the default 6 in, which no longer widens for a margin of roof labels (every
  // kind's default is one width): the overlay names its run roofs in the key too.
  EXPECT_EQ(y_top(roofline_plot(req, style_for(ImageFormat::png), "roof").files[0].content), ":1e+14]");
}

TEST(PlotRoofline, RoofsMeetAtTheRidgePoint) {
  TimedRun r = timed("alexnet", {"v100", "a100"}, 64, DType::fp16);
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  auto blocks = test::data_blocks(roofline_plot(req, style_for(ImageFormat::png), "roof").files[1].content);
  for (size_t h = 0; h < 2; ++h) {
    const HardwareSpec& hw = r.runs[h].hw;
    SCOPED_TRACE(hw.id);
    size_t base = h * 8;  // blocks per hardware: run roof, other roofs, DRAM, other levels, ridges, points, labels, drops
    const auto& roof = blocks.at(base + 0);
    const auto& dram = blocks.at(base + 2);
    const auto& ridges = blocks.at(base + 4);
    double peak = *hw.peak(DType::fp16) * hw.compute_fraction(DType::fp16), bw = hw.memory[0].bandwidth_Bps * hw.memory_efficiency;
    double rx = std::stod(ridges.at(0).at(0)), ry = std::stod(ridges.at(0).at(1));
    expect_rel(rx, ridge_point(hw, DType::fp16, 0), "ridge x");
    expect_rel(rx, peak / bw, "ridge x by hand");
    expect_rel(ry, peak, "ridge y");
    // The run's roof: flat at the peak, from at or left of the ridge point to the right edge.
    ASSERT_EQ(roof.size(), 2u);
    expect_rel(std::stod(roof[0][1]), peak, "roof start y");
    expect_rel(std::stod(roof[1][1]), peak, "roof end y");
    EXPECT_LE(std::stod(roof[0][0]), rx * (1 + 1e-12));
    EXPECT_GT(std::stod(roof[1][0]), rx);
    // The DRAM diagonal: y = bandwidth x intensity, through the ridge point, ending there: on
    // the run's roof (Williams et al. 2009), not on a higher roof of another dtype.
    ASSERT_EQ(dram.size(), 2u);
    for (const auto& p : dram) expect_rel(std::stod(p[1]), bw * std::stod(p[0]), "diagonal y = B x");
    EXPECT_LT(std::stod(dram[0][0]), rx);
    EXPECT_GE(std::stod(dram[1][0]), rx * (1 - 1e-12));
    expect_rel(std::stod(dram[1][1]), peak, "diagonal ends on the run's roof");
    expect_rel(std::stod(dram[1][0]), rx, "diagonal ends at the ridge point");
    expect_rel(bw * rx, ry, "both lines pass through the ridge point");
  }
}

// bert-base repeats its encoder block 12 times: grouped, the 12 intermediate layers are
// one point whose share and time are the sum of theirs; --no-group draws all 12.
TEST(PlotRoofline, RepeatedBlocksAreOnePointWithTheirSummedShare) {
  TimedRun r = timed("bert-base", {"a100"});
  const RunResult& t = r.runs[0].timing;
  double share = 0, time = 0;
  size_t members = 0;
  for (size_t i = 0; i < r.model.layers.size(); ++i) {
    const std::string& name = r.model.layers[i].name;
    if (name.rfind("encoder.", 0) == 0 && name.size() > 13 && name.substr(name.size() - 13) == ".intermediate") {
      share += t.layers[i].step_share;
      time += t.layers[i].timing.time_s;
      ++members;
    }
  }
  ASSERT_EQ(members, 12u);
  for (bool group : {true, false}) {
    RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8, .group = group};
    const auto rows = test::data_blocks(roofline_plot(req, style_for(ImageFormat::png), "roof").files[1].content).at(5);
    size_t found = 0;
    for (const auto& row : rows) {
      if (row.at(7) == "encoder.*.intermediate x12") {
        ++found;
        expect_rel(std::stod(row.at(2)), share, "group share");
        expect_rel(std::stod(row.at(4)), time, "group time");
      }
      if (!group && row.at(7).find(".intermediate") != std::string::npos && row.at(7).find("_act") == std::string::npos) ++found;
    }
    EXPECT_EQ(found, group ? 1u : 12u);
  }
}

// --labels N names the N heaviest points where they fit clear of every line, marker and
// other label; when fewer fit, a note says how many were placed, and a larger figure
// places at least as many.
TEST(PlotRoofline, LabelsAsManyPointsAsFitAndSaysSo) {
  TimedRun r = timed("bert-base", {"a100"});
  RooflineRequest req{.model = &r.model, .settings = r.settings, .runs = r.runs, .labels = 8};
  // After the 8 blocks of the one hardware: layer labels (an empty block holds one NaN row).
  auto labels = [&](const PlotBundle& b) {
    size_t n = 0;
    const auto blocks = test::data_blocks(b.files[1].content);
    for (const auto& row : blocks.at(8)) n += row.at(0) != "NaN";
    return n;
  };
  // The note counts the points asked for that exist: at most as many as there are.
  auto noted = [](const PlotBundle& b, size_t placed, size_t wanted) {
    const std::string want = "labelled " + std::to_string(placed) + " of the " + (wanted < 40 ? std::to_string(wanted) + " " : "");
    return std::any_of(b.notes.begin(), b.notes.end(), [&](const std::string& n) { return n.find(want) != std::string::npos; });
  };
  PlotStyle tiny = style_for(ImageFormat::png);
  tiny.width_in = 3.3, tiny.height_in = 2.6, tiny.font_size = 8, tiny.size_given = true;  // --style column
  PlotStyle large = style_for(ImageFormat::png);
  large.width_in = 10, large.height_in = 7, large.size_given = large.height_given = true;
  size_t before = 0;
  for (const PlotStyle& s : {tiny, style_for(ImageFormat::png), large}) {
    const PlotBundle b = roofline_plot(req, s, "roof");
    const size_t placed = labels(b);
    EXPECT_GT(placed, 0u) << s.width_in;
    EXPECT_GE(placed, before) << s.width_in;
    if (placed < 8) EXPECT_TRUE(noted(b, placed, 8)) << s.width_in;
    else EXPECT_TRUE(b.notes.empty());
    before = placed;
  }
  // Asked for all 40, the column places fewer and says so.
  req.labels = 40;
  const PlotBundle b = roofline_plot(req, tiny, "roof");
  ASSERT_LT(labels(b), 40u);
  EXPECT_TRUE(noted(b, labels(b), 40));
}

TEST(PlotLayers, StacksAddUpToTheLayerTime) {
  TimedRun r = timed("alexnet", {"v100"});
  LayersRequest req{.model = &r.model, .settings = r.settings, .run = r.runs[0], .group = LayerGrouping::none, .top = 100};
  PlotBundle b = layers_plot(req, style_for(ImageFormat::png), "layers");
  auto blocks = test::data_blocks(b.files[1].content);
  const auto& rows = blocks.at(0);
  const RunResult& t = r.runs[0].timing;
  ASSERT_EQ(rows.size(), t.layers.size());
  double previous = 1e300;
  for (size_t i = 0; i < rows.size(); ++i) {
    size_t layer = 0;
    while (layer < r.model.layers.size() && r.model.layers[layer].name != rows[i].at(7)) ++layer;
    ASSERT_LT(layer, r.model.layers.size()) << rows[i].at(7);
    const LayerTiming& tm = t.layers[layer].timing;
    double sum = std::stod(rows[i][1]) + std::stod(rows[i][2]) + std::stod(rows[i][3]) + std::stod(rows[i][4]);
    expect_rel(sum, tm.time_s, "stack sum " + r.model.layers[layer].name);
    expect_rel(std::stod(rows[i][5]), tm.time_s, "time");
    EXPECT_LE(tm.time_s, previous) << "heaviest first";
    previous = tm.time_s;
    // The bound is the Result's: only a compute- or memory-bound layer is drawn as one.
    const Bound& bound = t.layers[layer].bound;
    const char* code = bound.kind == Bound::Kind::compute    ? "0"
                       : bound.kind == Bound::Kind::memory   ? "1"
                       : bound.kind == Bound::Kind::overhead ? "2"
                       : bound.kind == Bound::Kind::link     ? "3"
                                                             : "-1";
    EXPECT_EQ(rows[i][6], code) << rows[i][7] << " is " << bound.label;
    EXPECT_EQ(rows[i][9], bound.label);
  }
}

// bert-base at batch 1 on an A100 spends most of its step in kernel launches (issue #11:
// 1.175 of 1.330 ms): its launch-bound layers get their own marker, never the memory
// one; AlexNet's flatten and dropouts take no time and get none.
TEST(PlotLayers, LaunchBoundAndIdleLayersAreNotDrawnAsMemoryBound) {
  TimedRun bert = timed("bert-base", {"a100"});
  LayersRequest req{.model = &bert.model, .settings = bert.settings, .run = bert.runs[0], .group = LayerGrouping::none, .top = 1000};
  PlotBundle b = layers_plot(req, style_for(ImageFormat::png), "layers");
  size_t launch_bound = 0;
  const auto bert_blocks = test::data_blocks(b.files[1].content);
  for (const auto& row : bert_blocks.at(0))
    if (row.at(9) == "overhead") {
      EXPECT_EQ(row.at(6), "2") << row.at(7);
      ++launch_bound;
    }
  EXPECT_GT(launch_bound, 0u);
  EXPECT_NE(b.files[0].content.find("'launch-bound' at screen"), std::string::npos);  // in the key
  TimedRun alex = timed("alexnet", {"v100"});
  LayersRequest areq{.model = &alex.model, .settings = alex.settings, .run = alex.runs[0], .group = LayerGrouping::none, .top = 100};
  size_t idle = 0;
  const auto alex_blocks = test::data_blocks(layers_plot(areq, style_for(ImageFormat::png), "l").files[1].content);
  for (const auto& row : alex_blocks.at(0))
    if (row.at(7) == "flatten" || row.at(7) == "drop6" || row.at(7) == "drop7") {
      EXPECT_EQ(std::stod(row.at(5)), 0.0) << row.at(7);
      EXPECT_EQ(row.at(6), "-1") << row.at(7) << " takes no time: no bound marker";
      ++idle;
    }
  EXPECT_EQ(idle, 3u);
}

// Blocks by name prefix; the bars past --top summed into "other", so that every bar
// together is still the step.
TEST(PlotLayers, GroupsAndTheRestAddUpToTheStep) {
  EXPECT_EQ(block_of("encoder.layer.3.attention.self.query"), "encoder.layer.3");
  EXPECT_EQ(block_of("layer1.0.conv1"), "layer1.0");
  EXPECT_EQ(block_of("embeddings.word"), "embeddings");
  EXPECT_EQ(block_of("fc"), "fc");
  TimedRun r = timed("bert-base", {"a100"});
  ASSERT_GT(r.model.layers.size(), 150u);  // 177 layers (one fused attention layer per block since issue #11)
  for (LayerGrouping g : {LayerGrouping::none, LayerGrouping::block, LayerGrouping::op}) {
    LayersRequest req{.model = &r.model, .settings = r.settings, .run = r.runs[0], .group = g, .top = 5};  // 5 bars + the rest (bert-base has more than 5 ops)
    auto rows = test::data_blocks(layers_plot(req, style_for(ImageFormat::png), "layers").files[1].content).at(0);
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows.back().at(7).rfind("other (", 0), 0u);
    double total = 0;
    size_t layers = 0;
    for (const auto& row : rows) {
      total += std::stod(row.at(5));
      layers += std::stoul(row.at(8));
    }
    EXPECT_EQ(layers, r.model.layers.size());
    expect_rel(total, r.runs[0].timing.totals.timing.time_s, "bars add up to the step");
  }
  // 12 encoder blocks, each one bar when grouped by block.
  LayersRequest req{.model = &r.model, .settings = r.settings, .run = r.runs[0], .group = LayerGrouping::block, .top = 100};
  auto rows = test::data_blocks(layers_plot(req, style_for(ImageFormat::png), "layers").files[1].content).at(0);
  size_t encoder_blocks = 0;
  for (const auto& row : rows) encoder_blocks += row.at(7).rfind("encoder.", 0) == 0;
  EXPECT_EQ(encoder_blocks, 12u);
}

TEST(PlotTitle, WrapsBetweenPhrasesOnly) {
  PlotStyle s;
  std::vector<std::string> phrases{"bert-base on NVIDIA V100 SXM2 16 GB:", "batch 1,", "fp32,", "inference;", "step 2.79 ms"};
  for (double w : {1.5, 2.0, 3.0, 4.0, 5.0}) {
    std::vector<std::string> lines = wrap_phrases(s, phrases, w);
    std::string all;
    for (const std::string& l : lines) {
      all += (all.empty() ? "" : "|") + l;
      EXPECT_NE(l.back(), ' ');
    }
    EXPECT_NE(all.find("step 2.79 ms"), std::string::npos) << w << ": " << all;
    EXPECT_NE(all.find("batch 1,"), std::string::npos) << w << ": " << all;
  }
}

TEST(PlotStyleOptions, SizeAndFormat) {
  EXPECT_EQ(format_of_output("a/b.PDF"), ImageFormat::pdf);
  EXPECT_THROW(format_of_output("fig.jpg"), InputError);
  // Inches in every format; pixels (PNG only) at the dpi: 1200 px / 150 dpi = 8 in.
  PlotStyle s = make_style("f.png", {"", "6x4", {}, "", {}});
  EXPECT_DOUBLE_EQ(s.width_in, 6);
  s = make_style("f.png", {"", "1200x900px", {}, "", {}});
  EXPECT_DOUBLE_EQ(s.width_in, 8);
  EXPECT_DOUBLE_EQ(s.height_in, 6);
  s = make_style("f.png", {"", "1200x900px", 300, "", {}});
  EXPECT_DOUBLE_EQ(s.width_in, 4);
  s = make_style("f.pdf", {"", "3.5x2.6", {}, "Times", 8});
  EXPECT_DOUBLE_EQ(s.width_in, 3.5);
  EXPECT_EQ(s.font, "Times");
  s = make_style("f.svg", {"", "15cmx10cm", {}, "", {}});
  EXPECT_NEAR(s.width_in, 15 / 2.54, 1e-12);
  // Presets: a single column is 3.3 in at 9 pt (IEEEtran's \small under its 10-pt body,
  // ACM's 9-pt body); --font-size overrides.
  s = make_style("f.pdf", {"paper", "", {}, "", {}});
  EXPECT_DOUBLE_EQ(s.width_in, 3.3);
  EXPECT_DOUBLE_EQ(s.font_size, 9);
  EXPECT_TRUE(s.size_given);
  s = make_style("f.pdf", {"paper-wide", "", {}, "", 8});
  EXPECT_DOUBLE_EQ(s.width_in, 7);
  EXPECT_DOUBLE_EQ(s.font_size, 8);
  EXPECT_THROW(make_style("f.pdf", {"poster", "", {}, "", {}}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "1200x900px", {}, "", {}}), InputError);  // pixels are for PNG
  EXPECT_THROW(make_style("f.pdf", {"", "", 300, "", {}}), InputError);          // so is --dpi
  EXPECT_THROW(make_style("f.pdf", {"", "3.5", {}, "", {}}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "0x3", {}, "", {}}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "6x4ft", {}, "", {}}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "", {}, "Sans,12", {}}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "", {}, "", 200}), InputError);
  // A value given is checked, 0 included (it used to stand for "not given").
  EXPECT_THROW(make_style("f.png", {"", "", 0.0, "", {}}), InputError);
  EXPECT_THROW(make_style("f.png", {"", "", {}, "", 0.0}), InputError);
}

// --- gnuplot missing or failing ---

TEST(PlotCli, MissingGnuplotIsAClearExit1) {
  test::TempDir dir;
  fs::create_directory(dir.path() / "empty-path");
  std::string out = (dir.path() / "fig.png").string();
  test::CliResult r = test::run_cli("plot roofline alexnet --hw v100 --output '" + out + "'",
                                    (dir.path() / "empty-path").string());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("gnuplot was not found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("apt-get install gnuplot-nox"), std::string::npos) << r.err;
  // Nothing written: no image, script, data or temporary folder.
  size_t left = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) left += e.path().filename() != "empty-path";
  EXPECT_EQ(left, 0u);
}

TEST(PlotRunner, FailingGnuplotShowsItsStderrAndLeavesNothing) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  PlotBundle b;
  b.files.push_back({"bad.gp", "set terminal pngcairo\nset output 'bad.png'\nplot no_such_function(x)\n"});
  b.images.push_back({"bad.png", "bad.png"});
  try {
    render_bundle(b, dir.str());
    FAIL() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_function"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(PlotRunner, ProgramNotFoundDoesNotCrash) {
  ProcessResult r = run_process({"ridge-no-such-program-xyz"}, "");
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.exec_errno, ENOENT);
  PlotBundle b;
  b.files.push_back({"x.gp", "print 1\n"});
  b.images.push_back({"x.png", "x.png"});
  test::TempDir dir;
  EXPECT_THROW(render_bundle(b, dir.str(), "ridge-no-such-program-xyz"), RunError);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(PlotCli, UsageErrorsExit2) {
  EXPECT_EQ(test::run_cli("plot roofline alexnet --hw v100 --output fig.jpg").status, 2);
  EXPECT_EQ(test::run_cli("plot roofline alexnet --output fig.png").status, 2);
  EXPECT_EQ(test::run_cli("plot pie alexnet --hw v100 --output fig.png").status, 2);
  EXPECT_EQ(test::run_cli("plot layers alexnet --hw v100 --hw a100 --output fig.png").status, 2);
  EXPECT_EQ(test::run_cli("plot roofline alexnet --hw v100 --dtype int8 --output fig.png").status, 2);
}

}  // namespace
}  // namespace ridge
