// `ridge plot sweep SWEEP.csv`: the CSV that `ridge sweep` writes, as samples/s and step
// time against one column that varies, coloured by another.
#include "plots/sweep_plot.hpp"
#include "sim/base/error.hpp"
#include "sim/cli/plot_kinds.hpp"
#include "sim/cli/plot_options.hpp"

namespace ridge::cli {

int run_plot_sweep(const Args& args) {
  std::string csv;
  std::vector<std::string> where;
  plots::SweepChoice choice;
  PlotOptionValues plot;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("csv", po::value(&csv), "a CSV written by ridge sweep");
  po::options_description selection("Selection");
  selection.add_options()("where", po::value(&where)->composing(),
                          "COLUMN=VALUE: plot only the rows with that value (repeatable; the same column twice: "
                          "either value). One facet per model; at most 12 lines in a panel")(
      "x", po::value(&choice.x), "COLUMN: the x axis, a number that varies (batch, context, seq, a [[vary]] key); "
                                 "default: the one with the most values")(
      "colour", po::value(&choice.colour), "COLUMN: what the line colours stand for; default: hardware when it "
                                           "varies, else the next column that varies")(
      "y", po::value(&choice.y)->composing(), "KEY: a quantity to draw, one panel each (repeatable; default "
                                               "samples_per_s and time_s)");
  po::options_description visible;
  visible.add(general).add(selection).add(plot_option_group(plot));
  po::positional_options_description pos;
  pos.add("csv", 1);
  po::variables_map vm;
  const CommandHelp help = {
      "ridge plot sweep SWEEP.csv [--where COLUMN=VALUE ...] --output FILE.(png|svg|pdf|tex) [options]",
      "Draws the CSV that ridge sweep --format csv writes: per model, samples/s and step time against\n"
      "one column that varies (--x), the lines coloured by another (--colour); the other columns that\n"
      "vary get dashes and markers, and --where keeps the rows with given values. Axis titles and units\n"
      "are the sweep schema's; the default size fits a LaTeX article's \\textwidth.",
      {"ridge plot sweep gens.csv --where phase=inference --where dtype=fp16 --y samples_per_s --output gens.png",
       "ridge plot sweep hbm.csv --x memory.HBM2e.bandwidth --colour batch --output hbm.pdf"}};
  if (!parse_command_line(args, visible, pos, vm, help)) return 0;
  if (csv.empty()) throw InputError({}, "plot sweep: which CSV?", "ridge sweep configs/sweeps/x.toml --format csv --output x.csv");
  PlotTarget target = plot_target(plot);
  plots::SweepTable table = plots::select_rows(plots::read_sweep_csv(csv), where);
  return render_plot(plots::sweep_plot(table, target.style, target.stem, choice), target);
}

}  // namespace ridge::cli
