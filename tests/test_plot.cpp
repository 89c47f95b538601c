// `ridge plot`: the .dat numbers are the engine's,
// the roofs meet at the ridge point, and gnuplot's absence is a clear exit-1 error.
#include <gtest/gtest.h>

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
#include "plots/sweep_plot.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/views/sweep_report.hpp"
#include "sim/engine/sweep_run.hpp"
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
  RooflineRequest req{&r.model, r.settings, r.runs, 8};
  PlotBundle b = roofline_plot(req, style_for(ImageFormat::png), "roof");
  auto blocks = test::data_blocks(b.files[1].content);
  // Block 5 of hardware 1 holds the layers; its first row is the key's header.
  const auto& rows = blocks.at(5);
  const RunResult& t = r.runs[0].timing;
  size_t expected = 0;
  for (const LayerResult& l : t.layers) expected += (l.arithmetic_intensity > 0 && l.attained_flops > 0);
  ASSERT_EQ(rows.size(), expected + 1);
  for (size_t i = 1; i < rows.size(); ++i) {
    size_t layer = static_cast<size_t>(std::stoul(rows[i].at(5)));
    const LayerResult& l = t.layers.at(layer);
    SCOPED_TRACE(r.model.layers[layer].name);
    EXPECT_EQ(rows[i].at(7), r.model.layers[layer].name);
    expect_rel(std::stod(rows[i][0]), l.arithmetic_intensity, "intensity");
    expect_rel(std::stod(rows[i][1]), l.attained_flops, "attained");
    expect_rel(std::stod(rows[i][4]), l.timing.time_s, "time");
    expect_rel(std::stod(rows[i][2]), l.timing.time_s / t.totals.timing.time_s, "share");
  }
}

TEST(PlotRoofline, RoofsMeetAtTheRidgePoint) {
  TimedRun r = timed("alexnet", {"v100", "a100"}, 64, DType::fp16);
  RooflineRequest req{&r.model, r.settings, r.runs, 8};
  auto blocks = test::data_blocks(roofline_plot(req, style_for(ImageFormat::png), "roof").files[1].content);
  for (size_t h = 0; h < 2; ++h) {
    const HardwareSpec& hw = r.runs[h].hw;
    SCOPED_TRACE(hw.id);
    size_t base = h * 9;  // blocks per hardware: run roof, other roofs, DRAM, other levels, ridges, points, labels, boxed, drops
    const auto& roof = blocks.at(base + 0);
    const auto& dram = blocks.at(base + 2);
    const auto& ridges = blocks.at(base + 4);
    double peak = *hw.peak(DType::fp16) * hw.compute_efficiency, bw = hw.memory[0].bandwidth_Bps * hw.memory_efficiency;
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
    RooflineRequest req{&r.model, r.settings, r.runs, 8, group};
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

// --labels 8 names 8 points on bert-base (grouped) at the default size; when they cannot
// all be placed, the bundle says how many were.
TEST(PlotRoofline, LabelsAsManyPointsAsAsked) {
  TimedRun r = timed("bert-base", {"a100"});
  RooflineRequest req{&r.model, r.settings, r.runs, 8};
  PlotBundle b = roofline_plot(req, style_for(ImageFormat::png), "roof");
  auto blocks = test::data_blocks(b.files[1].content);
  // After the 9 blocks of the one hardware: layer labels, boxed layer labels (an empty
  // block holds one NaN row).
  auto labels = [&]() {
    size_t n = 0;
    for (int i : {9, 10})
      for (const auto& row : blocks.at(i)) n += row.at(0) != "NaN";
    return n;
  };
  EXPECT_EQ(labels(), 8u);
  EXPECT_TRUE(b.notes.empty());
  PlotStyle tiny = style_for(ImageFormat::png);
  tiny.width_in = 3.3, tiny.height_in = 2.6, tiny.font_size = 8, tiny.size_given = true;  // --style paper
  req.labels = 40;
  b = roofline_plot(req, tiny, "roof");
  blocks = test::data_blocks(b.files[1].content);
  size_t placed = labels();
  ASSERT_LT(placed, 40u);
  ASSERT_FALSE(b.notes.empty());
  EXPECT_NE(b.notes.back().find("labelled " + std::to_string(placed) + " of the "), std::string::npos) << b.notes.back();
}

TEST(PlotLayers, StacksAddUpToTheLayerTime) {
  TimedRun r = timed("alexnet", {"v100"});
  LayersRequest req{&r.model, r.settings, r.runs[0], LayerGrouping::none, 100};
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
    EXPECT_EQ(rows[i][6], tm.memory_bound() ? "1" : "0");
  }
}

// Blocks by name prefix; the bars past --top summed into "other", so that every bar
// together is still the step.
TEST(PlotLayers, GroupsAndTheRestAddUpToTheStep) {
  EXPECT_EQ(block_of("encoder.layer.3.attention.self.query"), "encoder.layer.3");
  EXPECT_EQ(block_of("layer1.0.conv1"), "layer1.0");
  EXPECT_EQ(block_of("embeddings.word"), "embeddings");
  EXPECT_EQ(block_of("fc"), "fc");
  TimedRun r = timed("bert-base", {"a100"});
  ASSERT_GT(r.model.layers.size(), 300u);  // 321 layers
  for (LayerGrouping g : {LayerGrouping::none, LayerGrouping::block, LayerGrouping::op}) {
    LayersRequest req{&r.model, r.settings, r.runs[0], g, 10};
    auto rows = test::data_blocks(layers_plot(req, style_for(ImageFormat::png), "layers").files[1].content).at(0);
    ASSERT_EQ(rows.size(), 11u);
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
  LayersRequest req{&r.model, r.settings, r.runs[0], LayerGrouping::block, 100};
  auto rows = test::data_blocks(layers_plot(req, style_for(ImageFormat::png), "layers").files[1].content).at(0);
  size_t encoder_blocks = 0;
  for (const auto& row : rows) encoder_blocks += row.at(7).rfind("encoder.", 0) == 0;
  EXPECT_EQ(encoder_blocks, 12u);
}

TEST(PlotSweep, SeriesFromTheCsvColumns) {
  SweepTable t = parse_sweep_csv(test::sample_sweep_csv(), "s.csv");
  auto blocks = test::data_blocks(sweep_plot(t, style_for(ImageFormat::png), "s").files[1].content);
  // One model, one facet. Throughput: one line per (hardware, bandwidth value): v100 x 2
  // values, a100 x 2 values. Time against bandwidth: one line per (hardware, batch): 2 x 2.
  // Four + four blocks, then the texts.
  ASSERT_GE(blocks.size(), 8u);
  EXPECT_EQ(blocks[0][0][0], "v100, 900 GB/s");
  EXPECT_EQ(blocks[0][0][1], "alexnet");
  EXPECT_EQ(blocks[0].size(), 3u);  // header + batch 1, 64
  EXPECT_EQ(blocks[0][1][0], "1");
  EXPECT_EQ(blocks[0][1][1], "100");
  EXPECT_EQ(blocks[3][0][0], "a100, 1.5 TB/s");
  EXPECT_EQ(blocks[3][2][1], "1600");
  EXPECT_EQ(blocks[4][0][0], "v100, batch 1");
  expect_rel(std::stod(blocks[4][1][0]), 900e9, "bandwidth parsed to B/s");
  expect_rel(std::stod(blocks[4][2][0]), 1.5e12, "bandwidth parsed to B/s");
  EXPECT_EQ(blocks[7][0][0], "a100, batch 64");
  expect_rel(std::stod(blocks[7][2][1]), 0.04, "step time");
}

TEST(PlotSweep, ReadsTheCsvRidgeSweepWrites) {
  // Points in order v100 b1, v100 b64, a100 b1, a100 b64; v100 has no bf16 peak, so its
  // rows are 'unsupported' and not drawn; a100 gives one series whose points are the
  // sweep's own batch / step time.
  SweepPlan plan = plan_sweep(parse_sweep(
      "models = [\"alexnet\"]\nhardware = [\"v100\", \"a100\"]\ndtype = [\"bf16\"]\nbatch = [1, 64]\n", "s.toml"));
  SweepResult r = run_sweep(plan, {1, false, nullptr, nullptr});
  std::ostringstream csv;
  write_sweep(plan, r, false, OutputFormat::csv, ColumnChoice{}, csv);
  SweepTable t = parse_sweep_csv(csv.str(), "s.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  // One line: nothing tells lines apart, so it has no label; a100 is in the title.
  SweepFigure fig = plan_sweep_figure(t);
  ASSERT_EQ(fig.facets.size(), 1u);
  ASSERT_EQ(fig.facets[0].through.size(), 1u);
  EXPECT_TRUE(fig.legend.empty());
  EXPECT_EQ(fig.title, (std::vector<std::string>{"alexnet,", "a100,", "roofline model,", "bf16,", "inference"}));
  auto blocks = test::data_blocks(sweep_plot(t, style_for(ImageFormat::png), "s").files[1].content);
  EXPECT_EQ(blocks[0][0][0], "");
  EXPECT_EQ(blocks[0][0][1], "alexnet");
  ASSERT_EQ(blocks[0].size(), 3u);
  // The CSV carries 6 significant digits, so the round trip holds to 5e-6 relative.
  EXPECT_NEAR(std::stod(blocks[0][1][1]), 1 / r.points[2].sums.time_s, 5e-6 / r.points[2].sums.time_s);
  EXPECT_NEAR(std::stod(blocks[0][2][1]), 64 / r.points[3].sums.time_s, 64 * 5e-6 / r.points[3].sums.time_s);
}

TEST(PlotSweep, BadCsvIsAnInputError) {
  EXPECT_THROW(parse_sweep_csv("model,batch\nx,1\n", "s.csv"), InputError);
  EXPECT_THROW(parse_sweep_csv("hardware,batch,samples_per_s\nv100,1\n", "s.csv"), InputError);
  EXPECT_THROW(parse_sweep_csv("hardware,batch,samples_per_s\n\"v100,1,2\n", "s.csv"), InputError);
  SweepTable t = parse_sweep_csv("hardware,batch,samples_per_s\nv100,one,2\n", "s.csv");
  EXPECT_THROW(sweep_plot(t, style_for(ImageFormat::png), "s"), InputError);
}

// --- selection, facets, legend ---

// Six rows, two models; the counts in the tests below are by hand from these rows.
const char* const kSmallSweep =
    "model,hardware,batch,dtype,phase,samples_per_s,time_s\n"
    "m1,v100,1,fp32,inference,10,0.1\n"
    "m1,v100,8,fp32,inference,40,0.2\n"
    "m1,a100,1,fp16,training,20,0.05\n"
    "m1,a100,8,fp16,inference,80,0.1\n"
    "m2,v100,1,fp32,inference,5,0.2\n"
    "m2,a100,1,fp16,inference,15,0.07\n";

TEST(PlotSweep, WhereSelectsRows) {
  SweepTable t = parse_sweep_csv(kSmallSweep, "t.csv");
  EXPECT_EQ(select_rows(t, {}).rows.size(), 6u);
  EXPECT_EQ(select_rows(t, {"model=m1"}).rows.size(), 4u);
  EXPECT_EQ(select_rows(t, {"model=m1", "phase=inference"}).rows.size(), 3u);
  EXPECT_EQ(select_rows(t, {"dtype=fp16"}).rows.size(), 3u);
  // One column twice: either value; columns together: all of them.
  EXPECT_EQ(select_rows(t, {"hardware=v100", "hardware=a100", "dtype=fp16"}).rows.size(), 3u);
  EXPECT_EQ(select_rows(t, {"batch=8", "model=m1"}).rows.size(), 2u);
  // Values are matched whole, as the CSV writes them.
  EXPECT_THROW(select_rows(t, {"model=m"}), InputError);
  EXPECT_THROW(select_rows(t, {"model"}), InputError);
  EXPECT_THROW(select_rows(t, {"model=m2", "phase=training"}), InputError);  // no row has both
  try {
    select_rows(t, {"modle=m1"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no column 'modle'"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("model"), std::string::npos) << e.hint();
  }
  try {
    select_rows(t, {"hardware=h100"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.hint().find("v100"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("a100"), std::string::npos) << e.hint();
  }
}

TEST(PlotSweep, OneFacetPerModel) {
  SweepTable t = parse_sweep_csv(kSmallSweep, "t.csv");
  SweepFigure fig = plan_sweep_figure(t);
  ASSERT_EQ(fig.facets.size(), 2u);
  EXPECT_EQ(fig.facets[0].model, "m1");
  EXPECT_EQ(fig.facets[1].model, "m2");
  // m1: (v100, fp32, inference), (a100, fp16, training), (a100, fp16, inference); m2: two lines.
  EXPECT_EQ(fig.facets[0].through.size(), 3u);
  EXPECT_EQ(fig.facets[1].through.size(), 2u);
  // In the .dat: each line's header names its model, m1's lines first, then m2's.
  auto blocks = test::data_blocks(sweep_plot(t, style_for(ImageFormat::png), "s").files[1].content);
  std::vector<std::string> models;
  for (size_t i = 0; i < 5; ++i) models.push_back(blocks.at(i).at(0).at(1));
  EXPECT_EQ(models, (std::vector<std::string>{"m1", "m1", "m1", "m2", "m2"}));
  size_t rows = 0;
  for (size_t i = 0; i < 5; ++i) rows += blocks[i].size() - 1;
  EXPECT_EQ(rows, 6u);  // every row is a point, once
  // The same colour means the same hardware in both facets.
  EXPECT_EQ(fig.facets[0].through[0].colour, fig.facets[1].through[0].colour);
}

TEST(PlotSweep, LegendNamesOnlyWhatVaries) {
  SweepTable t = select_rows(parse_sweep_csv(kSmallSweep, "dir/t.csv"), {"phase=inference"});
  SweepFigure fig = plan_sweep_figure(t);
  // hardware and dtype vary (colour, dash); phase does not: it is in the title instead.
  ASSERT_EQ(fig.legend.size(), 2u);
  EXPECT_EQ(fig.legend[0].title, "hardware");
  ASSERT_EQ(fig.legend[0].entries.size(), 2u);
  EXPECT_EQ(fig.legend[0].entries[0].text, "v100");
  EXPECT_EQ(fig.legend[0].entries[0].colour, 0);
  EXPECT_EQ(fig.legend[1].title, "dtype");
  ASSERT_EQ(fig.legend[1].entries.size(), 2u);
  EXPECT_EQ(fig.legend[1].entries[1].text, "fp16");
  EXPECT_EQ(fig.legend[1].entries[1].style, 1);
  for (const LegendGroup& g : fig.legend)
    for (const LegendEntry& e : g.entries) EXPECT_EQ(e.text.find("inference"), std::string::npos) << e.text;
  EXPECT_EQ(fig.title, (std::vector<std::string>{"inference"}));
  // Line labels hold the varying values only.
  EXPECT_EQ(fig.facets[0].through[0].label, "v100, fp32");
  // v100 alone ran only fp32: nothing varies, so no legend and every value is in the title.
  SweepFigure one = plan_sweep_figure(select_rows(t, {"hardware=v100"}));
  EXPECT_TRUE(one.legend.empty());
  EXPECT_EQ(one.title, (std::vector<std::string>{"v100,", "fp32,", "inference"}));
}

std::string crowded_sweep() {
  std::string csv = "model,hardware,batch,dtype,phase,samples_per_s\n";
  for (const char* hw : {"h0", "h1", "h2", "h3"})
    for (const char* dt : {"fp32", "fp16"})
      for (const char* ph : {"inference", "training"})
        for (int b : {1, 8}) csv += std::string("m,") + hw + "," + std::to_string(b) + "," + dt + "," + ph + ",10\n";
  return csv;
}

TEST(PlotSweep, TooManySeriesSaysWhichWhere) {
  SweepTable t = parse_sweep_csv(crowded_sweep(), "c.csv");
  try {
    plan_sweep_figure(t);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("16 series in one panel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("too many to read"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("hardware (4), dtype (2), phase (2)"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("--where phase=inference"), std::string::npos) << e.hint();
  }
  // What the hint says is enough.
  EXPECT_EQ(plan_sweep_figure(select_rows(t, {"phase=inference"})).facets[0].through.size(), 8u);
}

TEST(PlotSweep, CliSelectionErrorsExit2) {
  test::TempDir dir;
  fs::path csv = dir.path() / "c.csv";
  std::ofstream(csv) << crowded_sweep();
  std::string out = " --output '" + (dir.path() / "c.png").string() + "'";
  test::CliResult r = test::run_cli("plot sweep '" + csv.string() + "'" + out);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("16 series in one panel"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hint: "), std::string::npos) << r.err;
  r = test::run_cli("plot sweep '" + csv.string() + "' --where hw=h0" + out);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("no column 'hw'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hardware"), std::string::npos) << r.err;
  r = test::run_cli("plot sweep '" + csv.string() + "' --where hardware=h9" + out);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("h0"), std::string::npos) << r.err;
  if (test::gnuplot_available()) {
    r = test::run_cli("plot sweep '" + csv.string() + "' --where phase=inference" + out);
    EXPECT_EQ(r.status, 0) << r.err;
    test::expect_image(dir.path(), "c", ImageFormat::png);
  }
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
  PlotStyle s = make_style("f.png", {"", "6x4", 0, "", 0});
  EXPECT_DOUBLE_EQ(s.width_in, 6);
  s = make_style("f.png", {"", "1200x900px", 0, "", 0});
  EXPECT_DOUBLE_EQ(s.width_in, 8);
  EXPECT_DOUBLE_EQ(s.height_in, 6);
  s = make_style("f.png", {"", "1200x900px", 300, "", 0});
  EXPECT_DOUBLE_EQ(s.width_in, 4);
  s = make_style("f.pdf", {"", "3.5x2.6", 0, "Times", 8});
  EXPECT_DOUBLE_EQ(s.width_in, 3.5);
  EXPECT_EQ(s.font, "Times");
  s = make_style("f.svg", {"", "15cmx10cm", 0, "", 0});
  EXPECT_NEAR(s.width_in, 15 / 2.54, 1e-12);
  // Presets: a single column is 3.3 in at 8 pt; --font-size overrides.
  s = make_style("f.pdf", {"paper", "", 0, "", 0});
  EXPECT_DOUBLE_EQ(s.width_in, 3.3);
  EXPECT_DOUBLE_EQ(s.font_size, 8);
  EXPECT_TRUE(s.size_given);
  s = make_style("f.pdf", {"paper-wide", "", 0, "", 9});
  EXPECT_DOUBLE_EQ(s.width_in, 7);
  EXPECT_DOUBLE_EQ(s.font_size, 9);
  EXPECT_THROW(make_style("f.pdf", {"poster", "", 0, "", 0}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "1200x900px", 0, "", 0}), InputError);  // pixels are for PNG
  EXPECT_THROW(make_style("f.pdf", {"", "", 300, "", 0}), InputError);          // so is --dpi
  EXPECT_THROW(make_style("f.pdf", {"", "3.5", 0, "", 0}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "0x3", 0, "", 0}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "6x4ft", 0, "", 0}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "", 0, "Sans,12", 0}), InputError);
  EXPECT_THROW(make_style("f.pdf", {"", "", 0, "", 200}), InputError);
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
