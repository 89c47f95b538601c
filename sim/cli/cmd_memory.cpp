// `ridge memory MODEL`: the memory one step needs (parameters, gradients, optimizer
// state, activations, workspace), its peak over the step, and with --hw whether it
// fits and the largest batch that does.
#include <iostream>
#include <optional>

#include "sim/cli/commands.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"
#include "sim/engine/memory_result.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/base/output_file.hpp"
#include "sim/views/memory_report.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::csv, OutputFormat::json, OutputFormat::md,
                                            OutputFormat::tex};

const CommandHelp kHelp = {
    "ridge memory MODEL [--batch N] [--optimizer ...] [--hw HW] [--checkpoint ...] [options]",
    "The device memory one step of MODEL needs, as model part + batch x per-sample part: weights, fp32 master\n"
    "weights (mixed precision), gradients and optimizer state, then activations and activation gradients followed\n"
    "through the step to its peak (named by layer and pass). With --hw: whether it fits the DRAM less a runtime\n"
    "reserve, and the largest batch that does. --checkpoint shows what activation checkpointing saves and what\n"
    "its recompute costs. The summary is the default; --timeline lists every layer's live memory.",
    {"ridge memory resnet50 --batch 64 --hw v100", "ridge memory gpt2 --dtype bf16 --precision mixed --checkpoint sqrt --hw a100",
     "ridge memory mlp --batch 256 --timeline --format csv"}};
}  // namespace

int run_memory(const Args& args) {
  std::string model_arg, checkpoint_arg = "none";
  HardwareOptionValues hwo;
  ParallelOptionValues par;
  double reserve_percent = kDefaultReserveFraction * 100;
  bool timeline = false;
  RunOptionValues run;
  run.phase = "training";
  OutputOptionValues out;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description memory("Memory options");
  memory.add_options()
      ("checkpoint", po::value(&checkpoint_arg)->default_value(checkpoint_arg),
       "training: none | sqrt (segments of ceil(sqrt(layers))) | every=N (segments of N layers)")
      ("reserve", po::value(&reserve_percent)->default_value(reserve_percent),
       "with --hw: percent of device DRAM kept back for the runtime (CUDA context, allocator fragmentation)")
      ("timeline", po::bool_switch(&timeline), "one row per layer: what it keeps and the live memory at its forward / recompute / backward");
  po::options_description visible;
  visible.add(general).add(run_option_group(run, false)).add(memory).add(hardware_option_group(hwo)).add(parallel_option_group(par)).add(output_option_group(out, kFormats, true));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "memory: which model?", "ridge memory mlp --batch 256 (ridge list models)");
  if (wants_parallel(par)) return write_parallel_plan(model_arg, par, hwo, run, out, vm);  // many devices
  refuse_plan_options(vm);

  // Decode without --context: the longest context the model takes (its max_positions - 1).
  const bool full_context = run.phase == "decode" && run.context == -1;
  if (full_context) run.context = 0;
  RunSettings settings = to_run_settings(run);
  OutputFormat format = to_output_format(out, kFormats);
  ColumnChoice columns = parse_column_choice(out.columns);
  auto checkpoint = parse_checkpoint(checkpoint_arg);
  if (!checkpoint)
    throw InputError({}, "--checkpoint: unknown policy '" + checkpoint_arg + "'", "use none, sqrt or every=N with N >= 1");
  if (checkpoint->kind != CheckpointPolicy::Kind::none && settings.phase != Phase::training)
    throw InputError({}, "--checkpoint " + checkpoint_arg + " applies to training only", "add --phase training");
  if (!(reserve_percent >= 0 && reserve_percent < 100))
    throw InputError({}, "--reserve must be a percentage in [0, 100) (got " + format_raw(reserve_percent) + ")");
  Model model = load_cli_model(model_arg, run, hwo, settings);
  if (full_context) {
    if (model.max_positions == 0)
      throw InputError({model.file}, "--phase decode: " + model.name + " states no max_positions, so the context must be given",
                       "add --context N (tokens already in the KV cache)");
    settings.context = model.max_positions - 1;
  }
  std::optional<SelectedHardware> hw = to_hardware(hwo);
  MemoryReport report = analyze_memory(model, settings, *checkpoint, hw ? &hw->spec : nullptr,
                                       hw ? hw->model : nullptr, reserve_percent / 100);
  write_output(out.output, [&](std::ostream& os) { write_memory(report, format, timeline, columns, os, out.csv); });
  return 0;
}

}  // namespace ridge::cli
