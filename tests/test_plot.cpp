// `ridge plot`: every kind renders in every format, the .dat numbers are the engine's,
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

// --- every kind, every format ---

class PlotFormats : public ::testing::TestWithParam<ImageFormat> {};

TEST_P(PlotFormats, EveryKindRendersANonEmptyImage) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  PlotStyle style = style_for(GetParam());
  TimedRun alex = timed("alexnet", {"v100", "a100"});
  RooflineRequest req{&alex.model, alex.settings, alex.runs, 8};
  render_bundle(roofline_plot(req, style, "roof"), dir.str());
  render_bundle(layers_plot(alex.model, alex.settings, alex.runs[0], style, "layers"), dir.str());
  SweepTable sweep = parse_sweep_csv(test::sample_sweep_csv(), "sweep.csv");
  render_bundle(sweep_plot(sweep, style, "sweep"), dir.str());
  for (const std::string stem : {"roof", "layers", "sweep"}) {
    SCOPED_TRACE(stem);
    EXPECT_TRUE(fs::exists(dir.path() / (stem + ".gp")));
    EXPECT_TRUE(fs::exists(dir.path() / (stem + ".dat")));
    test::expect_image(dir.path(), stem, GetParam());
  }
  // No temporary folder is left behind.
  for (const auto& e : fs::directory_iterator(dir.path())) EXPECT_EQ(e.path().filename().string().rfind(".ridge-plot", 0), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Formats, PlotFormats,
                         ::testing::Values(ImageFormat::png, ImageFormat::svg, ImageFormat::pdf, ImageFormat::tex),
                         [](const auto& info) { return extension_of(info.param).substr(1); });

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
    size_t base = h * 8;  // blocks per hardware: run roof, other roofs, DRAM, other levels, ridges, points, labels, boxed
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
    // The DRAM diagonal: y = bandwidth x intensity, through the ridge point, ending on the highest roof.
    ASSERT_EQ(dram.size(), 2u);
    for (const auto& p : dram) expect_rel(std::stod(p[1]), bw * std::stod(p[0]), "diagonal y = B x");
    EXPECT_LT(std::stod(dram[0][0]), rx);
    EXPECT_GE(std::stod(dram[1][0]), rx * (1 - 1e-12));
    double highest = 0;
    for (const auto& [t, f] : hw.peak_flops) highest = std::max(highest, f * hw.compute_efficiency);
    expect_rel(std::stod(dram[1][1]), highest, "diagonal ends on the highest roof");
    expect_rel(bw * rx, ry, "both lines pass through the ridge point");
  }
}

TEST(PlotLayers, StacksAddUpToTheLayerTime) {
  TimedRun r = timed("alexnet", {"v100"});
  PlotBundle b = layers_plot(r.model, r.settings, r.runs[0], style_for(ImageFormat::png), "layers");
  auto blocks = test::data_blocks(b.files[1].content);
  const auto& rows = blocks.at(0);
  const RunResult& t = r.runs[0].timing;
  ASSERT_EQ(rows.size(), t.layers.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const LayerTiming& tm = t.layers[i].timing;
    double sum = std::stod(rows[i][1]) + std::stod(rows[i][2]) + std::stod(rows[i][3]) + std::stod(rows[i][4]);
    expect_rel(sum, tm.time_s, "stack sum " + r.model.layers[i].name);
    expect_rel(std::stod(rows[i][5]), tm.time_s, "time");
    EXPECT_EQ(rows[i][6], tm.memory_bound() ? "1" : "0");
    EXPECT_EQ(rows[i][8], r.model.layers[i].name);
  }
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
  EXPECT_EQ(fig.title, (std::vector<std::string>{"s.csv:", "alexnet,", "a100,", "roofline model,", "bf16,", "inference"}));
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
  EXPECT_EQ(fig.title, (std::vector<std::string>{"t.csv:", "inference"}));
  // Line labels hold the varying values only.
  EXPECT_EQ(fig.facets[0].through[0].label, "v100, fp32");
  // v100 alone ran only fp32: nothing varies, so no legend and every value is in the title.
  SweepFigure one = plan_sweep_figure(select_rows(t, {"hardware=v100"}));
  EXPECT_TRUE(one.legend.empty());
  EXPECT_EQ(one.title, (std::vector<std::string>{"t.csv:", "v100,", "fp32,", "inference"}));
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
  PlotStyle s = make_style("f.png", "1200x900", "", 0);
  EXPECT_DOUBLE_EQ(s.width_in, 1200 / kPngDpi);
  EXPECT_DOUBLE_EQ(s.height_in, 900 / kPngDpi);
  s = make_style("f.pdf", "3.5x2.6", "Times", 8);
  EXPECT_DOUBLE_EQ(s.width_in, 3.5);
  EXPECT_EQ(s.font, "Times");
  s = make_style("f.svg", "15cmx10cm", "", 0);
  EXPECT_NEAR(s.width_in, 15 / 2.54, 1e-12);
  EXPECT_THROW(make_style("f.pdf", "3.5", "", 0), InputError);
  EXPECT_THROW(make_style("f.pdf", "0x3", "", 0), InputError);
  EXPECT_THROW(make_style("f.pdf", "6x4ft", "", 0), InputError);
  EXPECT_THROW(make_style("f.pdf", "", "Sans,12", 0), InputError);
  EXPECT_THROW(make_style("f.pdf", "", "", 200), InputError);
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
  b.images.push_back("bad.png");
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
  b.images.push_back("x.png");
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
