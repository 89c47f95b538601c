// Parsing `ridge analyze`'s options and deriving its run (see analyze_request.hpp).
#include "sim/cli/analyze_request.hpp"

#include "sim/base/error.hpp"
#include "sim/cli/fit_check.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge::cli {

namespace {
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

const std::vector<OutputFormat>& analyze_formats() {
  static const std::vector<OutputFormat> formats = {OutputFormat::table, OutputFormat::csv, OutputFormat::json,
                                                    OutputFormat::md, OutputFormat::tex};
  return formats;
}

AnalyzeParser::AnalyzeParser() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&bound_.model_arg), "zoo name or model file");
  visible_.add(general).add(run_option_group(bound_.run)).add(hardware_option_group(bound_.hw))
      .add(parallel_option_group(bound_.par)).add(output_option_group(bound_.out, analyze_formats(), true));
}

bool AnalyzeParser::parse(const Args& args, AnalyzeRequest& request) {
  bound_ = AnalyzeRequest{};  // the defaults again: an option not given leaves its value as it is
  po::positional_options_description pos;
  pos.add("model", 1);
  if (!parse_command_line(args, visible_, pos, bound_.given, kHelp)) return false;
  if (bound_.model_arg.empty()) throw InputError({}, "analyze: which model?", "ridge analyze alexnet (ridge list models)");
  request = bound_;
  return true;
}

RunResult analyze_run(const AnalyzeRequest& r, RunSettings settings, const Loaders& loaders) {
  std::shared_ptr<const Model> model = load_cli_model(r.model_arg, r.run, r.hw, settings, loaders);
  CostAnalysis costs = analyze_costs(*model, settings);
  std::optional<SelectedHardware> hw = to_hardware(r.hw, loaders);
  RunResult result = hw ? derive(*model, costs, hw->spec, *hw->model) : derive(*model, costs);
  if (hw) warn_unless_fits(*model, settings, hw->spec, *hw->model);
  return result;
}

}  // namespace ridge::cli
