// `ridge generate MODEL --hw HW --prompt P --gen G --batch B`: time to first token,
// time per output token, total latency and tokens/s of generating G tokens after a
// P-token prompt, as sentences or JSON; with --parallel tp=T,pp=P on a --system, one
// device's share of a tensor- and pipeline-parallel run and its communication.
#include <iostream>
#include <string>
#include <utility>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/fit_check.hpp"
#include "sim/cli/run_options.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/generation.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/parallel/parallel_plan.hpp"
#include "sim/parallel/plan_check.hpp"
#include "sim/parallel/serving_communication.hpp"
#include "sim/parallel/system_reader.hpp"
#include "sim/views/generate_report.hpp"
#include "sim/views/json_record.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::json, OutputFormat::csv};

const CommandHelp kHelp = {
    "ridge generate MODEL --hw HW --prompt P --gen G [--batch B] [options]",
    "Times generating G tokens per sequence after a P-token prompt, B sequences at once: the prefill of the\n"
    "prompt gives the first token (time to first token), then one decode step per further token, each attending\n"
    "to a KV cache one token longer. Reports the time per output token (the mean over the decode steps, summed\n"
    "exactly, and the step at the mean context), total latency, tokens/s and the share of the time that is\n"
    "memory-bound. The model must have attention layers. --format csv writes the JSON's keys as one record.",
    {"ridge generate llama-2-7b --hw a100 --dtype fp16 --prompt 512 --gen 256",
     "ridge generate llama-3-8b --hw h100 --dtype fp16 --prompt 2048 --gen 512 --batch 32 --kv-dtype fp8",
     "ridge generate mistral-7b --hw l4 --dtype fp16 --weight-dtype int4 --prompt 128 --gen 128 --overhead graph",
     "ridge generate llama-2-70b --system dgx-h100 --parallel tp=4 --prompt 1024 --gen 256"}};

// The plan's tp, pp and ep, checked against the model's heads, layers and experts and
// the system's devices (check_plan). Serving is one replica: dp must be 1, or equal ep
// (each ep rank runs the attention of its own batch and holds experts / ep); cp is a
// training split; tp with ep is not modelled (Megatron-LM needs sequence parallelism for
// it, which a decode step of a few tokens cannot split).
ParallelPlan serving_plan(const std::string& text, boost::optional<int64_t> gpus, double expert_imbalance,
                          const TransformerParams& shape, const SystemSpec& system, const std::string& model) {
  ParallelPlan p;
  parse_parallel_degrees(text, p);
  p.expert_imbalance = expert_imbalance;  // checked by check_plan, as analyze's and plan's
  if (p.cp != 1)
    throw InputError({}, "--parallel " + text + ": generate does not split the sequence, so cp must be 1",
                     "context parallelism is a training plan's (ridge analyze --parallel ...,cp=C)");
  if (p.ep == 1 && p.dp != 1)
    throw InputError({}, "--parallel " + text + ": generate serves one replica, so dp must be 1",
                     "e.g. --parallel tp=4,pp=2; replicas multiply the tokens/s");
  if (p.ep > 1 && p.dp != p.ep)
    throw InputError({}, "--parallel " + text + ": with ep=" + std::to_string(p.ep) + " generate needs dp=" + std::to_string(p.ep) +
                             " (got dp=" + std::to_string(p.dp) + ")",
                     "each expert-parallel rank serves its own --batch (data-parallel attention), e.g. --parallel dp=8,ep=8");
  if (p.ep > 1 && p.tp > 1) {
    const std::string n = std::to_string(p.tp * p.ep), pp = p.pp > 1 ? ",pp=" + std::to_string(p.pp) : "";
    throw InputError({}, "--parallel " + text + ": tp with ep is not modelled for serving; generate serves tp=T[,pp=P] "
                         "(each rank a tp share of every expert) or dp=E,ep=E[,pp=P] (each rank experts / E, tp 1)",
                     "on the same " + n + " devices a stage: --parallel tp=" + n + pp + " or --parallel dp=" + n + ",ep=" + n + pp +
                         " where they divide the heads and experts; training plans combine tp and ep (ridge analyze " + model + " "
                         "--parallel " + text + " --sequence-parallel)");
  }
  check_device_count(gpus, p);
  check_plan(p, shape, system, model);
  return p;
}

// The footprint peaks at the prefill (the prompt's activations) or at the last decode
// step (the longest KV cache); a configuration that cannot hold either is refused.
void require_generation_fit(const Model& prefill_model, const Model& decode_model, const RunSettings& settings,
                            const GenerationRequest& req, const HardwareSpec& hw, const HardwareModel& model) {
  RunSettings last_step = settings;
  last_step.phase = Phase::decode;
  last_step.context = req.prompt + req.gen - 2;
  std::vector<StepToFit> steps = {{&prefill_model, settings}};
  if (req.gen > 1) steps.push_back({&decode_model, last_step});
  require_fit(steps, hw, model);
}

void write_generation(const Model& model, const RunSettings& settings, const HardwareSpec& hw, const GenerationResult& g,
                      const OutputOptionValues& out, OutputFormat format) {
  write_output(out.output, [&](std::ostream& os) {
    if (format == OutputFormat::json)
      write_json(os, generate_json(model, settings, hw, g));
    else if (format == OutputFormat::csv)
      write_csv(json_record_table(generate_json(model, settings, hw, g)), os);
    else
      os << generate_text(model, settings, hw, g);
  });
}

// One device of a tp x pp x ep serving plan: the model read with [params] tp (and ep)
// set (one rank's heads, KV heads, linear shards and experts), timed on the system's
// device at its own achievable roofs (serving_device: the system's [efficiency] is a
// training fit), plus the plan's all-reduces, sends and all-to-alls; the fit check holds
// one stage's layers (layers / pp).
int run_parallel_generate(const std::string& model_arg, const std::string& parallel, boost::optional<int64_t> gpus,
                          double expert_imbalance, const std::string& system_name, const HardwareOptionValues& hwo,
                          const RunSettings& settings, GenerationRequest req, const OutputOptionValues& out) {
  OutputFormat format = to_output_format(out, kFormats);
  SystemSpec system = plan_system(system_name, hwo);
  std::vector<ParamOverride> overrides = model_overrides(hwo);
  TransformerParams shape = transformer_params(model_arg, overrides);
  ParallelPlan plan = serving_plan(parallel, gpus, expert_imbalance, shape, system, model_arg);
  req.expert_load = plan.expert_imbalance;  // the device timed is the busiest expert rank
  std::vector<ParamOverride> rank = with_param(overrides, "tp", plan.tp);
  if (plan.ep > 1) rank = with_param(rank, "ep", plan.ep);
  Model prefill_model = load_model(model_arg, rank, {}, req.prompt);
  Model decode_model = load_model(model_arg, rank, {}, 1);
  const HardwareSpec& device = system.serving_device;
  const HardwareModel& hw_model = select_hardware_model(device, "");
  GenerationResult g = simulate_generation(prefill_model, decode_model, settings, req, device, hw_model);
  std::vector<ParamOverride> stage = with_param(rank, "layers", shape.layers / plan.pp);
  require_generation_fit(load_model(model_arg, stage, {}, req.prompt), load_model(model_arg, stage, {}, 1), settings, req,
                         device, hw_model);
  add_serving_communication(g, serving_communication(system, plan, shape, settings.batch, req.prompt,
                                                     static_cast<double>(dtype_bytes(settings.dtype))),
                            plan);
  write_generation(prefill_model, settings, device, g, out, format);
  return 0;
}
}  // namespace

int run_generate(const Args& args) {
  std::string model_arg;
  int64_t prompt = 0, gen = 0;
  bool quiet = false;
  RunOptionValues run;
  HardwareOptionValues hwo;
  OutputOptionValues out;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file")(
      "prompt", po::value(&prompt), "prompt tokens per sequence (prefilled in one step)")(
      "gen", po::value(&gen), "tokens generated per sequence (the first by prefill, the rest one decode step each)");
  add_quiet_option(general, quiet);
  po::options_description runs("Run options");
  runs.add_options()("batch,b", po::value(&run.batch)->default_value(run.batch), "sequences generated together")(
      "dtype,d", po::value(&run.dtype), "weights and activations: fp16 (default) | bf16 | fp32 | ...")(
      "kv-dtype", po::value(&run.kv_dtype), "the KV cache's type, fp8 | int8 | fp16 | bf16 | fp32 (default --dtype)")(
      "weight-dtype", po::value(&run.weight_dtype), "weight-only quantization of linear layers: int8 | int4 | fp8")(
      "overhead", po::value(&run.overhead)->default_value(run.overhead), "launch overhead: kernel | graph | none");
  weight_only_options(runs, run);
  std::string parallel, system_name;
  boost::optional<int64_t> gpus;
  double expert_imbalance = 1.0;
  po::options_description par("Parallel serving (a transformer with [params] layers, hidden, heads, tp)");
  par.add_options()("parallel", po::value(&parallel),
                    "tp=T,pp=P[,dp=E,ep=E]: tensor-, pipeline- and expert-parallel degrees (instead of --hw)")(
      "system", po::value(&system_name), "with --parallel: system descriptor (ridge list systems); default dgx-a100")(
      "gpus", po::value(&gpus), "with --parallel: devices the run takes (must equal tp x pp x dp)")(
      "expert-imbalance", po::value(&expert_imbalance)->default_value(expert_imbalance, "1"),
      "with ep > 1: F, the busiest expert-parallel rank's routed tokens over the mean (1: uniform routing); the rank "
      "timed is that one: F x its expert GEMMs and all-to-all bytes");
  po::options_description visible;
  visible.add(general).add(runs).add(par).add(hardware_option_group(hwo)).add(output_option_group(out, kFormats, false, false));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "generate: which model?", "ridge generate llama-2-7b --hw a100 --prompt 512 --gen 128");
  if ((!system_name.empty() || gpus) && parallel.empty())
    throw InputError({}, std::string(gpus ? "--gpus" : "--system") + " needs --parallel", "e.g. --parallel tp=4");
  if (!vm["expert-imbalance"].defaulted() && parallel.empty())
    throw InputError({}, "--expert-imbalance needs --parallel with ep > 1",
                     "e.g. --system dgx-h100 --parallel dp=8,ep=8 --expert-imbalance 1.5");
  if (!parallel.empty() && !hwo.hw.empty())
    throw InputError({}, "--hw does not go with --parallel", "the device comes from --system's descriptor");
  if (hwo.hw.empty() && parallel.empty()) throw InputError({}, "generate: which hardware? (--hw)", "ridge list hardware");
  for (const auto& [flag, tokens] : {std::pair<std::string, int64_t>{"prompt", prompt}, {"gen", gen}}) {
    if (!vm.count(flag))
      throw InputError({}, "generate: how many tokens? --" + flag + " is missing", "e.g. --prompt 512 --gen 128");
    if (tokens <= 0) throw InputError({}, "--" + flag + " must be a positive number of tokens (got " + std::to_string(tokens) + ")");
  }
  OutputFormat format = to_output_format(out, kFormats);

  run.phase = "prefill";  // validates batch, dtype and kv-dtype as a prefill run
  run.seq = prompt;
  RunSettings settings = to_run_settings(run);
  if (!parallel.empty())
    return run_parallel_generate(model_arg, parallel, gpus, expert_imbalance, system_name, hwo, settings, {prompt, gen}, out);
  SelectedHardware hw = *to_hardware(hwo);
  std::vector<ParamOverride> overrides = model_overrides(hwo);
  Model prefill_model = load_model(model_arg, overrides, to_onnx_options(run), prompt);
  Model decode_model = load_model(model_arg, overrides, to_onnx_options(run), 1);
  GenerationResult g;
  {
    ProgressLine progress(std::cerr, progress_wanted(quiet), "generate: timing the prefill and " + std::to_string(gen - 1) + " decode steps");
    g = simulate_generation(prefill_model, decode_model, settings, {prompt, gen}, hw.spec, *hw.model);
  }
  // After simulate_generation, which checks prompt + gen against max_positions. The
  // footprint peaks at the prefill (the prompt's activations) or at the last decode
  // step (the longest KV cache); a configuration that cannot hold either is refused.
  require_generation_fit(prefill_model, decode_model, settings, {prompt, gen}, hw.spec, *hw.model);
  write_generation(prefill_model, settings, hw.spec, g, out, format);
  return 0;
}

}  // namespace ridge::cli
