// `ridge compare MODEL --hw A --hw B ...`: one run timed on several devices, side by
// side, with energy and cost per sample and ratios against the first device.
#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/compare_options.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/device_comparison.hpp"
#include "sim/views/compare_report.hpp"
#include "sim/workload/shape.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::csv, OutputFormat::json, OutputFormat::md,
                                            OutputFormat::tex};

const CommandHelp kHelp = {
    "ridge compare MODEL --hw A --hw B [--hw C ...] [options]",
    "Times MODEL on every device named by --hw and puts them side by side: time per step, samples/s (tokens/s\n"
    "for prefill and decode), whether the step fits and the largest batch that does, how the step splits\n"
    "between compute-, memory- and launch-bound layers, energy per sample and average power (from the\n"
    "descriptors' [power]), cost per hour and samples per dollar (from their [price]), ratios against the\n"
    "first device, and the layers whose bound differs. Cost is the launch price amortised over --years of\n"
    "full use plus electricity at --usd-per-kwh, or with --price-basis cloud the cloud on-demand price. With\n"
    "--epochs and --dataset-size (or --train-tokens) it adds the hours and the cost of the whole training run.",
    {"ridge compare resnet50 --hw gtx1080ti --hw titan-x-pascal --hw k80 --phase training --batch 64",
     "ridge compare resnet50 --hw a100 --hw h100 --phase training --batch 256 --epochs 90 --dataset-size 1281167 --price-basis cloud",
     "ridge compare llama-2-7b --hw a100 --hw h100 --phase decode --batch 1 --context 512 --price-basis cloud",
     "ridge compare bert-base --hw t4 --hw l4 --hw a10 --dtype fp16 --batch 32 --format json"}};

// --epochs with --dataset-size, or --train-tokens (a language model's tokens / its input
// length per sample); nothing when neither is given.
std::optional<TrainingRun> to_training_run(double epochs, int64_t dataset_size, double train_tokens, const Model& model,
                                           const RunSettings& settings) {
  const bool by_epochs = epochs != 0 || dataset_size != 0;
  if (!by_epochs && train_tokens == 0) return std::nullopt;
  if (by_epochs && train_tokens != 0)
    throw InputError({}, "--train-tokens and --epochs / --dataset-size both describe the run", "give one of the two");
  const bool valid = epochs >= 0 && epochs <= 1e9 && dataset_size >= 0 && train_tokens >= 0 && train_tokens <= 1e18 &&
                     (!by_epochs || (epochs > 0 && dataset_size > 0));
  if (!valid)
    throw InputError({}, "a training run needs --epochs > 0 with --dataset-size > 0, or --train-tokens > 0",
                     "e.g. --epochs 90 --dataset-size 1281167 (ImageNet-1k)");
  if (settings.phase != Phase::training)
    throw InputError({}, "a training run's cost needs --phase training", "add --phase training");
  if (by_epochs)
    return TrainingRun{epochs * static_cast<double>(dataset_size),
                       format_raw(epochs) + " epoch(s) of " + std::to_string(dataset_size) + " samples"};
  if (model.max_positions == 0)
    throw InputError({}, "--train-tokens needs a language model (one whose file states max_positions)",
                     "for other models give --epochs and --dataset-size");
  const double per_sample = static_cast<double>(element_count(model.input));
  return TrainingRun{train_tokens / per_sample, format_raw(train_tokens) + " tokens, " + format_raw(per_sample) + " per sample"};
}

}  // namespace

int run_compare(const Args& args) {
  std::string model_arg;
  RunOptionValues run;
  OutputOptionValues out;
  HardwareOptionValues hwo;
  CostOptionValues cost_values;
  double epochs = 0;
  int64_t dataset_size = 0;
  double train_tokens = 0;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description cost = cost_option_group(cost_values);
  cost.add_options()
      ("epochs", po::value(&epochs), "training run: epochs over --dataset-size samples (adds its hours and cost)")
      ("dataset-size", po::value(&dataset_size), "training run: samples per epoch")
      ("train-tokens", po::value(&train_tokens), "training run of a language model: tokens in all (/ its input length per sample)");
  po::options_description visible;
  visible.add(general).add(run_option_group(run)).add(hardware_option_group(hwo, "; repeat for each device to compare")).add(cost).add(output_option_group(out, kFormats, false));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "compare: which model?", "ridge compare resnet50 --hw v100 --hw a100");
  if (hwo.hw.empty()) throw InputError({}, "compare: which devices?", "name each with --hw, e.g. --hw v100 --hw a100");

  RunSettings settings = to_run_settings(run);
  OutputFormat format = to_output_format(out, kFormats);
  CostBasis cost_basis = to_cost_basis(cost_values);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  std::optional<TrainingRun> training_run = to_training_run(epochs, dataset_size, train_tokens, model, settings);
  ComparisonResult result = compare_on_hardware(model, settings, hwo, cost_basis, training_run);
  write_output(out.output, [&](std::ostream& os) { write_compare(result, format, os); });
  return 0;
}

}  // namespace ridge::cli
