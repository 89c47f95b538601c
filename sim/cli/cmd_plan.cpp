// `ridge plan MODEL --system S --gpus N --global-batch B`: the best parallel plans for
// training MODEL on N devices of S, and why the others fail.
#include <iostream>

#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/parallel/plan_search.hpp"
#include "sim/parallel/system_reader.hpp"
#include "sim/views/parallel_report.hpp"

namespace ridge::cli {

namespace {
const std::vector<OutputFormat> kFormats = {OutputFormat::table, OutputFormat::csv, OutputFormat::json};

const CommandHelp kHelp = {
    "ridge plan MODEL --system S --gpus N --global-batch B [--seq L] [--set model.NAME=V] [--expert-imbalance F]\n"
    "           [--top K] [--shard K/N]",
    "Searches every Megatron-LM style plan for training MODEL on N devices of system S: tensor, pipeline and\n"
    "data parallel degrees that multiply to N, sequence parallelism, ZeRO stage 0-3, recomputation none /\n"
    "selective / full, every microbatch that divides the batch and every interleave that divides a stage.\n"
    "Prints the K fastest that fit in device memory and how many fail (do not divide the model, do not fit).\n"
    "--shard K/N evaluates the K-th of N disjoint parts (plans numbered in a fixed order, those equal to K-1\n"
    "modulo N), so N jobs cover the search; merge their CSVs and sort by iteration_time_s.",
    {"ridge plan gpt3 --system dgx-a100 --gpus 1024 --global-batch 1536",
     "ridge plan gpt3 --system dgx-h100 --gpus 4096 --global-batch 2048 --format csv --shard 1/4",
     "ridge plan gpt3 --set model.layers=48 --set model.hidden=6144 --system dgx-a100 --gpus 64 --global-batch 512"}};

std::pair<int64_t, int64_t> parse_shard(const std::string& s) {
  size_t slash = s.find('/');
  try {
    if (slash != std::string::npos) {
      size_t a = 0, b = 0;
      int64_t k = std::stoll(s.substr(0, slash), &a), n = std::stoll(s.substr(slash + 1), &b);
      if (a == slash && b == s.size() - slash - 1 && n >= 1 && k >= 1 && k <= n) return {k, n};
    }
  } catch (const std::exception&) {
  }
  throw InputError({}, "--shard: '" + s + "' is not K/N with 1 <= K <= N", "e.g. --shard 2/8");
}
}  // namespace

int run_plan(const Args& args) {
  std::string model_arg, system_arg = "dgx-a100", shard = "1/1";
  int64_t gpus = 0, batch = 0, top = 10;  // gpus and batch: 0 (not given) is refused below
  boost::optional<int64_t> seq;           // not given: the model's [params] seq
  double imbalance = 1.0;                 // --expert-imbalance
  HardwareOptionValues model_sets;        // --set model.NAME=VALUE only: the system sets the device
  bool quiet = false;
  OutputOptionValues out;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file");
  po::options_description plan("Plan options");
  plan.add_options()
      ("system", po::value(&system_arg)->default_value(system_arg), "system descriptor (ridge list systems)")
      ("gpus", po::value(&gpus), "devices to plan for")
      ("global-batch", po::value(&batch), "sequences per iteration")
      ("seq", po::value(&seq), "tokens per sequence (the model's [params] seq; after any --set model.seq)")
      ("set", po::value(&model_sets.sets)->composing(), "model.NAME=VALUE: set one of the model's [params], e.g. "
                                                        "model.layers=48 (repeatable)")
      ("expert-imbalance", po::value(&imbalance)->default_value(imbalance, "1"),
       "F: a mixture of experts' busiest expert-parallel rank's routed tokens over the mean, in every plan with ep > 1 "
       "(1: uniform routing)")
      ("top", po::value(&top)->default_value(top), "how many of the best plans to show")
      ("shard", po::value(&shard)->default_value(shard), "K/N: evaluate only the K-th of N parts of the search");
  add_quiet_option(general, quiet);
  po::options_description visible;
  visible.add(general).add(plan).add(output_option_group(out, kFormats, false));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (model_arg.empty()) throw InputError({}, "plan: which model?", "ridge plan gpt3 --system dgx-a100 --gpus 64 --global-batch 64");
  if (gpus < 1) throw InputError({}, "plan: --gpus must be a positive device count", "e.g. --gpus 64");
  if (batch < 1) throw InputError({}, "plan: --global-batch must be a positive number of sequences", "e.g. --global-batch 512");
  if (top < 1) throw InputError({}, "plan: --top must be at least 1");
  if (seq && *seq < 1) throw InputError({}, "plan: --seq must be positive (got " + std::to_string(*seq) + ")");
  OutputFormat format = to_output_format(out, kFormats);
  SearchRequest r;
  r.model = model_arg;
  for (const std::string& set : model_sets.sets)
    if (!set.starts_with("model."))
      throw InputError({}, "plan: --set " + set + ": only model.NAME=VALUE applies",
                       "the system descriptor sets the device; --set model.layers=48 sets a model parameter");
  r.overrides = model_overrides(model_sets);
  if (seq) r.overrides.push_back({"seq", std::to_string(*seq), {}});
  r.devices = gpus;
  r.global_batch = batch;
  r.top = static_cast<size_t>(top);
  r.expert_imbalance = imbalance;
  std::tie(r.shard, r.shards) = parse_shard(shard);
  SystemSpec system = load_system(system_arg);
  if (gpus > system.total_devices())
    throw InputError({}, "plan: --gpus " + std::to_string(gpus) + " is more than the " +
                             std::to_string(system.total_devices()) + " devices of system '" + system.id + "'",
                     "ridge list systems");
  SearchResult result;
  {
    ProgressLine progress(std::cerr, progress_wanted(quiet), "plan: searching tensor x pipeline x data parallel plans");
    result = search_plans(r, system, select_hardware_model(system.device, ""));
  }
  write_output(out.output, [&](std::ostream& os) { write_plan_search(result, format, os); });
  return 0;
}

}  // namespace ridge::cli
