// `ridge plot sweep SWEEP.csv`: the CSV that `ridge sweep` writes, as samples/s against
// batch and step time against a varied descriptor field.
#include "plots/sweep_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"

namespace ridge::cli {

int run_plot_sweep(const Args& args) {
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
  const CommandHelp help = {
      "ridge plot sweep SWEEP.csv [--where COLUMN=VALUE ...] --output FILE.(png|svg|pdf|tex) [options]",
      "Draws the CSV that ridge sweep --format csv writes: per model, samples/s against batch and, when\n"
      "the sweep varies a descriptor field, step time against that field beside it. Lines are told apart\n"
      "by the columns that vary; --where keeps the rows with given values.",
      {"ridge plot sweep gens.csv --where phase=inference --output gens.png",
       "ridge plot sweep bw.csv --where model=resnet50 --style paper-wide --output bw.pdf"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (csv.empty()) throw InputError({}, "plot sweep: which CSV?", "ridge sweep configs/sweeps/x.toml --format csv --output x.csv");
  PlotTarget target = plot_target(plot);
  plots::SweepTable table = plots::select_rows(plots::read_sweep_csv(csv), where);
  return render_plot(plots::sweep_plot(table, target.style, target.stem), target);
}

}  // namespace ridge::cli
