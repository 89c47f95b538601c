// `ridge plot roofline MODEL --hw HW [--hw HW2 ...]`: the model's layers on the rooflines
// of one or more hardware descriptors.
#include "plots/roofline_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"
#include "sim/cli/plot_parallel.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

int run_plot_roofline(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  HardwareOptionValues hwo;
  PlotOptionValues plot;
  ParallelOptionValues par;
  int labels = 8;
  bool no_group = false;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description points("Points");
  points.add_options()
      ("labels", po::value(&labels)->default_value(8), "how many of the heaviest points to name (a note says when fewer fit)")
      ("no-group", po::bool_switch(&no_group), "one point per layer: do not merge repeated blocks on one spot");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo, "; repeat to overlay")).add(parallel_option_group(par)).add(points).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const CommandHelp help = {
      "ridge plot roofline MODEL --hw HW [--hw HW2 ...] --output FILE.(png|svg|pdf|tex) [options]",
      "Draws MODEL's layers on the rooflines of one or more hardware descriptors, log-log: arithmetic\n"
      "intensity against attained FLOP/s. Each memory level's diagonal rises to the roof of the run's\n"
      "dtype and stops there; other dtypes' roofs are drawn lighter; ridge points are marked. Marker area\n"
      "is a layer's share of the step time; repeated blocks on one spot are one point (x12) unless\n"
      "--no-group. Several --hw overlay their rooflines, named with their bandwidths in the key. With --system\n"
      "and --parallel: one device's share for one microbatch, each network link the plan uses as a diagonal at\n"
      "its achievable bandwidth, and each collective a point at its FLOPs per byte over the link (a gather,\n"
      "with no FLOPs, at the plot's left edge, '0 FLOP/B').",
      {"ridge plot roofline alexnet --hw v100 --output alexnet-v100.png",
       "ridge plot roofline resnet50 --hw v100 --hw a100 --hw h100 --batch 64 --dtype fp16 --output gens.pdf",
       "ridge plot roofline bert-base --hw a100 --labels 12 --style paper-wide --output bert.tex",
       "ridge plot roofline resnet50 --system dgx1-v100 --parallel dp=8 --global-batch 256 --output resnet50-dp8.png"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (model_arg.empty()) throw InputError({}, "plot roofline: which model?", "ridge plot roofline alexnet --hw v100 --output fig.png");
  if (hwo.hw.empty() && !wants_parallel(par))
    throw InputError({}, "plot roofline: which hardware? --hw is required", "--hw v100 (ridge list hardware), or --system S --parallel ...");
  if (!wants_parallel(par)) refuse_plan_options(vm);
  if (labels < 0) throw InputError({}, "--labels must be 0 or more (got " + std::to_string(labels) + ")");
  PlotTarget target = plot_target(plot);
  if (wants_parallel(par)) {
    ParallelPlot pp = parallel_plot(model_arg, par, hwo, run, vm);
    plots::RooflineRequest req{&pp.model, pp.settings, {pp.run}, labels, !no_group, pp.plan, pp.link_roofs, pp.collectives};
    return render_plot(plots::roofline_plot(req, target.style, target.stem), target);
  }
  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  plots::RooflineRequest req{&model, settings, time_on_hardware(model, settings, hwo), labels, !no_group, {}, {}, {}};
  return render_plot(plots::roofline_plot(req, target.style, target.stem), target);
}

}  // namespace ridge::cli
