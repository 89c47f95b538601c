// Options and steps every plot kind shares (see plot_options.hpp).
#include "sim/cli/plot_options.hpp"

#include <filesystem>
#include <iostream>

#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge::cli {

po::options_description plot_option_group(PlotOptionValues& v) {
  po::options_description g("Figure");
  g.add_options()
      ("output,o", po::value(&v.output), "image to write: FILE.png, FILE.svg, FILE.pdf or FILE.tex (LaTeX text, with its "
                                         "graphics in FILE-graphics.pdf); FILE.gp and FILE.dat are written beside it")
      ("style", po::value(&v.style), "preset size and font: column (a two-column paper's column, 3.3 in, 8 pt; "
                                     "also 'paper'), page (its text width, 7 in, 9 pt; also 'paper-wide') or slides "
                                     "(10 x 5.6 in, 16 pt)")
      ("size", po::value(&v.size), "WxH in inches (6x4.2), or with a unit: 15cmx10cm, 1200x800px (PNG); "
                                   "without it the figure grows to fit its content")
      ("dpi", po::value(&v.dpi), "PNG resolution, pixels per inch (default 150)")
      ("font", po::value(&v.font), "font family (default Sans; LaTeX output uses the document's font)")
      ("font-size", po::value(&v.font_size), "font size in points (default 10; fonts scale with it)")
      ("grayscale", po::bool_switch(&v.grayscale), "draw in grays only; series differ by dash pattern and marker shape")
      ("no-title", po::bool_switch(&v.no_title), "leave the title out (a paper's caption names the figure)");
  return g;
}

PlotTarget plot_target(const PlotOptionValues& v) {
  if (v.output.empty())
    throw InputError({}, "plot: which file? --output is required", "--output roofline.png (or .svg, .pdf, .tex)");
  for (char c : v.output)
    if (static_cast<unsigned char>(c) < 0x20)
      throw InputError({}, "--output: the file name holds a control character");
  PlotTarget t;
  t.style = plots::make_style(v.output, {v.style, v.size, v.dpi, v.font, v.font_size, v.grayscale, v.no_title});
  std::filesystem::path p(v.output);
  t.folder = p.parent_path().string();
  t.stem = p.stem().string();
  if (t.stem.empty() || t.stem[0] == '.') throw InputError({}, "--output: '" + v.output + "' names no file (its name is empty or starts with '.')");
  return t;
}

std::vector<plots::TimedHardware> time_on_hardware(const Model& model, const RunSettings& settings,
                                                   const HardwareOptionValues& v) {
  CostAnalysis costs = analyze_costs(model, settings);
  std::vector<plots::TimedHardware> out;
  for (SelectedHardware& hw : to_hardware_list(v)) {
    RunResult timing = derive(model, costs, hw.spec, *hw.model);
    out.push_back({std::move(hw.spec), std::move(timing)});
  }
  return out;
}

int render_plot(const plots::PlotBundle& bundle, const PlotTarget& target) {
  plots::render_bundle(bundle, target.folder);
  for (const std::string& note : bundle.notes) std::cerr << "note: " << note << "\n";
  return 0;
}

}  // namespace ridge::cli
