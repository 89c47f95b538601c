// `ridge plot layers MODEL --hw HW`: where the step's time goes, per layer, block or op.
#include "plots/layers_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"
#include "sim/cli/plot_parallel.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

int run_plot_layers(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  HardwareOptionValues hwo;
  PlotOptionValues plot;
  ParallelOptionValues par;
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
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(parallel_option_group(par)).add(bars).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const CommandHelp help = {
      "ridge plot layers MODEL --hw HW --output FILE.(png|svg|pdf|tex) [options]",
      "Draws where the step's time goes on the hardware: one horizontal bar per layer (or per block, or\n"
      "per op type), heaviest at the top with its full name, the tail summed into \"other\". Each bar\n"
      "stacks compute, exposed memory (memory time beyond compute), host link and launch, and a symbol\n"
      "marks whether it is compute- or memory-bound. With --system and --parallel, a transformer: one device's\n"
      "training iteration as `ridge analyze --parallel` times it, part by part: the layers of its pipeline stage\n"
      "over all microbatches, each collective on the critical path (bound link:<level>), the exposed data-parallel\n"
      "reduction, the pipeline bubble and the optimizer step, adding up to the iteration time in the title; any\n"
      "other model: one data-parallel replica's step and its gradient all-reduce.",
      {"ridge plot layers alexnet --hw v100 --output alexnet-layers.png",
       "ridge plot layers bert-base --hw a100 --group block --output bert-blocks.svg",
       "ridge plot layers bert-base --hw a100 --group op --top 10 --style paper --output bert-ops.pdf",
       "ridge plot layers gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=1 --global-batch 64 --group block --output gpt3-tp8.png"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (model_arg.empty()) throw InputError({}, "plot layers: which model?", "ridge plot layers alexnet --hw v100 --output fig.png");
  if (hwo.hw.empty() && !wants_parallel(par))
    throw InputError({}, "plot layers: which hardware? --hw is required", "--hw v100 (ridge list hardware), or --system S --parallel ...");
  if (!wants_parallel(par)) refuse_plan_options(vm);
  if (hwo.hw.size() > 1) throw InputError({}, "plot layers: one --hw at a time", "overlay several with: ridge plot roofline");
  if (top < 1) throw InputError({}, "--top must be 1 or more (got " + std::to_string(top) + ")");
  plots::LayerGrouping grouping = plots::parse_layer_grouping(group);
  PlotTarget target = plot_target(plot);
  if (wants_parallel(par)) {
    ParallelPlot pp = parallel_plot(model_arg, par, hwo, run, vm);
    // A transformer's plan draws its iteration part by part, the collectives among them.
    plots::LayersRequest req{&pp.model, pp.settings, pp.run, grouping, static_cast<size_t>(top), pp.plan,
                             pp.iteration.empty() ? pp.collectives : std::vector<plots::CollectiveWork>{}, pp.iteration,
                             pp.microbatches};
    return render_plot(plots::layers_plot(req, target.style, target.stem), target);
  }
  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  plots::LayersRequest req{&model, settings, time_on_hardware(model, settings, hwo).front(), grouping, static_cast<size_t>(top), {}, {}};
  return render_plot(plots::layers_plot(req, target.style, target.stem), target);
}

}  // namespace ridge::cli
