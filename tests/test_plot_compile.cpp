// Every plot kind in every format, used as a reader would use it: the .tex compiled by
// pdflatex inside a minimal article, SVG rasterised by rsvg-convert, PDF by pdftoppm,
// and the axis titles, a tick label and a hostile layer name found as text (pdftotext;
// the SVG's text nodes). Skipped, saying which, only where a tool is not installed
// (scripts/install-deps installs them all).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/plot_test_util.hpp"

namespace ridge {
namespace {

namespace fs = std::filesystem;

// A layer name holding every character LaTeX treats specially, and a command: it must
// come out as these characters, not run. (Model files allow no '.' or '@' in names.)
const std::string kHostile = R"(conv_1 50% #2 {a} & $x ~^\textbf{b})";

std::string hostile_model() {
  return "name = \"evil_model\"\nsource = \"test\"\n[input]\nshape = [3, 224, 224]\n"
         "[[layer]]\nname = \"conv_1 50% #2 {a} & $x ~^\\\\textbf{b}\"\nop = \"conv2d\"\n"
         "out_channels = 64\nkernel = 11\nstride = 4\npadding = 2\n"
         "[[layer]]\nname = \"relu\"\nop = \"relu\"\n";
}

// A sweep over batch and HBM bandwidth whose model is the hostile name; times invented.
std::string hostile_sweep_csv() {
  std::string csv = "model,hardware,batch,dtype,phase,memory.HBM2.bandwidth,time_s,samples_per_s\n";
  for (const char* bw : {"900 GB/s", "1.5 TB/s"})
    for (int batch : {1, 64})
      csv += "\"conv_1 50% #2 {a} & $x ~^\\textbf{b}\",v100," + std::to_string(batch) + ",fp32,inference," + bw + "," +
             (batch == 1 ? "0.01,100" : "0.2,320") + "\n";
  return csv;
}

bool have(const std::string& tool) { return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0; }

// Runs a shell command in `dir`; returns its exit status, with its output in `log`.
int run_in(const fs::path& dir, const std::string& cmd, std::string* log = nullptr) {
  fs::path out = dir / "tool-output.txt";
  int rc = std::system(("cd '" + dir.string() + "' && " + cmd + " >'" + out.string() + "' 2>&1").c_str());
  if (log) *log = test::read_all(out);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// Whitespace removed: pdftotext breaks lines where the layout does.
std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

// The text of every <text> node of an SVG, XML entities decoded, one per line.
std::string svg_text(const std::string& svg) {
  std::string out;
  static const std::regex node("<text[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), node); it != std::sregex_iterator(); ++it) {
    std::string t = (*it)[1];
    for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}})
      for (size_t p; (p = t.find(from)) != std::string::npos;) t.replace(p, std::string(from).size(), to);
    out += t + "\n";
  }
  return out;
}

struct Case {
  std::string kind, format;
};

// What each kind must show as text: its axis titles, one tick label (decades and
// values of this input, worked out by hand) and the hostile name.
std::vector<std::string> expected_text(const std::string& kind) {
  // roofline: V100's fp32 roof is 15.7 TFLOP/s, so the y axis, in TFLOP/s, has a decade
  // written 10.
  if (kind == "roofline") return {"Arithmetic intensity [FLOP/B]", "Performance [TFLOP/s], launch time aside", "10", kHostile};
  // layers: two layers, times of some microseconds, each bar named in full.
  if (kind == "layers") return {"Time per layer [\u00b5s]", "relu", kHostile};
  // compare: the three groups, relative to the first device, the second named in the key
  // (the model's name is the only text of its own, and a layer name is not shown).
  if (kind == "compare") return {"relative to v100", "samples/s", "per $", "per joule", "a100"};  // long or short group names
  // sweep: batches 1 and 64 on the x axis.
  return {"batch", "samples/s", "64", kHostile};
}

class PlotCompiles : public ::testing::TestWithParam<Case> {};

TEST_P(PlotCompiles, AndShowsItsTextAsText) {
  const Case c = GetParam();
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  const std::vector<std::string> tools = c.format == "tex" ? std::vector<std::string>{"pdflatex", "pdftotext", "pdftoppm"}
                                         : c.format == "pdf" ? std::vector<std::string>{"pdftotext", "pdftoppm"}
                                         : c.format == "svg" ? std::vector<std::string>{"rsvg-convert"}
                                                             : std::vector<std::string>{};
  for (const std::string& t : tools)
    if (!have(t)) GTEST_SKIP() << t << " is not installed: cannot check the " << c.format << " output (scripts/install-deps)";

  test::TempDir dir;
  std::ofstream(dir.path() / "evil.toml") << hostile_model();
  std::ofstream(dir.path() / "sweep.csv") << hostile_sweep_csv();
  // As .tex at its default 4.7 in, the roofline has no free spot for the hostile name's
  // 2.9-in label clear of the lines, and the layer chart shortens it to half the width
  // ("...nv_1 50% ..."): at 6 in both set it in full.
  const std::string input = c.kind == "sweep"                              ? "sweep.csv"
                            : c.kind == "compare"                           ? "evil.toml --hw v100 --hw a100"
                            : c.format == "tex"                             ? "evil.toml --hw v100 --size 6x4.2"
                                                                            : "evil.toml --hw v100";
  std::string log;
  ASSERT_EQ(run_in(dir.path(), std::string(RIDGE_BINARY) + " plot " + c.kind + " " + input + " --output fig." + c.format, &log), 0)
      << log;

  // The script and data beside the image, and no temporary folder left behind.
  EXPECT_TRUE(fs::exists(dir.path() / "fig.gp"));
  EXPECT_TRUE(fs::exists(dir.path() / "fig.dat"));
  for (const auto& e : fs::directory_iterator(dir.path())) EXPECT_NE(e.path().filename().string().rfind(".ridge-plot", 0), 0u);

  std::string text;  // what a reader sees as text
  test::expect_image(dir.path(), "fig", plots::format_of_output("fig." + c.format));
  if (c.format == "png") return;  // pixels only: the same script draws the SVG and PDF read here
  if (c.format == "svg") {
    ASSERT_EQ(run_in(dir.path(), "rsvg-convert -o raster.png fig.svg", &log), 0) << log;
    EXPECT_GT(fs::file_size(dir.path() / "raster.png"), 1000u);
    text = svg_text(test::read_all(dir.path() / "fig.svg"));
    // Its size in inches (unitless, tools take it as px at 96 per inch), and no filter,
    // which rsvg-convert 2.54 drew as blanking the lines under a label.
    const std::string svg = test::read_all(dir.path() / "fig.svg");
    EXPECT_NE(svg.find("in\" height=\""), std::string::npos) << svg.substr(0, 200);
    EXPECT_EQ(svg.find("filter=\""), std::string::npos);
  } else {
    std::string pdf = "fig.pdf";
    if (c.format == "tex") {
      std::ofstream(dir.path() / "paper.tex") << "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{mathptmx}\n"
                                                 "\\usepackage{graphicx}\n\\usepackage{color}\n\\begin{document}\n"
                                                 "\\begin{figure}\\input{fig.tex}\\end{figure}\n\\end{document}\n";
      ASSERT_EQ(run_in(dir.path(), "pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape paper.tex", &log), 0) << log;
      // The text is set in the document's font, not in a family the document lacks.
      const std::string tex = test::read_all(dir.path() / "fig.tex");
      EXPECT_EQ(tex.find("\\fontfamily"), std::string::npos);
      // Labels keep their own sizes, which LaTeX sets: the title at 1.1 x 10 pt and, in
      // the roofline, the roof and bandwidth labels at 0.9 x 10 pt.
      EXPECT_NE(tex.find("\\fontsize{11}{13.2}\\selectfont"), std::string::npos);
      if (c.kind == "roofline") {
        EXPECT_NE(tex.find("\\fontsize{9}{10.8}\\selectfont"), std::string::npos);
      }
      EXPECT_EQ(test::read_all(dir.path() / "paper.log").find("LaTeX Font Warning"), std::string::npos) << "a font was substituted";
      pdf = "paper.pdf";
    }
    ASSERT_EQ(run_in(dir.path(), "pdftoppm -r 30 -png -f 1 -l 1 " + pdf + " raster", &log), 0) << log;
    ASSERT_EQ(run_in(dir.path(), "pdftotext " + pdf + " text.txt", &log), 0) << log;
    text = test::read_all(dir.path() / "text.txt");
  }
  for (const std::string& want : expected_text(c.kind))
    EXPECT_NE(squeeze(text).find(squeeze(want)), std::string::npos) << "'" << want << "' is not in the text:\n" << text;
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const char* kind : {"roofline", "layers", "sweep", "compare"})
    for (const char* format : {"png", "svg", "pdf", "tex"}) out.push_back({kind, format});
  return out;
}

INSTANTIATE_TEST_SUITE_P(KindsAndFormats, PlotCompiles, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) { return info.param.kind + "_" + info.param.format; });

// --output X.tex writes X.tex and its graphics X-graphics.pdf: an X.pdf the user has
// (the paper itself, say) is left as it was.
TEST(PlotTex, KeepsAPdfOfTheSameName) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  std::ofstream(dir.path() / "fig.pdf") << "the user's own file";
  std::string log;
  ASSERT_EQ(run_in(dir.path(), std::string(RIDGE_BINARY) + " plot roofline alexnet --hw v100 --output fig.tex", &log), 0) << log;
  EXPECT_EQ(test::read_all(dir.path() / "fig.pdf"), "the user's own file");
  EXPECT_NE(test::read_all(dir.path() / "fig.tex").find("fig-graphics"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir.path() / "fig-graphics.pdf"));
  EXPECT_FALSE(fs::exists(dir.path() / "fig-graphics.tex"));
}

// fig.tex in `dir` set once in a box LaTeX measures, then into an article's text
// (`preamble` may change \textwidth): {the figure's width, \textwidth} in pt, and the log.
struct SetWidths {
  double figure = 0, text = 0;
  std::string log;
};
SetWidths set_in_article(const fs::path& dir, const std::string& preamble = "") {
  std::ofstream(dir / "paper.tex") << "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{color}\n" << preamble
                                   << "\\begin{document}\n\\sbox0{\\input{fig.tex}}\n"
                                      "\\typeout{FIGWIDTH=\\the\\wd0}\n\\typeout{TEXTWIDTH=\\the\\textwidth}\n"
                                      "\\noindent\\usebox0\n\\end{document}\n";
  SetWidths w;
  EXPECT_EQ(run_in(dir, "pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape paper.tex", &w.log), 0) << w.log;
  w.log = test::read_all(dir / "paper.log");
  std::smatch fig, text;
  EXPECT_TRUE(std::regex_search(w.log, fig, std::regex("FIGWIDTH=([0-9.]+)pt"))) << w.log;
  EXPECT_TRUE(std::regex_search(w.log, text, std::regex("TEXTWIDTH=([0-9.]+)pt"))) << w.log;
  if (fig.size() > 1 && text.size() > 1) w.figure = std::stod(fig[1]), w.text = std::stod(text[1]);
  return w;
}

// At its default size a sweep figure fits \textwidth of a default LaTeX article (345 pt):
// LaTeX measures the figure it sets, and reports no overfull box.
TEST(PlotTex, SweepFitsTheTextWidthOfAnArticle) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed: cannot check the width (scripts/install-deps)";
  test::TempDir dir;
  std::ofstream(dir.path() / "sweep.csv") << hostile_sweep_csv();
  std::string log;
  ASSERT_EQ(run_in(dir.path(), std::string(RIDGE_BINARY) + " plot sweep sweep.csv --output fig.tex", &log), 0) << log;
  const SetWidths w = set_in_article(dir.path());
  EXPECT_DOUBLE_EQ(w.text, 345.0);  // the article class's \textwidth at 10 pt on letter paper
  EXPECT_LE(w.figure, w.text);
  EXPECT_GT(w.figure, 0.9 * w.text);  // and uses it
  EXPECT_EQ(w.log.find("Overfull"), std::string::npos) << w.log;
}

// bert-base's layer chart as .tex at its default size: its 30-character names once
// widened it 59.5 pt past an article's text; they are shortened to half its 4.7 in now.
TEST(PlotTex, LayersFitTheTextWidthOfAnArticle) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed: cannot check the width (scripts/install-deps)";
  test::TempDir dir;
  std::string log;
  ASSERT_EQ(run_in(dir.path(), std::string(RIDGE_BINARY) + " plot layers bert-base --hw a100 --output fig.tex", &log), 0) << log;
  const SetWidths w = set_in_article(dir.path());
  EXPECT_NEAR(w.figure, 4.7 * 72.27, 1.0);
  EXPECT_LE(w.figure, w.text);
  EXPECT_EQ(w.log.find("Overfull"), std::string::npos) << w.log;
}

// A roofline overlaying three GPUs, as .tex at its default size, keeps to its 4.7 in (it
// once widened to 8.9 in for roof labels in the margin, and ran off the page): it fits
// a letter page's text with 1-inch margins (6.5 in = 469.76 pt), and its labels keep
// their GPU's colour (cairolatex's colortext: \colorrgb before them).
TEST(PlotTex, RooflineOverlayKeepsItsWidthAndColours) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed: cannot check the width (scripts/install-deps)";
  test::TempDir dir;
  std::string log;
  ASSERT_EQ(run_in(dir.path(),
                   std::string(RIDGE_BINARY) + " plot roofline resnet50 --hw v100 --hw a100 --hw h100 --output fig.tex", &log),
            0)
      << log;
  const SetWidths w = set_in_article(dir.path(), "\\setlength{\\textwidth}{6.5in}\n");
  EXPECT_NEAR(w.text, 6.5 * 72.27, 0.01);
  EXPECT_NEAR(w.figure, 4.7 * 72.27, 1.0);
  EXPECT_EQ(w.log.find("Overfull"), std::string::npos) << w.log;
  // Okabe-Ito blue (#0072B2), the first GPU's colour, on some text.
  EXPECT_NE(test::read_all(dir.path() / "fig.tex").find("\\colorrgb{0.00,0.45,0.70}"), std::string::npos);
}

// A PDF sets its text at --font-size: pdfcairo's default fontscale (0.5) once set 10-pt
// text at 6.7 pt, smaller than the PNG, SVG and .tex of the same figure and than the
// labels were placed for. DejaVu Sans's box (pdftotext -bbox) is 1.16 em tall: 11.6 pt
// for a 10-pt word, where it was 7.75.
TEST(PlotPdf, TextIsSetAtItsSize) {
  if (!test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  if (!have("pdftotext")) GTEST_SKIP() << "pdftotext is not installed (scripts/install-deps)";
  test::TempDir dir;
  std::string log;
  ASSERT_EQ(run_in(dir.path(), std::string(RIDGE_BINARY) + " plot roofline alexnet --hw v100 --font-size 10 --output fig.pdf", &log), 0)
      << log;
  ASSERT_EQ(run_in(dir.path(), "pdftotext -bbox fig.pdf words.html", &log), 0) << log;
  const std::string words = test::read_all(dir.path() / "words.html");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(words, m, std::regex(R"re(yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">Arithmetic<)re")))
      << words;
  const double height = std::stod(m[2]) - std::stod(m[1]);
  EXPECT_GT(height, 10.0) << "the axis title is set smaller than 10 pt";
  EXPECT_LT(height, 13.0);
}

}  // namespace
}  // namespace ridge
