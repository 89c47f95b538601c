// The command table and `run_main`: dispatches to a subcommand and is the one place
// where errors are printed and turned into exit codes (0 ok, 1 run-time failure, 2 bad
// input). In the ridge_cli library, so the binary, the command-line fuzz target and the
// Python module all run the same commands.
#include <boost/program_options/errors.hpp>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"

namespace ridge::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"analyze", run_analyze, "per-layer params, MACs, FLOPs, bytes (and times with --hw)"},
      {"import", run_import, "an ONNX model as a readable ridge model file that analyses to the same numbers"},
      {"query", run_query, "why one layer is (or is not) bandwidth-limited, and what would flip it"},
      {"compare", run_compare, "one model on several devices side by side: speed, fit, energy, cost"},
      {"memory", run_memory, "training / inference memory: parts, peak, fit and largest batch with --hw"},
      {"generate", run_generate, "LLM text generation: time to first token, per output token, tokens/s"},
      {"plan", run_plan, "the fastest tensor / pipeline / data parallel plans that fit, for training on many GPUs"},
      {"sweep", run_sweep, "models x hardware x batch x dtype x phase x [[vary]] from a sweep file, in parallel"},
      {"plot", run_plot, "roofline, per-layer and sweep plots with gnuplot (png, svg, pdf, tex)"},
      {"calibrate", run_calibrate, "fit per-op-class efficiencies to measured layer times; write a calibrated descriptor"},
      {"probe", run_probe, "measure this host's peak FLOP/s and bandwidth per level; write its descriptor"},
      {"list", run_list, "list models | hardware | hw-models | systems"},
  };
  return table;
}

namespace {

void print_help(std::ostream& out) {
  out << "ridge " RIDGE_VERSION " - analytic roofline performance simulator for deep-learning workloads\n\n"
               "usage: ridge COMMAND [options]    (ridge COMMAND --help for its options)\n\ncommands:\n";
  for (const Command& c : commands()) out << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.synopsis << '\n';
  out << "\nexamples:\n"
         "  ridge analyze alexnet\n"
         "  ridge analyze resnet50 --hw a100 --batch 64 --dtype fp16\n"
         "  ridge query alexnet --hw v100 --layer conv1\n"
         "  ridge memory gpt2 --hw h100 --dtype bf16 --precision mixed\n"
         "  ridge sweep configs/sweeps/gpu-generations.toml --output gens.csv\n"
         "  ridge plot roofline alexnet --hw v100 --output alexnet-v100.png\n";
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_help(std::cerr);  // a usage error: help on stderr, exit 2
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_help(std::cout);
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

int run_main(int argc, char** argv) {
  try {
    int status = dispatch(argc, argv);
    check_stdout();  // `> /dev/full`: the report was lost, so the run failed
    return status;
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

}  // namespace ridge::cli

