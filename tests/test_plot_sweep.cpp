// `ridge plot sweep`: the CSV read back, rows selected, and the figure's plan: x and
// colour are two of the columns that vary, a colour means one thing in the whole
// figure, the panels of one quantity share a scale, titles and units are the sweep
// schema's, and every refusal's hint gives a figure with whole lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "plots/sweep_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/engine/sweep_run.hpp"
#include "sim/views/sweep_fields.hpp"
#include "sim/views/sweep_report.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;
namespace fs = std::filesystem;

PlotStyle png() {
  PlotStyle s;
  s.format = ImageFormat::png;
  return s;
}

void expect_rel(double got, double want, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), 1e-9 * std::fabs(want)) << what << ": " << got << " vs " << want;
}

// The .dat of a sweep plot, as blocks of rows.
std::vector<std::vector<std::vector<std::string>>> dat_blocks(const SweepTable& t, const SweepChoice& c = {}) {
  return test::data_blocks(sweep_plot(t, png(), "s", c).files[1].content);
}

// A batch x bandwidth sweep on one device (the most natural sweep): 2 batches, 5
// bandwidths; samples/s and step times invented for the test.
std::string batch_bandwidth_csv() {
  std::string csv = "model,hardware,hw_model,memory.HBM2e.bandwidth,phase,dtype,batch,status,time_s,samples_per_s\n";
  const char* bws[] = {"500 GB/s", "1000 GB/s", "2000 GB/s", "4000 GB/s", "8000 GB/s"};
  for (int b = 0; b < 5; ++b)
    for (int batch : {1, 8}) {
      double time = (batch == 1 ? 1e-3 : 4e-3) / (1 + b);
      std::ostringstream row;
      row << "resnet50,a100,roofline," << bws[b] << ",inference,fp16," << batch << ",ok," << time << "," << batch / time << "\n";
      csv += row.str();
    }
  return csv;
}

// Every column plot sweep reads has its title and unit in the sweep schema, the
// optional ones (decode's context, prefill's seq) included; [[vary]] keys in words.
TEST(PlotSweep, ColumnTitlesAndUnitsComeFromTheSchema) {
  auto title = [](const std::string& key) { return sweep_column(key).value_or(SweepColumn{"(none)", Unit::text}); };
  EXPECT_EQ(title("time_s").title, "step time");
  EXPECT_EQ(title("time_s").unit, Unit::seconds);
  EXPECT_EQ(title("samples_per_s").title, "samples/s");
  EXPECT_EQ(title("batch").unit, Unit::integer);
  EXPECT_EQ(title("context").unit, Unit::integer);
  EXPECT_EQ(title("seq").unit, Unit::integer);
  EXPECT_EQ(title("hw_model").title, "hw model");
  EXPECT_EQ(title("memory.HBM2e.bandwidth").title, "HBM2e bandwidth");
  EXPECT_EQ(title("compute.fp16").title, "fp16 peak");
  EXPECT_EQ(title("overhead.kernel_launch").title, "kernel launch");
  EXPECT_FALSE(sweep_column("no_such_column").has_value());
}

TEST(PlotSweep, SeriesFromTheCsvColumns) {
  SweepTable t = parse_sweep_csv(test::sample_sweep_csv(), "s.csv");
  // batch and bandwidth both have 2 values: x is batch (first on a tie), colour the
  // hardware, dash the bandwidth. Two quantities: samples/s, then step time; in each,
  // one line per (hardware, bandwidth): v100 x 2, a100 x 2.
  SweepFigure fig = plan_sweep_figure(t);
  EXPECT_EQ(fig.x.key, "batch");
  EXPECT_EQ(fig.colour, "hardware");
  ASSERT_EQ(fig.y.size(), 2u);
  EXPECT_EQ(fig.y[0].key, "samples_per_s");
  EXPECT_EQ(fig.y[1].key, "time_s");
  auto blocks = dat_blocks(t);
  ASSERT_GE(blocks.size(), 8u);
  EXPECT_EQ(blocks[0][0][0], "v100, 900 GB/s");
  EXPECT_EQ(blocks[0][0][1], "alexnet");
  ASSERT_EQ(blocks[0].size(), 3u);  // header + batch 1, 64
  EXPECT_EQ(blocks[0][1][0], "1");
  EXPECT_EQ(blocks[0][1][1], "100");
  EXPECT_EQ(blocks[3][0][0], "a100, 1.5 TB/s");
  EXPECT_EQ(blocks[3][2][1], "1600");
  EXPECT_EQ(blocks[4][0][0], "v100, 900 GB/s");  // the step-time panel: the same lines
  expect_rel(std::stod(blocks[4][2][1]), 0.1, "step time of v100, 900 GB/s, batch 64");
  expect_rel(std::stod(blocks[7][2][1]), 0.04, "step time of a100, 1.5 TB/s, batch 64");
  // With the bandwidth as x it is read as a quantity, in B/s.
  auto by_bw = dat_blocks(t, {"memory.HBM2.bandwidth", "", {}});
  expect_rel(std::stod(by_bw[0][1][0]), 900e9, "bandwidth parsed to B/s");
  expect_rel(std::stod(by_bw[0][2][0]), 1.5e12, "bandwidth parsed to B/s");
}

// A descriptor given by path is drawn by the name it declares (issue #26 item 9): the
// CSV keeps the path in 'hardware' and the descriptor's name in 'device'.
TEST(PlotSweep, DescriptorGivenByPathIsDrawnByItsName) {
  SweepTable t = parse_sweep_csv(
      "model,hardware,device,batch,samples_per_s\n"
      "alexnet,hw/gpu.toml,My Lab GPU,1,100\nalexnet,hw/gpu.toml,My Lab GPU,64,1600\n"
      "alexnet,v100,NVIDIA V100 SXM2 16 GB,1,50\nalexnet,v100,NVIDIA V100 SXM2 16 GB,64,800\n",
      "s.csv");
  auto blocks = dat_blocks(t);
  ASSERT_GE(blocks.size(), 2u);
  EXPECT_EQ(blocks[0][0][0], "My Lab GPU");
  EXPECT_EQ(blocks[1][0][0], "v100");  // a catalog id stays as the user wrote it
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
  // One line: nothing tells lines apart, so it has no label; the title names the model
  // on the device, then what every row shares.
  SweepFigure fig = plan_sweep_figure(t);
  ASSERT_EQ(fig.facets.size(), 1u);
  ASSERT_EQ(fig.facets[0].panels.at(0).size(), 1u);
  EXPECT_TRUE(fig.legend.empty());
  EXPECT_EQ(fig.title, (std::vector<std::string>{"alexnet", "on a100;", "roofline model,", "bf16,", "inference"}));
  auto blocks = dat_blocks(t);
  EXPECT_EQ(blocks[0][0][0], "");
  EXPECT_EQ(blocks[0][0][1], "alexnet");
  ASSERT_EQ(blocks[0].size(), 3u);
  // The CSV carries doubles in round-trip form: samples/s = batch / step time.
  expect_rel(std::stod(blocks[0][1][1]), 1 / r.points[2].sums.time_s, "samples/s at batch 1");
  expect_rel(std::stod(blocks[0][2][1]), 64 / r.points[3].sums.time_s, "samples/s at batch 64");
  expect_rel(std::stod(blocks[1][2][1]), r.points[3].sums.time_s, "step time at batch 64");
}

TEST(PlotSweep, BadCsvIsAnInputError) {
  EXPECT_THROW(parse_sweep_csv("model,batch\nx,1\n", "s.csv"), InputError);
  EXPECT_THROW(parse_sweep_csv("hardware,batch,samples_per_s\nv100,1\n", "s.csv"), InputError);
  EXPECT_THROW(parse_sweep_csv("hardware,batch,samples_per_s\n\"v100,1,2\n", "s.csv"), InputError);
  SweepTable t = parse_sweep_csv("hardware,batch,samples_per_s\nv100,one,2\n", "s.csv");
  EXPECT_THROW(sweep_plot(t, png(), "s"), InputError);
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

// Five models with two quantities are five rows of 2.2-in panels, 11 in and more: as
// .tex, taller than a page's 9 in of text, which LaTeX cannot break, so a note says so
// and how to draw fewer; two models (4.4 in and the title) fit, and a PNG is not a page.
TEST(PlotSweep, TexTallerThanAPageSaysSo) {
  std::string csv = "model,hardware,batch,dtype,phase,samples_per_s,time_s\n";
  for (const char* m : {"m1", "m2", "m3", "m4", "m5"}) csv += std::string(m) + ",v100,1,fp32,inference,10,0.1\n" + m + ",v100,8,fp32,inference,40,0.2\n";
  PlotStyle tex;
  tex.format = ImageFormat::tex;
  const std::vector<std::string> notes = sweep_plot(parse_sweep_csv(csv, "five.csv"), tex, "s").notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("more than a page's text"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("--where model=NAME"), std::string::npos) << notes[0];
  EXPECT_TRUE(sweep_plot(parse_sweep_csv(kSmallSweep, "t.csv"), tex, "s").notes.empty());
  EXPECT_TRUE(sweep_plot(parse_sweep_csv(csv, "five.csv"), png(), "s").notes.empty());
}

// A bad cell is located at its line and column: after preamble lines, and after a
// quoted field that runs over two lines (the row starts on line 3; its 'x' is on line 4,
// after `lines",v100,`, at column 13).
TEST(PlotSweep, BadCellsAreLocatedAtTheirColumn) {
  SweepTable t = parse_sweep_csv("# ridge sweep\nmodel,hardware,batch,samples_per_s\n\"two\nlines\",v100,x,10\n", "s.csv");
  try {
    number_at(t, 0, t.column("batch"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "s.csv");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 13);
  }
  EXPECT_EQ(cell(t, 0, t.column("model")), "two\nlines");
}

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
  EXPECT_EQ(fig.facets[0].panels.at(0).size(), 3u);
  EXPECT_EQ(fig.facets[1].panels.at(0).size(), 2u);
  // In the .dat: each line's header names its model: m1's two panels, then m2's.
  auto blocks = dat_blocks(t);
  std::vector<std::string> models;
  for (size_t i = 0; i < 10; ++i) models.push_back(blocks.at(i).at(0).at(1));
  EXPECT_EQ(models, (std::vector<std::string>{"m1", "m1", "m1", "m1", "m1", "m1", "m2", "m2", "m2", "m2"}));
  size_t rows = 0;
  for (size_t i : {0, 1, 2, 6, 7}) rows += blocks[i].size() - 1;
  EXPECT_EQ(rows, 6u);  // every row is a point of the samples/s panels, once
  // The same colour means the same hardware in both facets.
  EXPECT_EQ(fig.facets[0].panels[0][0].colour, fig.facets[1].panels[0][0].colour);
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
  // The title names the models and devices, and what every row shares; never the file.
  EXPECT_EQ(fig.title, (std::vector<std::string>{"m1,", "m2", "on v100,", "a100;", "inference"}));
  // Line labels hold the varying values only.
  EXPECT_EQ(fig.facets[0].panels[0][0].label, "v100, fp32");
  // v100 alone ran only fp32: nothing but batch varies, so no legend and every value is in the title.
  SweepFigure one = plan_sweep_figure(select_rows(t, {"hardware=v100"}));
  EXPECT_TRUE(one.legend.empty());
  EXPECT_EQ(one.title, (std::vector<std::string>{"m1,", "m2", "on v100;", "fp32,", "inference"}));
}

// --- the two axes: x and colour, one meaning each, for the whole figure ---

TEST(PlotSweep, BatchTimesBandwidthDrawsWholeLines) {
  SweepTable t = parse_sweep_csv(batch_bandwidth_csv(), "hbm.csv");
  // By default x is the column with the most values (5 bandwidths), colour the other (batch).
  SweepFigure fig = plan_sweep_figure(t);
  EXPECT_EQ(fig.x.key, "memory.HBM2e.bandwidth");
  EXPECT_EQ(fig.colour, "batch");
  for (const auto& panel : fig.facets.at(0).panels) {
    ASSERT_EQ(panel.size(), 2u);  // batch 1 and batch 8
    for (const SweepLine& l : panel) EXPECT_EQ(l.points.size(), 5u);
  }
  // The other way round, as asked: lines of 2 batches, one per bandwidth.
  SweepFigure turned = plan_sweep_figure(t, {"batch", "memory.HBM2e.bandwidth", {}});
  EXPECT_EQ(turned.colour, "memory.HBM2e.bandwidth");
  ASSERT_EQ(turned.facets.at(0).panels.at(0).size(), 5u);
  for (const SweepLine& l : turned.facets[0].panels[0]) EXPECT_EQ(l.points.size(), 2u);
  // Axis titles and units are the schema's: the [[vary]] key in words, its unit at the
  // SI prefix of its largest value (8000 GB/s = 8 TB/s); the quantities' titles.
  EXPECT_EQ(fig.x.title, "HBM2e bandwidth");
  EXPECT_EQ(fig.x.unit, "B/s");
  EXPECT_EQ(fig.y[0].title, "samples/s");
  EXPECT_EQ(fig.y[1].title, "step time");
  EXPECT_EQ(fig.y[1].unit, "s");
  std::string dat = sweep_plot(t, png(), "s").files[1].content;
  EXPECT_NE(dat.find("\"HBM2e bandwidth [TB/s]\""), std::string::npos);
  EXPECT_EQ(dat.find("memory.HBM2e.bandwidth [TB/s]"), std::string::npos);
  EXPECT_NE(dat.find("\"step time\""), std::string::npos);
  // The title names the model and the device, not the file.
  EXPECT_EQ(fig.title, (std::vector<std::string>{"resnet50", "on a100;", "roofline model,", "fp16,", "inference"}));
}

TEST(PlotSweep, AColourMeansOneThingInTheWholeFigure) {
  // Two models, x batch, colour hardware, dash dtype: in every panel of every facet a
  // line's colour index names the same hardware, the one the legend gives it.
  SweepTable t = select_rows(parse_sweep_csv(kSmallSweep, "t.csv"), {"phase=inference"});
  SweepFigure fig = plan_sweep_figure(t);
  ASSERT_EQ(fig.legend.at(0).title, "hardware");
  std::map<size_t, std::string> meaning;
  for (const LegendEntry& e : fig.legend[0].entries) meaning[static_cast<size_t>(e.colour)] = e.text;
  size_t lines = 0;
  for (const SweepFacet& f : fig.facets)
    for (const auto& panel : f.panels)
      for (const SweepLine& l : panel) {
        ASSERT_TRUE(meaning.count(l.colour)) << l.label;
        EXPECT_EQ(l.label.substr(0, l.label.find(',')), meaning[l.colour]) << "colour " << l.colour;
        ++lines;
      }
  EXPECT_EQ(lines, 2u * (2 + 2));  // two quantities; in each facet v100 fp32 and a100 fp16
  // Exactly one legend group has colours.
  size_t colour_groups = 0;
  for (const LegendGroup& g : fig.legend) colour_groups += !g.entries.empty() && g.entries[0].colour >= 0;
  EXPECT_EQ(colour_groups, 1u);
}

// The script's lines that set `what` ("set yrange", "set logscale y"), per panel.
std::vector<std::string> per_panel(const std::string& script, const std::string& what) {
  std::vector<std::string> out;
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ---- facet", 0) == 0) out.push_back("(none)");
    if (line.rfind("# ---- texts", 0) == 0) break;
    if (!out.empty() && line.rfind(what, 0) == 0) out.back() = line;
  }
  return out;
}

TEST(PlotSweep, PanelsOfOneQuantityShareTheirScale) {
  // Two models whose samples/s differ 100-fold: their samples/s panels still share one
  // log scale and range, and all panels one x.
  std::string csv = "model,hardware,batch,samples_per_s,time_s\n"
                    "small,a100,1,1000,0.001\nsmall,a100,8,6000,0.00133\nsmall,a100,64,20000,0.0032\n"
                    "big,a100,1,10,0.1\nbig,a100,8,40,0.2\nbig,a100,64,60,1.0667\n";
  SweepTable t = parse_sweep_csv(csv, "two.csv");
  SweepFigure fig = plan_sweep_figure(t);
  ASSERT_EQ(fig.facets.size(), 2u);
  EXPECT_TRUE(fig.y[0].log);  // 10 .. 20000 samples/s
  EXPECT_TRUE(fig.y[1].log);  // 1 ms .. 1.07 s
  std::string gp = sweep_plot(t, png(), "s").files[0].content;
  std::vector<std::string> yr = per_panel(gp, "set yrange"), ylog = per_panel(gp, "set logscale y"),
                           xr = per_panel(gp, "set xrange");
  ASSERT_EQ(yr.size(), 4u);  // facet 1: samples/s, time; facet 2: samples/s, time
  EXPECT_EQ(yr[0], yr[2]);
  EXPECT_EQ(yr[1], yr[3]);
  EXPECT_NE(yr[0], yr[1]);
  EXPECT_EQ(ylog[0], ylog[2]);
  EXPECT_EQ(ylog[1], ylog[3]);
  EXPECT_NE(ylog[0], "(none)");
  // Decades around every panel's values: 10 .. 20000 samples/s is [10:100000].
  EXPECT_EQ(yr[0], "set yrange [10:1e+05]");
  for (const std::string& x : xr) EXPECT_EQ(x, xr[0]);
  // A quantity within a decade everywhere is linear in every panel.
  SweepFigure lin = plan_sweep_figure(select_rows(t, {"model=small"}), {"", "", {"time_s"}});
  EXPECT_FALSE(lin.y[0].log);  // 1 ms .. 3.2 ms
}

// The --where arguments of a hint's example ("..., e.g. --where a=b --where c=d").
std::vector<std::string> hinted_where(const std::string& hint) {
  std::vector<std::string> out;
  const std::string example = hint.substr(std::min(hint.find("e.g. "), hint.size()));
  static const std::regex arg("--where ('([^']*)'|([^ ,;']+))");  // quoted when the value has a space
  for (auto it = std::sregex_iterator(example.begin(), example.end(), arg); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[2].matched ? (*it)[2] : (*it)[3]);
  return out;
}

// A refusal's hint, followed, gives a figure in which every line is whole (as many
// points as x has values).
void expect_hint_gives_a_figure(const SweepTable& t, const SweepChoice& c = {}) {
  try {
    plan_sweep_figure(t, c);
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::vector<std::string> where = hinted_where(e.hint());
    ASSERT_FALSE(where.empty()) << e.hint();
    SweepTable narrowed = select_rows(t, where);
    SweepFigure fig = plan_sweep_figure(narrowed, c);
    const size_t xs = distinct(narrowed, narrowed.column(fig.x.key)).size();
    EXPECT_GE(xs, 2u);
    for (const SweepFacet& f : fig.facets)
      for (const auto& panel : f.panels)
        for (const SweepLine& l : panel) EXPECT_EQ(l.points.size(), xs) << l.label << " after " << e.hint();
  }
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
    EXPECT_NE(e.hint().find("x is batch and colour hardware"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("dtype (2), phase (2)"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("--where phase=inference"), std::string::npos) << e.hint();
  }
  expect_hint_gives_a_figure(t);
  // What the hint says is enough: 4 hardware x 2 dtypes.
  EXPECT_EQ(plan_sweep_figure(select_rows(t, {"phase=inference"})).facets[0].panels[0].size(), 8u);
}

TEST(PlotSweep, TooManyColoursKeepsWholeLines) {
  // Nine devices are more colours than Okabe-Ito has: the hint keeps seven of them.
  std::string csv = "hardware,batch,samples_per_s\n";
  for (int h = 0; h < 9; ++h)
    for (int b : {1, 2, 4}) csv += "h" + std::to_string(h) + "," + std::to_string(b) + ",10\n";
  SweepTable t = parse_sweep_csv(csv, "nine.csv");
  expect_hint_gives_a_figure(t);
  // A batch x bandwidth sweep with 12 bandwidths as colours, by choice: refused, and the
  // hint keeps x (batch) whole.
  std::string bw = "hardware,batch,memory.HBM.bandwidth,samples_per_s\n";
  for (int v = 1; v <= 12; ++v)
    for (int b : {1, 8}) bw += "a100," + std::to_string(b) + "," + std::to_string(v) + "00 GB/s,10\n";
  expect_hint_gives_a_figure(parse_sweep_csv(bw, "bw.csv"), {"batch", "memory.HBM.bandwidth", {}});
}

TEST(PlotSweep, ChoicesThatCannotBeDrawnSayWhatCan) {
  SweepTable t = parse_sweep_csv(batch_bandwidth_csv(), "hbm.csv");
  auto hint_of = [&](const SweepChoice& c) {
    try {
      plan_sweep_figure(t, c);
    } catch (const InputError& e) {
      return std::string(e.what()) + " | " + e.hint();
    }
    return std::string("no error");
  };
  // A name is not an x axis; a column with one value is not an axis at all.
  std::string e = hint_of({"hardware", "", {}});
  EXPECT_NE(e.find("--x hardware"), std::string::npos) << e;
  EXPECT_NE(e.find("batch, memory.HBM2e.bandwidth"), std::string::npos) << e;
  e = hint_of({"", "dtype", {}});
  EXPECT_NE(e.find("every row drawn has dtype=fp16"), std::string::npos) << e;
  EXPECT_NE(e.find("--colour batch"), std::string::npos) << e;
  e = hint_of({"", "", {"hardware"}});
  EXPECT_NE(e.find("--y hardware"), std::string::npos) << e;
  // x and colour are two different columns.
  e = hint_of({"batch", "batch", {}});
  EXPECT_NE(e.find("--colour batch"), std::string::npos) << e;
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
  r = test::run_cli("plot sweep '" + csv.string() + "' --x dtype" + out);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--x dtype"), std::string::npos) << r.err;
  if (test::gnuplot_available()) {
    r = test::run_cli("plot sweep '" + csv.string() + "' --where phase=inference --colour dtype" + out);
    EXPECT_EQ(r.status, 0) << r.err;
    test::expect_image(dir.path(), "c", ImageFormat::png);
  }
}

// Each panel's x label sits under its tic labels as the per-layer chart's does, its centre
// 0.06 in + 1.6 lines below the plot (round two left a tenth of an inch more, in every
// row of a stacked column); the two panels of a batch x bandwidth sweep in a column.
TEST(PlotSweep, XLabelsFollowTheirTicLabels) {
  const PlotStyle column = make_style("f.tex", {"column", "", {}, "", {}});
  const PlotBundle b = sweep_plot(parse_sweep_csv(batch_bandwidth_csv(), "bw.csv"), column, "s");
  const std::string &gp = b.files[0].content, &dat = b.files[1].content;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(gp, m, std::regex(R"(size 3.3in,([0-9.]+)in)")));
  const double H = std::stod(m[1]), L = column.line_in();
  std::vector<double> bottoms;  // the panels' lower edges, inches
  static const std::regex bmargin(R"(set bmargin at screen ([0-9.e-]+))");
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), bmargin); it != std::sregex_iterator(); ++it)
    if (const double y = std::stod((*it)[1]) * H; y > 0) bottoms.push_back(y);
  ASSERT_EQ(bottoms.size(), 2u);  // samples/s and step time, stacked
  std::vector<double> labels;  // the x labels' centres, inches
  std::istringstream in(dat.substr(dat.find("facet titles and x labels")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && !line.empty())
    if (line.find("bandwidth") != std::string::npos) labels.push_back(std::stod(line.substr(line.find(' ') + 1)));
  ASSERT_EQ(labels.size(), 2u);
  std::sort(bottoms.begin(), bottoms.end());
  std::sort(labels.begin(), labels.end());
  for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(bottoms[i] - labels[i], 0.06 + 1.6 * L, 0.005) << "panel " << i;
}

}  // namespace
}  // namespace ridge
