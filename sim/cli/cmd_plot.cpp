// `ridge plot KIND ... --output FILE.(png|svg|pdf|tex)`: finds KIND in the table of plot
// kinds and runs it. Every kind draws with gnuplot and writes its script (FILE.gp) and
// data (FILE.dat) beside the image, so an author can restyle and re-run them.
#include <iostream>

#include "sim/base/error.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/plot_kinds.hpp"

namespace ridge::cli {

const std::vector<PlotKind>& plot_kinds() {
  static const std::vector<PlotKind> kinds = {
      {"roofline", "MODEL --hw HW [--hw HW2 ...]  layers on the hardware's rooflines (log-log)", run_plot_roofline},
      {"layers", "MODEL --hw HW                   where the step's time goes: layers, blocks or ops", run_plot_layers},
      {"sweep", "SWEEP.csv                       samples/s against batch (and time against a varied field)", run_plot_sweep},
      {"compare", "MODEL --hw A --hw B [...]      throughput, per dollar and per joule, device by device", run_plot_compare},
  };
  return kinds;
}

int run_plot(const Args& args) {
  std::string names;
  for (const PlotKind& k : plot_kinds()) names += (names.empty() ? "" : "|") + std::string(k.name);
  if (args.empty())
    throw InputError({}, "plot: which kind?", "one of " + names + ", e.g. ridge plot roofline alexnet --hw v100 --output fig.png");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: ridge plot " << names << " ... --output FILE.(png|svg|pdf|tex)\n\n";
    for (const PlotKind& k : plot_kinds()) std::cout << "  " << k.name << " " << k.synopsis << "\n";
    std::cout << "\nridge plot KIND --help lists each kind's options. Beside FILE.png (or .svg, .pdf, .tex) ridge\n"
                 "writes FILE.gp and FILE.dat: edit the .gp and run `gnuplot FILE.gp` in that folder to restyle.\n\n"
                 "examples:\n"
                 "  ridge plot roofline alexnet --hw v100 --output roofline.png\n"
                 "  ridge plot layers resnet50 --hw a100 --batch 64 --output layers.svg\n"
                 "  ridge plot compare resnet50 --hw gtx1080ti --hw k80 --phase training --batch 64 --output buy.png\n"
                 "  ridge sweep configs/sweeps/gpu-generations.toml --format csv --output s.csv && ridge plot sweep s.csv --output sweep.pdf\n";
    return 0;
  }
  for (const PlotKind& k : plot_kinds())
    if (args[0] == k.name) return k.run(Args(args.begin() + 1, args.end()));
  throw InputError({}, "plot: unknown kind '" + args[0] + "'", "use one of " + names);
}

}  // namespace ridge::cli
