// `ridge query MODEL --hw HW [--layer NAME]`: is this layer (without --layer: the model
// as a whole) bandwidth-limited, where, and what would flip it; plain sentences or JSON.
// With --parallel: where a training iteration's time goes and whether its costliest
// collective is link-limited.
#include <iostream>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/fit_check.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/layer_query.hpp"
#include "sim/engine/model_query.hpp"
#include "sim/views/model_query_report.hpp"
#include "sim/views/parallel_query_report.hpp"
#include "sim/views/json_record.hpp"
#include "sim/views/query_report.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::json, OutputFormat::csv};

const CommandHelp kHelp = {
    "ridge query MODEL --hw HW [--layer NAME] [options]",
    "Answers, in a few sentences, whether one layer is bandwidth-limited on the hardware and at which memory\n"
    "level: the bandwidth it needs against what the level gives (per stream and in total), its arithmetic\n"
    "intensity against the ridge point, and what would flip it: the batch at which it turns compute-bound, or\n"
    "why no batch does. --format json gives the same numbers under the keys `analyze --format json` uses, and\n"
    "--format csv the same as one record (nested keys joined with dots).\n"
    "Without --layer it answers for the model as a whole (\"is decode bandwidth-limited?\"): the share of the\n"
    "step memory-bound, compute-bound and bound by launches, the bytes per token split into weights, KV cache\n"
    "and activations, the KV cache stream, the bandwidth each level delivers over the step against its peak,\n"
    "and the batch at which the largest linear layer turns compute-bound.",
    {"ridge query alexnet --hw v100 --layer conv1", "ridge query alexnet --hw v100 --layer fc6 --batch 64",
     "ridge query bert-base --hw a100 --layer encoder.0.attn --dtype fp16 --format json",
     "ridge query llama-2-7b --hw a100 --dtype fp16 --phase decode --context 1024",
     "ridge query llama-2-7b --hw a100 --dtype fp16 --phase decode --context 1024 --layer layers.0.attn",
     "ridge query llama-2-7b --hw a100 --dtype fp16 --phase decode --context 1024 --layer layers.0.down_proj",
     "ridge query gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=4 --global-batch 256"}};

// The answer as JSON, one CSV record or sentences, as --format says; `json` and `text` make each.
template <class MakeJson, class MakeText>
int answer(const OutputOptionValues& out, OutputFormat format, MakeJson json, MakeText text) {
  write_output(out.output, [&](std::ostream& os) {
    if (format == OutputFormat::json)
      write_json(os, json());
    else if (format == OutputFormat::csv)
      write_csv(json_record_table(json()), os);
    else
      os << text();
  });
  return 0;
}
}  // namespace

int run_query(const Args& args) {
  std::string model_arg, layer;
  RunOptionValues run;
  HardwareOptionValues hwo;
  OutputOptionValues out;
  ParallelOptionValues pv;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file")(
      "layer,l", po::value(&layer), "the layer to explain (ridge analyze MODEL lists them); without it, the model as a whole");
  po::options_description visible;
  visible.add(general).add(hardware_option_group(hwo)).add(run_option_group(run)).add(parallel_option_group(pv)).add(
      output_option_group(out, kFormats, false, false));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "query: which model?", "ridge query alexnet --hw v100 --layer conv1");
  OutputFormat format = to_output_format(out, kFormats);
  if (wants_parallel(pv)) {
    if (!layer.empty())
      throw InputError({}, "--layer does not go with --parallel", "query --parallel answers for the training iteration");
    reject_single_device_options(vm);
    TrainingEstimate e = run_parallel_plan(model_arg, pv, hwo).estimate;
    return answer(out, format, [&] { return parallel_query_json(e); }, [&] { return parallel_query_text(e); });
  }
  refuse_plan_options(vm);
  if (hwo.hw.empty()) throw InputError({}, "query: which hardware? (--hw)", "ridge list hardware");

  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo, settings);
  SelectedHardware hw = *to_hardware(hwo);
  warn_unless_fits(model, settings, hw.spec, *hw.model);
  if (layer.empty()) {
    ModelQuery m = query_model(model, settings, hw.spec, *hw.model);
    return answer(out, format, [&] { return model_query_json(m); }, [&] { return model_query_text(m); });
  }
  LayerQuery q = query_layer(model, settings, hw.spec, *hw.model, layer);
  return answer(out, format, [&] { return query_json(q, hw.spec); }, [&] { return query_text(q, hw.spec); });
}

}  // namespace ridge::cli
