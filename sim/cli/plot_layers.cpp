// `ridge plot layers MODEL --hw HW`: where the step's time goes, per layer, block or op.
#include "plots/layers_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

int run_plot_layers(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  HardwareOptionValues hwo;
  PlotOptionValues plot;
  std::string group = "auto";
  int top = 25;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description bars("Bars");
  bars.add_options()
      ("group", po::value(&group)->default_value("auto"), "one bar per: none (layer), block (name up to its first number: "
                                                          "encoder.layer.3), op (linear, conv2d, ...) or auto (layer, "
                                                          "unless the bars that fit would leave over half the step in "
                                                          "\"other\" and blocks leave less: then block)")
      ("top", po::value(&top)->default_value(25), "bars drawn, heaviest first; the rest are summed into \"other\"");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(bars).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const CommandHelp help = {
      "ridge plot layers MODEL --hw HW --output FILE.(png|svg|pdf|tex) [options]",
      "Draws where the step's time goes on the hardware: one horizontal bar per layer (or per block, or\n"
      "per op type), heaviest at the top with its full name, the tail summed into \"other\". Each bar\n"
      "stacks compute, exposed memory (memory time beyond compute), host link and launch, and a symbol\n"
      "marks whether it is compute- or memory-bound.",
      {"ridge plot layers alexnet --hw v100 --output alexnet-layers.png",
       "ridge plot layers bert-base --hw a100 --group block --output bert-blocks.svg",
       "ridge plot layers bert-base --hw a100 --group op --top 10 --style paper --output bert-ops.pdf"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (model_arg.empty()) throw InputError({}, "plot layers: which model?", "ridge plot layers alexnet --hw v100 --output fig.png");
  if (hwo.hw.empty()) throw InputError({}, "plot layers: which hardware? --hw is required", "--hw v100 (ridge list hardware)");
  if (hwo.hw.size() > 1) throw InputError({}, "plot layers: one --hw at a time", "overlay several with: ridge plot roofline");
  if (top < 1) throw InputError({}, "--top must be 1 or more (got " + std::to_string(top) + ")");
  plots::LayerGrouping grouping = plots::parse_layer_grouping(group);
  PlotTarget target = plot_target(plot);
  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  plots::LayersRequest req{&model, settings, time_on_hardware(model, settings, hwo).front(), grouping, static_cast<size_t>(top)};
  return render_plot(plots::layers_plot(req, target.style, target.stem), target);
}

}  // namespace ridge::cli
