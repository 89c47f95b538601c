// `ridge plot roofline|layers|sweep ... --output FILE.(png|svg|pdf|tex)`: draws with
// gnuplot, writing the script (FILE.gp) and data (FILE.dat) beside the image so an
// author can restyle and re-run them.
#include <filesystem>
#include <iostream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "plots/gnuplot_runner.hpp"
#include "plots/layers_plot.hpp"
#include "plots/roofline_plot.hpp"
#include "plots/sweep_plot.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {

struct PlotOptionValues {
  std::string output;
  std::string size;
  std::string font;
  double font_size = 0;
  int labels = 8;
};

po::options_description plot_option_group(PlotOptionValues& v) {
  po::options_description g("Plot options");
  g.add_options()
      ("output,o", po::value(&v.output), "image to write: FILE.png, FILE.svg, FILE.pdf or FILE.tex (LaTeX + FILE.pdf); "
                                         "FILE.gp and FILE.dat are written beside it")
      ("size", po::value(&v.size), "WxH: inches (pixels for PNG), or with a unit: 6inx4in, 15cmx10cm, 1200x800px "
                                   "(default 6x4.2 in)")
      ("font", po::value(&v.font), "font family (default Sans; LaTeX output uses the document's font)")
      ("font-size", po::value(&v.font_size), "font size in points (default 10)")
      ("labels", po::value(&v.labels)->default_value(8), "roofline: how many of the heaviest layers to name");
  return g;
}

// The folder and stem of --output ("out/fig.png" -> "out", "fig"), and the style.
struct Target {
  std::string folder, stem;
  plots::PlotStyle style;
};

Target target_of(const PlotOptionValues& v) {
  if (v.output.empty())
    throw InputError({}, "plot: which file? --output is required", "--output roofline.png (or .svg, .pdf, .tex)");
  for (char c : v.output)
    if (static_cast<unsigned char>(c) < 0x20)
      throw InputError({}, "--output: the file name holds a control character");
  Target t;
  t.style = plots::make_style(v.output, v.size, v.font, v.font_size);
  std::filesystem::path p(v.output);
  t.folder = p.parent_path().string();
  t.stem = p.stem().string();
  if (t.stem.empty() || t.stem[0] == '.') throw InputError({}, "--output: '" + v.output + "' names no file");
  return t;
}

std::vector<plots::TimedHardware> time_on_hardware(const Model& model, const CostAnalysis& costs,
                                                   const HardwareOptionValues& v) {
  std::vector<plots::TimedHardware> out;
  for (SelectedHardware& hw : to_hardware_list(v)) {
    RunResult timing = derive(model, costs, hw.spec, *hw.model);
    out.push_back({std::move(hw.spec), std::move(timing)});
  }
  return out;
}

int plot_model(const std::string& kind, const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  HardwareOptionValues hwo;
  PlotOptionValues plot;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const CommandHelp help = {"ridge plot " + kind + " MODEL --hw HW" + (kind == "roofline" ? " [--hw HW2 ...]" : "") +
                                " --output FILE.(png|svg|pdf|tex) [options]",
                            kind == "roofline"
                                ? "Draws MODEL's layers on the rooflines of one or more hardware descriptors (log-log: arithmetic\n"
                                  "intensity against attained FLOP/s), with the gnuplot script and data beside the image."
                                : "Draws each layer's time on the hardware as a stacked bar (compute, exposed memory, link, launch),\n"
                                  "with the gnuplot script and data beside the image.",
                            {"ridge plot " + kind + " alexnet --hw v100 --output fig.png",
                             "ridge plot " + kind + " resnet50 --hw a100 --batch 64 --dtype fp16 --output fig.pdf"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (model_arg.empty()) throw InputError({}, "plot " + kind + ": which model?", "ridge plot " + kind + " alexnet --hw v100 --output fig.png");
  if (hwo.hw.empty()) throw InputError({}, "plot " + kind + ": which hardware? --hw is required", "--hw v100 (ridge list hardware)");
  if (kind == "layers" && hwo.hw.size() > 1)
    throw InputError({}, "plot layers: one --hw at a time", "overlay several with: ridge plot roofline");
  if (plot.labels < 0) throw InputError({}, "--labels must be 0 or more (got " + std::to_string(plot.labels) + ")");
  Target target = target_of(plot);
  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo);
  CostAnalysis costs = analyze_costs(model, settings);
  std::vector<plots::TimedHardware> runs = time_on_hardware(model, costs, hwo);
  plots::PlotBundle bundle;
  if (kind == "roofline") {
    plots::RooflineRequest req{&model, settings, std::move(runs), plot.labels};
    bundle = plots::roofline_plot(req, target.style, target.stem);
  } else {
    bundle = plots::layers_plot(model, settings, runs.front(), target.style, target.stem);
  }
  plots::render_bundle(bundle, target.folder);
  return 0;
}

int plot_sweep(const Args& args) {
  std::string csv;
  std::vector<std::string> where;
  PlotOptionValues plot;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("csv", po::value(&csv), "a CSV written by ridge sweep");
  po::options_description selection("Selection");
  selection.add_options()("where", po::value(&where)->composing(),
                          "COLUMN=VALUE: plot only the rows with that value (repeatable; the same column twice: "
                          "either value). One facet per model; at most 12 lines in a panel");
  po::options_description visible;
  visible.add(general).add(selection).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("csv", 1);
  po::variables_map vm;
  const CommandHelp help = {"ridge plot sweep SWEEP.csv [--where COLUMN=VALUE ...] --output FILE.(png|svg|pdf|tex) [options]",
                            "Draws the CSV that ridge sweep writes: samples/s against batch per model and, when the sweep varies a\n"
                            "descriptor field, step time against that field beside it.",
                            {"ridge plot sweep gens.csv --where phase=inference --output gens.png"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (csv.empty()) throw InputError({}, "plot sweep: which CSV?", "ridge sweep configs/sweeps/x.toml --format csv --output x.csv");
  Target target = target_of(plot);
  plots::SweepTable table = plots::select_rows(plots::read_sweep_csv(csv), where);
  plots::render_bundle(plots::sweep_plot(table, target.style, target.stem), target.folder);
  return 0;
}

}  // namespace

int run_plot(const Args& args) {
  const std::string usage = "usage: ridge plot roofline|layers|sweep ... --output FILE.(png|svg|pdf|tex)";
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << usage << "\n\n"
              << "  roofline MODEL --hw HW [--hw HW2 ...]  layers on the hardware's rooflines (log-log)\n"
                 "  layers MODEL --hw HW                   per-layer time, stacked: compute, exposed memory, link, launch\n"
                 "  sweep SWEEP.csv                        samples/s against batch (and time against a varied field)\n\n"
                 "ridge plot KIND --help lists each kind's options. Beside FILE.png (or .svg, .pdf, .tex) ridge\n"
                 "writes FILE.gp and FILE.dat: edit the .gp and run `gnuplot FILE.gp` in that folder to restyle.\n";
    if (args.empty()) throw InputError({}, "plot: which kind?", "ridge plot roofline alexnet --hw v100 --output fig.png");
    return 0;
  }
  const std::string& kind = args[0];
  Args rest(args.begin() + 1, args.end());
  if (kind == "roofline" || kind == "layers") return plot_model(kind, rest);
  if (kind == "sweep") return plot_sweep(rest);
  throw InputError({}, "plot: unknown kind '" + kind + "'", "use roofline, layers or sweep");
}

}  // namespace ridge::cli
