// The `ridge` command: dispatches to a subcommand and is the one place where errors
// are printed and turned into exit codes (0 ok, 1 run-time failure, 2 bad input).
#include <boost/program_options/errors.hpp>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/close_names.hpp"
#include "sim/error.hpp"

namespace ridge::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"analyze", run_analyze, "per-layer params, MACs, FLOPs, bytes (and times with --hw)"},
      {"list", run_list, "list models"},
      {"plot", run_plot, "roofline, per-layer and sweep plots with gnuplot (png, svg, pdf, tex)"},
  };
  return table;
}

namespace {

void print_help() {
  std::cout << "ridge " RIDGE_VERSION " - analytic roofline performance simulator for deep-learning workloads\n\n"
               "usage: ridge COMMAND [options]    (ridge COMMAND --help for its options)\n\ncommands:\n";
  for (const Command& c : commands()) std::cout << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.synopsis << '\n';
  std::cout << "\nexamples:\n  ridge analyze alexnet\n  ridge analyze resnet50 --batch 64 --dtype fp16 --format json\n";
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_help();
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_help();
    return 0;
  }
  if (name == "--version" || name == "-V") {
    std::cout << "ridge " RIDGE_VERSION "\n";
    return 0;
  }
  Args args(argv + 2, argv + argc);
  std::vector<std::string> names;
  for (const Command& c : commands()) {
    if (name == c.name) return c.run(args);
    names.push_back(c.name);
  }
  throw InputError({}, "unknown command '" + name + "'", suggestion_hint(name, names) + " (ridge --help)");
}

}  // namespace
}  // namespace ridge::cli

int main(int argc, char** argv) {
  using namespace ridge;
  try {
    return cli::dispatch(argc, argv);
  } catch (const InputError& e) {
    std::cerr << format_error(e) << '\n';
    return 2;
  } catch (const boost::program_options::error& e) {
    std::cerr << "error: " << e.what() << "\nhint: ridge --help\n";
    return 2;
  } catch (const RunError& e) {
    std::cerr << format_error(e) << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: internal: " << e.what() << '\n';
    return 1;
  }
}
