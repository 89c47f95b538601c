// The roofline's scene as ridge lays it out, checked geometrically (issue #26): in every
// preset, no label box meets another label, a roof, a diagonal, a line dropped from a
// ridge point or a point's marker, and no leader crosses a line; every label and point
// is inside the plot area; the y axis reaches at most a decade beyond the data and the
// roofs drawn; and an overlay in grayscale tells its devices apart by dash pattern and
// marker shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "plots/roofline_layout.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/cli/plot_parallel.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;

struct Case {
  std::string name, model;
  std::vector<std::string> hws;
  RunSettings settings;
};

std::vector<Case> cases() {
  RunSettings inf, train, decode, prefill;
  train.phase = Phase::training, train.batch = 64;
  decode.phase = Phase::decode, decode.context = 1024, decode.dtype = DType::fp16;
  prefill.phase = Phase::prefill, prefill.seq = 1024, prefill.dtype = DType::fp16;
  RunSettings overlay;
  overlay.batch = 64, overlay.dtype = DType::fp16;
  return {{"alexnet v100", "alexnet", {"v100"}, inf},
          {"resnet50 a100 training", "resnet50", {"a100"}, train},
          {"llama-2-7b a100 decode", "llama-2-7b", {"a100"}, decode},
          {"llama-2-7b a100 prefill", "llama-2-7b", {"a100"}, prefill},
          {"bert-base a100", "bert-base", {"a100"}, inf},
          {"resnet50 three gpus", "resnet50", {"v100", "a100", "h100"}, overlay},
          // the gallery's overlay: at batch 1 in fp32 the heaviest points sit on or near the
          // three roofs, a factor 1.2 to 4 apart
          {"resnet50 three gpus batch 1", "resnet50", {"v100", "a100", "h100"}, inf}};
}

struct Timed {
  Model model;
  std::vector<TimedHardware> runs;
};

Timed timed(const Case& c) {
  Timed t{load_model(c.model, c.settings.tokens_per_step()), {}};
  CostAnalysis costs = analyze_costs(t.model, c.settings);
  for (const std::string& h : c.hws) {
    HardwareSpec spec = load_hardware(h);
    RunResult r = derive(t.model, costs, spec, select_hardware_model(spec, ""));
    t.runs.push_back({spec, r});
  }
  return t;
}

// The figure presets a user picks: the default for screens, a column, a page, and a
// LaTeX figure at its default size.
std::vector<std::pair<std::string, PlotStyle>> presets() {
  return {{"default png", make_style("f.png", {})},
          {"column pdf", make_style("f.pdf", {"column", "", {}, "", {}})},
          {"page svg", make_style("f.svg", {"page", "", {}, "", {}})},
          {"default tex", make_style("f.tex", {})}};
}

// Whether segment a-b passes through the open box b (Liang-Barsky clipping).
bool segment_meets(const RooflineGeometry::Segment& s, const Box& b) {
  double t0 = 0, t1 = 1;
  const double dx = s.x1 - s.x0, dy = s.y1 - s.y0;
  const double p[] = {-dx, dx, -dy, dy}, q[] = {s.x0 - b.x0, b.x1 - s.x0, s.y0 - b.y0, b.y1 - s.y0};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] <= 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 >= t1) return false;
  }
  return true;
}

std::string show(const Box& b) {
  std::ostringstream o;
  o << "[" << b.x0 << "," << b.y0 << " .. " << b.x1 << "," << b.y1 << "]";
  return o.str();
}

// Calls `check` for every case in every preset, traced by both names.
void each_scene(const std::function<void(const Timed&, const RooflineRequest&, const PlotStyle&)>& check) {
  for (const Case& c : cases()) {
    Timed t = timed(c);
    RooflineRequest req{.model = &t.model, .settings = c.settings, .runs = t.runs, .labels = 8};
    for (const auto& [preset, style] : presets()) {
      SCOPED_TRACE(c.name + ", " + preset);
      check(t, req, style);
    }
  }
}

// Every point inside the plot area; every label inside it, off every line, marker and other label.
void expect_clear(const RooflineGeometry& g) {
  EXPECT_FALSE(g.labels.empty());
  for (const Box& m : g.markers) {
    const double cx = (m.x0 + m.x1) / 2, cy = (m.y0 + m.y1) / 2;
    EXPECT_TRUE(cx >= g.area.x0 && cx <= g.area.x1 && cy >= g.area.y0 && cy <= g.area.y1) << "point outside " << show(m);
  }
  for (size_t i = 0; i < g.labels.size(); ++i)
    for (const Box& b : g.labels[i]) {
      EXPECT_TRUE(b.inside(g.area)) << "label " << i << " leaves the plot area " << show(b);
      for (const auto& s : g.lines) EXPECT_FALSE(segment_meets(s, b)) << "label " << i << " on a line " << show(b);
      for (const Box& m : g.markers) EXPECT_FALSE(b.overlaps(m)) << "label " << i << " over a point " << show(b);
      for (size_t j = i + 1; j < g.labels.size(); ++j)
        for (const Box& o : g.labels[j]) EXPECT_FALSE(b.overlaps(o)) << "labels " << i << " and " << j << " " << show(b);
    }
}

TEST(PlotRooflineGeometry, LabelsMeetNoLineNoMarkerAndNoOtherLabel) {
  each_scene([](const Timed&, const RooflineRequest& req, const PlotStyle& style) { expect_clear(roofline_geometry(req, style)); });
}

// Whether segments a and b cross, each passing strictly between the other's ends.
bool segments_cross(const RooflineGeometry::Segment& a, const RooflineGeometry::Segment& b) {
  auto side = [](double x0, double y0, double x1, double y1, double x, double y) { return (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0); };
  const double d1 = side(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0), d2 = side(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1);
  const double d3 = side(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0), d4 = side(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

// In an overlay a leader runs from its point's marker to its label without crossing
// another device's roof or diagonal (a label above a cluster of points on the lowest
// roof, led across the others' roofs, reads as a point of theirs), nor another leader.
TEST(PlotRooflineGeometry, LeadersCrossNoOtherDevicesLine) {
  size_t leaders = 0, overlays = 0;
  each_scene([&](const Timed&, const RooflineRequest& req, const PlotStyle& style) {
    const RooflineGeometry g = roofline_geometry(req, style);
    leaders += g.leaders.size();
    overlays += req.runs.size() > 1 ? g.leaders.size() : 0;
    for (const auto& l : g.leaders) {
      for (const auto& s : g.lines)
        EXPECT_FALSE(s.hw != l.hw && segments_cross(l, s))
            << "a leader of hardware " << l.hw << " " << show({l.x0, l.y0, l.x1, l.y1}) << " crosses a line of hardware " << s.hw
            << " " << show({s.x0, s.y0, s.x1, s.y1});
      for (const auto& o : g.leaders) EXPECT_FALSE(segments_cross(l, o)) << "leaders cross";
    }
  });
  EXPECT_GT(leaders, 0u);  // the check saw some
  EXPECT_GT(overlays, 0u);
}

// The roof, bandwidth and ridge labels of hardware 1 (the .dat's block 6), by their text.
std::vector<std::string> line_labels(const PlotBundle& b) {
  std::vector<std::string> out;
  const auto blocks = test::data_blocks(b.files[1].content);
  for (const auto& row : blocks.at(6)) out.push_back(row.at(2));
  return out;
}

// A parallel plan across nodes (gpt3, tp=8 pp=2 over two DGX A100 nodes: NVLink within a
// node, InfiniBand between the stages) in a journal column, as a PDF and as LaTeX: the
// link diagonals and the collectives crowd it, yet the figure is drawn at the column's
// 3.3 in, clear of lines, with each link's label by its line (the long form, else
// "scale-up 234 GB/s", else the bandwidth alone, which the key's entry also names).
TEST(PlotRooflineGeometry, ParallelPlanAcrossNodesFitsAColumn) {
  cli::ParallelOptionValues v;
  v.system = "dgx-a100", v.parallel = "tp=8,pp=2,dp=1", v.global_batch = 1;
  cli::HardwareOptionValues hw;
  hw.sets = {"model.layers=4"};
  const cli::ParallelPlot p = cli::parallel_plot("gpt3", v, hw, cli::RunOptionValues{}, boost::program_options::variables_map{});
  ASSERT_EQ(p.link_roofs.size(), 2u);  // NVLink (tp) and InfiniBand (pp)
  const RooflineRequest req{&p.model, p.settings, {p.run}, 8, true, p.plan, p.link_roofs, p.collectives};
  for (const char* file : {"f.pdf", "f.tex"}) {
    SCOPED_TRACE(file);
    const PlotStyle column = make_style(file, {"column", "", {}, "", {}});
    expect_clear(roofline_geometry(req, column));
    const PlotBundle b = roofline_plot(req, column, "par");
    EXPECT_NE(b.files[0].content.find("size 3.3in,"), std::string::npos);
    const std::vector<std::string> labels = line_labels(b);
    // (the .tex's labels start with their font size: \fontsize{8.1}{9.7}\selectfont)
    const auto named = [&](const std::string& text) {
      return std::any_of(labels.begin(), labels.end(), [&](const std::string& l) {
        return l.size() >= text.size() && l.compare(l.size() - text.size(), text.size(), text) == 0;
      });
    };
    EXPECT_TRUE(named("NVLink 3 / NVSwitch 234 GB/s") || named("scale-up 234 GB/s") || named(" 234 GB/s"))
        << ::testing::PrintToString(labels);
    EXPECT_TRUE(named("InfiniBand HDR 24 GB/s") || named("scale-out 24 GB/s") || named(" 24 GB/s"))
        << ::testing::PrintToString(labels);
    // The DRAM diagonal named by its line, else (no room between the L2 and link
    // diagonals) in the key, with the thick line it shares with the roof; no line left unnamed.
    // (A100 80 GB: 2039 GB/s x the 0.6332 memory efficiency of dgx-a100.toml = 1.29 TB/s.)
    EXPECT_TRUE(named("HBM2e 1.29 TB/s") || b.files[0].content.find("HBM2e 1.29 TB/s'") != std::string::npos);
    for (const std::string& note : b.notes) EXPECT_EQ(note.find("left out the label"), std::string::npos) << note;
    // Each link its own dash pattern in the plot and the key.
    EXPECT_NE(b.files[0].content.find("scale-up: NVLink 3 / NVSwitch 234 GB/s'"), std::string::npos);
    // one HDR NIC per GPU: 200 Gb/s = 25 GB/s, at the 0.96 NCCL reaches (dgx-a100.toml) = 24 GB/s
    EXPECT_NE(b.files[0].content.find("scale-out: InfiniBand HDR 24 GB/s'"), std::string::npos);
    // A collective's point label names its group and operation ("tp AG fwd 3.1%"), never
    // the tail of its name after a slash ("B) 0.8%" from "(scale_out, 0 FLOP/B)").
    const auto blocks = test::data_blocks(b.files[1].content);
    for (const auto& row : blocks.at(8))  // the points' labels
      EXPECT_EQ(row.at(2).find("B)"), std::string::npos) << row.at(2);
  }
}

// Three GPUs in a journal column (as .tex in IEEEtran): the key names each run roof in
// its entry ("v100: ..."), and the other dtypes' roofs, which nothing names, are not
// drawn (round two left a dozen faint unnamed stubs above the roofs); the .dat's "other
// roofs" block of each device (8h + 1) holds no line.
TEST(PlotRooflineGeometry, AnOverlayInAColumnDrawsOnlyTheRoofsItsKeyNames) {
  const Case c = cases().back();
  Timed t = timed(c);
  const RooflineRequest req{.model = &t.model, .settings = c.settings, .runs = t.runs, .labels = 8};
  const PlotStyle column = make_style("f.tex", {"column", "", {}, "", {}});
  expect_clear(roofline_geometry(req, column));
  const PlotBundle b = roofline_plot(req, column, "roof");
  const auto blocks = test::data_blocks(b.files[1].content);
  for (size_t h = 0; h < 3; ++h) {
    EXPECT_NE(b.files[0].content.find(c.hws[h] + ": "), std::string::npos) << c.hws[h] << " has no key entry";
    for (const auto& row : blocks.at(h * 8 + 1)) EXPECT_EQ(row.at(0), "NaN") << c.hws[h] << ": an unnamed roof is drawn";
  }
}

// llama-2-7b decode on an A100 at the default size: both ridge labels in the long form
// ("HBM2e ridge 158 FLOP/B"), which fits under the fp64 roof that crosses its line.
TEST(PlotRooflineGeometry, RidgeLabelsLongWhereTheyFit) {
  const Case c = cases()[2];
  Timed t = timed(c);
  const RooflineRequest req{.model = &t.model, .settings = c.settings, .runs = t.runs, .labels = 8};
  size_t ridges = 0;
  for (const std::string& l : line_labels(roofline_plot(req, make_style("f.png", {}), "dec")))
    if (l.find("FLOP/B") != std::string::npos) {
      ++ridges;
      EXPECT_NE(l.find(" ridge "), std::string::npos) << l;
    }
  EXPECT_EQ(ridges, 2u);  // HBM2e and L2
}

// An axis from 100 MFLOP/s to 1 PFLOP/s (eight decades) keeps one unit, TFLOP/s, its
// ticks 0.0001 ... 1000, rather than "100 MFLOP/s" on every tick.
TEST(PlotRooflineGeometry, EightDecadesShareOneUnit) {
  const roofline::YUnit u = roofline::y_unit(1e8, 1e15);
  EXPECT_EQ(u.name, "TFLOP/s");
  const auto ticks = roofline::y_tick_labels(1e8, 1e15, u);
  ASSERT_EQ(ticks.size(), 8u);
  EXPECT_EQ(ticks.front().second, "0.0001");
  EXPECT_EQ(ticks[1].second, "0.001");
  EXPECT_EQ(ticks.back().second, "1000");
}

// The y range reaches at most a decade beyond the highest and lowest of the points and
// roofs drawn (read back from the .dat: run roofs, other roofs, points' y).
TEST(PlotRooflineGeometry, YRangeAtMostADecadeBeyondDataAndRoofs) {
  each_scene([](const Timed& t, const RooflineRequest& req, const PlotStyle& style) {
      PlotBundle b = roofline_plot(req, style, "roof");
      const std::string& gp = b.files[0].content;
      const size_t at = gp.find("set yrange [");
      ASSERT_NE(at, std::string::npos);
      const double y_min = std::stod(gp.substr(at + 12)), y_max = std::stod(gp.substr(gp.find(':', at) + 1));
      const auto blocks = test::data_blocks(b.files[1].content);
      double lo = 1e300, hi = 0;
      for (size_t h = 0; h < t.runs.size(); ++h)
        for (size_t blk : {h * 8 + 0, h * 8 + 1, h * 8 + 5})
          for (const auto& row : blocks.at(blk)) {
            if (row.size() < 2 || row[0] == "NaN") continue;
            const double y = std::strtod(row[1].c_str(), nullptr);
            if (!(y > 0)) continue;  // the points block's header row
            if (y >= y_min && y <= y_max * (1 + 1e-9)) lo = std::min(lo, y), hi = std::max(hi, y);
          }
      EXPECT_LE(y_max, hi * 10 * (1 + 1e-9)) << "top " << y_max << ", highest drawn " << hi;
      EXPECT_GE(y_min, lo / 10 * (1 - 1e-9)) << "bottom " << y_min << ", lowest drawn " << lo;
  });
}

// Three GPUs overlaid with --grayscale: no palette colour in the script, and each
// device's roof and DRAM diagonal has its own dash pattern and its points their own
// marker shape.
TEST(PlotRooflineGeometry, GrayscaleOverlayHasThreeLineStyles) {
  const Case c = cases().back();
  Timed t = timed(c);
  RooflineRequest req{.model = &t.model, .settings = c.settings, .runs = t.runs, .labels = 8};
  StyleOptions o;
  o.grayscale = true;
  const std::string gp = roofline_plot(req, make_style("f.png", o), "roof").files[0].content;
  for (const char* colour : kOkabeIto) EXPECT_EQ(gp.find(colour), std::string::npos) << colour;
  std::set<std::string> dashes, markers;
  for (size_t h = 0; h < 3; ++h) {
    // The run roof's clause: "data index 8h using 1:2 with lines lt h+1 lw 2.5 dt PATTERN notitle".
    const std::string roof = "data index " + std::to_string(h * 8) + " using 1:2 with lines lt " + std::to_string(h + 1) + " lw 2.5 dt ";
    const size_t at = gp.find(roof);
    ASSERT_NE(at, std::string::npos) << roof << "\n" << gp;
    dashes.insert(gp.substr(at + roof.size(), gp.find(' ', at + roof.size()) - at - roof.size()));
    const std::string pts = "data index " + std::to_string(h * 8 + 5) + " using 1:(strcol(7) eq 'overhead' ? NaN : $2):($4*marker) with points pt ";
    const size_t p = gp.find(pts);
    ASSERT_NE(p, std::string::npos) << pts;
    markers.insert(gp.substr(p + pts.size(), gp.find(' ', p + pts.size()) - p - pts.size()));
  }
  EXPECT_EQ(dashes.size(), 3u);
  EXPECT_EQ(markers.size(), 3u);
}

}  // namespace
}  // namespace ridge
