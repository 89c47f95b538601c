// The per-layer chart's layout read back from its script (issue #26, round three): the
// key follows the x axis's title without a gap, its entries keep apart and inside the
// figure's width, and a parallel plan's collectives are named with both ends of the name
// readable ("tp AG bwd (scale-up)", never "...ther backward (scale_up)"), shortened by
// whole words ("pp P2P … (scale-out)", never "pp P2P fwd+b… (scale-out)").
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <regex>
#include <string>
#include <vector>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "plots/collective_name.hpp"
#include "plots/layers_plot.hpp"
#include "sim/cli/plot_parallel.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;

struct Placed {
  std::string text;
  double x, y;  // inches from the figure's lower-left corner
};

// The figure's height and the `set label N 'TEXT' at screen X, screen Y` of the script
// whose number lies in [lo, hi), in inches.
std::vector<Placed> labels_in(const std::string& gp, double width, int lo, int hi, double& height) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(gp, m, std::regex(R"(size ([0-9.]+)in,([0-9.]+)in)")));
  EXPECT_NEAR(std::stod(m[1]), width, 1e-9);  // the preset's width, whatever the content
  height = std::stod(m[2]);
  static const std::regex label(R"(set label ([0-9]+) '([^']*)' at screen ([-0-9.e]+), screen ([-0-9.e]+))");
  std::vector<Placed> out;
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), label); it != std::sregex_iterator(); ++it) {
    const int id = std::stoi((*it)[1]);
    if (id >= lo && id < hi) out.push_back({(*it)[2], std::stod((*it)[3]) * width, std::stod((*it)[4]) * height});
  }
  return out;
}

// The x axis title sits a line and a bit above the key's first row: no empty band between
// them (round two left 0.38 in between their centres, 2.4 lines, at 8 pt in a column);
// the key's texts lie inside the figure, apart from each other along their rows.
void expect_key_under_axis_title(const std::string& gp, const PlotStyle& style) {
  double H = 0;
  const std::vector<Placed> title = labels_in(gp, style.width_in, 1101, 1102, H);
  std::vector<Placed> key = labels_in(gp, style.width_in, 3000, 4000, H);
  std::erase_if(key, [](const Placed& p) { return p.text.empty(); });  // the markers' samples
  ASSERT_FALSE(title.empty());
  ASSERT_FALSE(key.empty());
  const double L = style.line_in(), top_row = std::max_element(key.begin(), key.end(), [](auto& a, auto& b) { return a.y < b.y; })->y;
  // centres: half the title's line, a quarter line apart, half the key's row (1.2 lines)
  EXPECT_LE(title.back().y - top_row, 1.5 * L) << "a gap between the axis title and the key";
  EXPECT_GE(title.back().y - top_row, 1.1 * L) << "the key runs into the axis title";
  for (const Placed& k : key) {
    EXPECT_GE(k.x, 0) << k.text;
    EXPECT_LE(k.x + style.text_width_in(k.text), style.width_in) << k.text << " runs off the figure";
    EXPECT_GE(k.y, 0) << k.text;
    for (const Placed& o : key) {
      if (&o != &k && std::abs(o.y - k.y) < 1e-6 && o.x > k.x) {
        EXPECT_LT(k.x + style.text_width_in(k.text), o.x - 0.2) << k.text << " meets " << o.text;
      }
    }
  }
}

TEST(PlotLayersGeometry, KeyFollowsTheAxisTitleInEveryPreset) {
  RunSettings settings;
  Model model = load_model("resnet50", settings.tokens_per_step());
  const HardwareSpec a100 = load_hardware("a100");
  const TimedHardware run{a100, derive(model, analyze_costs(model, settings), a100, select_hardware_model(a100, ""))};
  for (const char* preset : {"", "column", "page"}) {
    SCOPED_TRACE(std::string("preset '") + preset + "'");
    const PlotStyle style = make_style("f.pdf", {preset, "", {}, "", {}});
    const LayersRequest req{.model = &model, .settings = settings, .run = run};
    expect_key_under_axis_title(layers_plot(req, style, "l").files[0].content, style);
  }
}

// gpt3 (8 layers) over two DGX A100 nodes, tp=8 within a node and pp=2 across them, in a
// journal column: the collectives' bars carry short names that keep their group, pass
// and link level, and fit the half of the width the names may take (layers_plot.cpp).
TEST(PlotLayersGeometry, CollectiveNamesKeepBothEndsInAColumn) {
  cli::ParallelOptionValues v;
  v.system = "dgx-a100", v.parallel = "tp=8,pp=2,dp=1", v.global_batch = 16, v.sequence_parallel = true;
  cli::HardwareOptionValues hw;
  hw.sets = {"model.layers=8"};
  const cli::ParallelPlot p = cli::parallel_plot("gpt3", v, hw, cli::RunOptionValues{}, boost::program_options::variables_map{});
  const PlotStyle column = make_style("f.pdf", {"column", "", {}, "", {}});
  const LayersRequest req{&p.model, p.settings, p.run, LayerGrouping::block, 25, p.plan, {}, p.iteration, p.microbatches};
  const PlotBundle b = layers_plot(req, column, "l");
  expect_key_under_axis_title(b.files[0].content, column);
  size_t collectives = 0, pp = 0;
  const auto blocks = test::data_blocks(b.files[1].content);
  for (const auto& row : blocks.at(0)) {
    const std::string &name = row.at(7), &shown = row.at(10);
    if (!is_collective_name(name)) continue;
    ++collectives;
    SCOPED_TRACE(name + " shown as " + shown);
    EXPECT_EQ(shown.substr(0, 3), name.substr(0, 3));  // the group: "tp ", "pp "
    EXPECT_EQ(shown.back(), ')');                       // the link level's end
    EXPECT_NE(shown.find("(scale-"), std::string::npos);
    EXPECT_LE(column.text_width_in(shown), 0.5 * column.width_in);
    // Shortened by whole words out of the middle: each word shown is the acronym form's
    // next word or the ellipsis ("pp P2P fwd+b… (scale-out)" cut a word).
    std::istringstream full(short_collective_name(name, true)), part(shown);
    std::vector<std::string> words{std::istream_iterator<std::string>(full), {}};
    size_t at = 0;
    for (std::string w; part >> w;) {
      if (w == "\u2026") continue;
      while (at < words.size() && words[at] != w) ++at;
      EXPECT_LT(at, words.size()) << "\"" << w << "\" is no whole word of the name, in order";
      ++at;
    }
    if (name.rfind("pp ", 0) == 0) ++pp;
  }
  EXPECT_GE(collectives, 3u);  // tp's gathers and scatters, forward and backward
  EXPECT_GE(pp, 1u);           // pp's send/recv forward+backward, the longest, shortened
}

// The short names by hand, as Megatron-LM's and NCCL's papers write them.
TEST(PlotLayersGeometry, CollectiveShortNames) {
  EXPECT_TRUE(is_collective_name("tp all_gather backward (scale_up)"));
  EXPECT_FALSE(is_collective_name("layers.2.mlp_fc"));
  EXPECT_FALSE(is_collective_name("other (27 layers"));
  EXPECT_EQ(short_collective_name("tp all_gather backward (scale_up)"), "tp all-gather bwd (scale-up)");
  EXPECT_EQ(short_collective_name("tp all_gather backward (scale_up)", true), "tp AG bwd (scale-up)");
  EXPECT_EQ(short_collective_name("pp send_recv forward+backward (scale_out)", true), "pp P2P fwd+bwd (scale-out)");
  EXPECT_EQ(short_collective_name("ep all_to_all forward (scale_up+scale_out)", true), "ep A2A fwd (scale-up+scale-out)");
  EXPECT_EQ(collective_without_link("tp reduce_scatter forward (scale_up, 0 FLOP/B)", true), "tp RS fwd");
  EXPECT_EQ(collective_without_link("dp all_reduce step (scale_out)"), "dp all-reduce step");
}

}  // namespace
}  // namespace ridge
