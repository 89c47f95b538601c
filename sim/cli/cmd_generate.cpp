// `ridge generate MODEL --hw HW --prompt P --gen G --batch B`: time to first token,
// time per output token, total latency and tokens/s of generating G tokens after a
// P-token prompt, as sentences or JSON.
#include <iostream>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/fit_check.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/generation.hpp"
#include "sim/views/generate_report.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::json};

const CommandHelp kHelp = {
    "ridge generate MODEL --hw HW --prompt P --gen G [--batch B] [options]",
    "Times generating G tokens per sequence after a P-token prompt, B sequences at once: the prefill of the\n"
    "prompt gives the first token (time to first token), then one decode step per further token, each attending\n"
    "to a KV cache one token longer. Reports the time per output token (the mean over the decode steps, summed\n"
    "exactly, and the step at the mean context), total latency, tokens/s and the share of the time that is\n"
    "memory-bound. The model must have attention layers.",
    {"ridge generate llama-2-7b --hw a100 --dtype fp16 --prompt 512 --gen 256",
     "ridge generate llama-3-8b --hw h100 --dtype fp16 --prompt 2048 --gen 512 --batch 32 --kv-dtype fp8",
     "ridge generate mistral-7b --hw l4 --dtype fp16 --weight-dtype int4 --prompt 128 --gen 128 --overhead graph"}};
}  // namespace

int run_generate(const Args& args) {
  std::string model_arg;
  boost::optional<int64_t> prompt, gen;
  RunOptionValues run;
  HardwareOptionValues hwo;
  OutputOptionValues out;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file")(
      "prompt", po::value(&prompt), "prompt tokens per sequence (prefilled in one step)")(
      "gen", po::value(&gen), "tokens generated per sequence (the first by prefill, the rest one decode step each)");
  po::options_description runs("Run options");
  runs.add_options()("batch,b", po::value(&run.batch)->default_value(run.batch), "sequences generated together")(
      "dtype,d", po::value(&run.dtype), "weights and activations: fp16 (default) | bf16 | fp32 | ...")(
      "kv-dtype", po::value(&run.kv_dtype), "the KV cache's type, fp8 | int8 | fp16 | bf16 | fp32 (default --dtype)")(
      "weight-dtype", po::value(&run.weight_dtype), "weight-only quantization of linear layers: int8 | int4 | fp8")(
      "overhead", po::value(&run.overhead)->default_value(run.overhead), "launch overhead: kernel | graph | none");
  weight_only_options(runs, run);
  po::options_description visible;
  visible.add(general).add(runs).add(hardware_option_group(hwo)).add(output_option_group(out, kFormats, false));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "generate: which model?", "ridge generate llama-2-7b --hw a100 --prompt 512 --gen 128");
  if (hwo.hw.empty()) throw InputError({}, "generate: which hardware? (--hw)", "ridge list hardware");
  auto got = [](const boost::optional<int64_t>& n) { return n ? "(got " + std::to_string(*n) + ")" : std::string("(not given)"); };
  if (!prompt || *prompt <= 0) throw InputError({}, "--prompt must be a positive number of tokens " + got(prompt), "e.g. --prompt 512");
  if (!gen || *gen <= 0) throw InputError({}, "--gen must be a positive number of tokens " + got(gen), "e.g. --gen 128");
  OutputFormat format = to_output_format(out, kFormats);

  run.phase = "prefill";  // validates batch, dtype and kv-dtype as a prefill run
  run.seq = *prompt;
  RunSettings settings = to_run_settings(run);
  SelectedHardware hw = *to_hardware(hwo);
  Model prefill_model = load_model(model_arg, *prompt);
  Model decode_model = load_model(model_arg, 1);
  GenerationResult g = simulate_generation(prefill_model, decode_model, settings, {*prompt, *gen}, hw.spec, *hw.model);
  // After simulate_generation, which checks prompt + gen against max_positions. The
  // footprint peaks at the prefill (the prompt's activations) or at the last decode
  // step (the longest KV cache); a configuration that cannot hold either is refused.
  RunSettings last_step = settings;
  last_step.phase = Phase::decode;
  last_step.context = *prompt + *gen - 2;
  std::vector<StepToFit> steps = {{&prefill_model, settings}};
  if (*gen > 1) steps.push_back({&decode_model, last_step});
  require_fit(steps, hw.spec, *hw.model);
  write_output(out.output, [&](std::ostream& os) {
    if (format == OutputFormat::json)
      write_json(os, generate_json(prefill_model, settings, hw.spec, g));
    else
      os << generate_text(prefill_model, settings, hw.spec, g);
  });
  return 0;
}

}  // namespace ridge::cli
