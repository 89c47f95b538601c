// `ridge analyze MODEL`: per-layer costs (and, with --hw, timings) as a table, CSV,
// Markdown, LaTeX or JSON.
#include <iostream>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/fit_check.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/result.hpp"
#include "sim/views/analyze_report.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::csv, OutputFormat::json, OutputFormat::md,
                                            OutputFormat::tex};

const CommandHelp kHelp = {
    "ridge analyze MODEL [options]",
    "Counts every layer of MODEL (a zoo name or a model file): parameters, MACs, FLOPs, the bytes of its input,\n"
    "output and weights, and its arithmetic intensity. With --hw it also times each layer on that hardware:\n"
    "compute and memory time, the bound (compute or memory:<level>), its share of the step, attained FLOP/s\n"
    "and the bandwidth it would need to stay compute-bound. The table shows a compact set of columns;\n"
    "--columns all (or a list of keys) shows more, and CSV and JSON carry every column.",
    {"ridge analyze alexnet", "ridge analyze resnet50 --hw a100 --batch 64 --dtype fp16",
     "ridge analyze gpt2 --hw h100 --columns name,time_s,bound,required_bandwidth_Bps --format csv"}};
}  // namespace

int run_analyze(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  OutputOptionValues out;
  HardwareOptionValues hwo;
  ParallelOptionValues par;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(parallel_option_group(par)).add(output_option_group(out, kFormats, true));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "analyze: which model?", "ridge analyze alexnet (ridge list models)");
  if (wants_parallel(par)) return write_parallel_plan(model_arg, par, hwo, run, out, vm);  // many devices

  RunSettings settings = to_run_settings(run);
  OutputFormat format = to_output_format(out, kFormats);
  ColumnChoice columns = parse_column_choice(out.columns);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  CostAnalysis costs = analyze_costs(model, settings);
  std::optional<SelectedHardware> hw = to_hardware(hwo);
  RunResult result = hw ? derive(model, costs, hw->spec, *hw->model) : derive(model, costs);
  if (hw) warn_unless_fits(model, settings, hw->spec, *hw->model);
  write_output(out.output, [&](std::ostream& os) { write_analyze(result, format, columns, os, out.csv); });
  return 0;
}

}  // namespace ridge::cli
