// `ridge plot compare MODEL --hw A --hw B ...`: the devices' throughput, throughput per
// dollar and per joule as grouped bars, relative to the first device.
#include "plots/compare_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/compare_options.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"

namespace ridge::cli {

int run_plot_compare(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  HardwareOptionValues hwo;
  CostOptionValues cost;
  PlotOptionValues plot;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(cost_option_group(cost)).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const CommandHelp help = {
      "ridge plot compare MODEL --hw A --hw B [--hw C ...] --output FILE.(png|svg|pdf|tex) [options]",
      "Draws `ridge compare` as grouped bars: throughput (samples/s, tokens/s for prefill and decode),\n"
      "throughput per dollar (on the --price-basis) and per joule, one bar per device in each group, its\n"
      "height relative to the first device and its value above it. Devices differ by colour and by fill\n"
      "pattern, so the figure reads in grayscale print.",
      {"ridge plot compare resnet50 --hw gtx1080ti --hw titan-x-pascal --hw k80 --phase training --batch 64 --output buy.png",
       "ridge plot compare llama-2-7b --hw a100 --hw h100 --hw l40s --phase decode --batch 8 --context 512 --price-basis cloud --output serve.pdf",
       "ridge plot compare bert-base --hw t4 --hw l4 --hw a10 --dtype fp16 --batch 32 --style column --output bert.tex"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (model_arg.empty()) throw InputError({}, "plot compare: which model?", "ridge plot compare resnet50 --hw v100 --hw a100 --output fig.png");
  if (hwo.hw.empty()) throw InputError({}, "plot compare: which devices?", "name each with --hw, e.g. --hw v100 --hw a100");
  PlotTarget target = plot_target(plot);
  RunSettings settings = to_run_settings(run);
  CostBasis basis = to_cost_basis(cost);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  ComparisonResult result = compare_on_hardware(model, settings, hwo, basis);
  return render_plot(plots::compare_plot(result, target.style, target.stem), target);
}

}  // namespace ridge::cli
