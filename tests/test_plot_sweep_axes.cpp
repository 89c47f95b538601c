// The sweep figure's linear y axes read back from its script (issue #26's leftovers): a
// time axis names its unit once, in its title ("step time [ms]"), and its tics are plain
// numbers, so the zero tic reads "0" (never "0 s" beside "2 ms"); the tic labels keep
// apart, in the journal column and page presets.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "plots/sweep_plot.hpp"
#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

using namespace plots;

// Two devices at batch 1, 8 and 64; step times invented for the test, 0.6 to 3.6 ms (a
// factor of 6: a linear axis from 0), samples/s = batch / time.
std::string short_steps_csv() {
  std::string csv = "model,hardware,batch,status,time_s,samples_per_s\n";
  const int batches[] = {1, 8, 64};
  const double v100[] = {0.0008, 0.0016, 0.0036}, a100[] = {0.0006, 0.001, 0.002};
  for (int i = 0; i < 3; ++i) {
    csv += "vgg16,v100," + std::to_string(batches[i]) + ",ok," + std::to_string(v100[i]) + "," + std::to_string(batches[i] / v100[i]) + "\n";
    csv += "vgg16,a100," + std::to_string(batches[i]) + ",ok," + std::to_string(a100[i]) + "," + std::to_string(batches[i] / a100[i]) + "\n";
  }
  return csv;
}

struct Tic {
  std::string label;
  double value;
};

// The `set ytics ('LABEL' VALUE, ...)` lists of the script, one per panel with one.
std::vector<std::vector<Tic>> ytic_lists(const std::string& gp) {
  std::vector<std::vector<Tic>> out;
  static const std::regex list(R"(set ytics \(([^)]*)\))"), tic(R"('([^']*)' ([-0-9.e+]+))");
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), list); it != std::sregex_iterator(); ++it) {
    const std::string body = (*it)[1];
    out.emplace_back();
    for (auto t = std::sregex_iterator(body.begin(), body.end(), tic); t != std::sregex_iterator(); ++t)
      out.back().push_back({(*t)[1], std::stod((*t)[2])});
  }
  return out;
}

// Every `set VAR at screen F` of the script, in order, in inches of a side `total` long.
std::vector<double> margins(const std::string& gp, const std::string& var, double total) {
  std::vector<double> out;
  const std::regex at("set " + var + " at screen ([-0-9.e]+)");
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), at); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1]) * total);
  return out;
}

TEST(PlotSweepAxes, TimeAxisNamesItsUnitOnceAndTicsKeepApart) {
  const SweepTable t = parse_sweep_csv(short_steps_csv(), "steps.csv");
  for (const char* preset : {"column", "page"}) {
    SCOPED_TRACE(std::string("preset ") + preset);
    const PlotStyle style = make_style("f.tex", {preset, "", {}, "", {}});
    const PlotBundle b = sweep_plot(t, style, "s", {"", "", {"time_s"}});
    const std::string &gp = b.files[0].content, &dat = b.files[1].content;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(gp, m, std::regex(R"(size ([0-9.]+)in,([0-9.]+)in)")));
    const double H = std::stod(m[2]), L = style.line_in();
    // The one panel: step time on a linear axis from 0 over its tics.
    const std::vector<std::vector<Tic>> lists = ytic_lists(gp);
    ASSERT_EQ(lists.size(), 1u);
    const std::vector<Tic>& tics = lists[0];
    ASSERT_GE(tics.size(), 3u);
    EXPECT_EQ(tics.front().value, 0);
    EXPECT_EQ(tics.front().label, "0");
    EXPECT_GE(tics.back().value, 0.0036);
    for (const Tic& tic : tics) {
      SCOPED_TRACE(tic.label);
      // A plain number of milliseconds: "2" at 0.002, "1.5" at 0.0015; no unit by the tic.
      EXPECT_TRUE(std::regex_match(tic.label, std::regex(R"([0-9.]+)"))) << "a unit by the tic";
      EXPECT_NEAR(std::stod(tic.label) * 1e-3, tic.value, 1e-12);
    }
    // The title names the unit with the tics' prefix.
    EXPECT_NE(dat.find("\"step time [ms]\""), std::string::npos);
    // Apart: successive tic labels (a line tall, centred on their tics) a line and more
    // apart, and each as wide as the space between the axis and its title.
    const std::vector<double> bottom = margins(gp, "bmargin", H), top = margins(gp, "tmargin", H);
    ASSERT_GE(bottom.size(), 1u);
    ASSERT_TRUE(std::regex_search(gp, m, std::regex(R"(set yrange \[([-0-9.e+]+):([-0-9.e+]+)\])")));
    const double lo = std::stod(m[1]), hi = std::stod(m[2]);
    auto inches = [&](double v) { return bottom[0] + (v - lo) / (hi - lo) * (top[0] - bottom[0]); };
    for (size_t i = 1; i < tics.size(); ++i) EXPECT_GE(inches(tics[i].value) - inches(tics[i - 1].value), 1.5 * L);
    ASSERT_TRUE(std::regex_search(gp, m, std::regex(R"(size ([0-9.]+)in)")));
    const double W = std::stod(m[1]), axis_x = margins(gp, "lmargin", W).at(0);
    for (const Tic& tic : tics) EXPECT_LE(style.text_width_in(tic.label) + 0.1, axis_x - (0.08 + L)) << tic.label;
  }
}

}  // namespace
}  // namespace ridge
