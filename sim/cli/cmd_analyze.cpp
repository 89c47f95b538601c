// `ridge analyze MODEL`: per-layer costs (and, with --hw, timings) as a table, CSV,
// Markdown or JSON.
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/base/output_file.hpp"
#include "sim/engine/timing_analysis.hpp"
#include "sim/views/analyze_report.hpp"

namespace ridge::cli {

int run_analyze(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  OutputOptionValues out;
  HardwareOptionValues hwo;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo)).add(output_option_group(out, "table | csv | json | md"));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const std::string usage = "ridge analyze MODEL [options]";
  if (!parse_command_line(args, visible, pos, vm, usage)) return 0;
  if (model_arg.empty()) throw InputError({}, "analyze: which model?", "ridge analyze alexnet (ridge list models)");

  RunSettings settings = to_run_settings(run);
  OutputFormat format = to_output_format(out);
  Model model = load_cli_model(model_arg, run, hwo);
  CostAnalysis costs = analyze_costs(model, settings);
  std::optional<SelectedHardware> hw = to_hardware(hwo);
  if (!hw) {
    write_output(out.output, [&](std::ostream& os) { write_analyze(model, costs, format, os); });
    return 0;
  }
  TimingAnalysis timing = analyze_timing(model, costs, hw->spec, *hw->model);
  TimedRun timed{hw->spec, timing};
  write_output(out.output, [&](std::ostream& os) { write_analyze(model, costs, format, os, &timed); });
  return 0;
}

}  // namespace ridge::cli
