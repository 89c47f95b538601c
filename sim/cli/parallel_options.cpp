// Parallel-plan options (see parallel_options.hpp).
#include "sim/cli/parallel_options.hpp"

#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/parallel/data_parallel.hpp"
#include "sim/parallel/plan_check.hpp"
#include "sim/parallel/system_reader.hpp"
#include "sim/views/parallel_report.hpp"

namespace ridge::cli {

po::options_description parallel_option_group(ParallelOptionValues& v) {
  po::options_description g("Parallel training options (tp and pp: a transformer with [params] layers, hidden, heads, seq, tp; dp: any model)");
  g.add_options()
      ("parallel", po::value(&v.parallel), "tp=T,pp=P,dp=D[,cp=C][,ep=E]: tensor, pipeline, data, context and expert parallel degrees")
      ("system", po::value(&v.system), "system descriptor name (ridge list systems) or file; default dgx-a100")
      ("gpus", po::value(&v.gpus), "devices the run takes (must equal tp x pp x dp x cp)")
      ("sequence-parallel", po::bool_switch(&v.sequence_parallel), "shard norms and dropouts along the sequence across tp")
      ("global-batch", po::value(&v.global_batch), "sequences per iteration (default microbatch x dp)")
      ("microbatch", po::value(&v.microbatch)->default_value(v.microbatch), "sequences per microbatch")
      ("zero", po::value(&v.zero)->default_value(v.zero), "0 | 1 (optimizer state) | 2 (+ gradients) | 3 (+ weights, FSDP) sharded over dp")
      ("recompute", po::value(&v.recompute)->default_value(v.recompute), "none | selective (attention core) | full (every layer)")
      ("interleave", po::value(&v.interleave)->default_value(v.interleave), "virtual pipeline stages per device (interleaved 1F1B)")
      ("no-overlap", po::bool_switch(&v.no_overlap), "data-parallel communication does not overlap the backward pass")
      ("expert-imbalance", po::value(&v.expert_imbalance)->default_value(v.expert_imbalance, "1"),
       "F: the busiest expert-parallel rank's routed tokens over the mean (1: uniform routing); scales its expert "
       "GEMMs and all-to-all bytes");
  return g;
}

bool wants_parallel(const ParallelOptionValues& v) { return !v.parallel.empty() || !v.system.empty(); }

void refuse_plan_options(const po::variables_map& given) {
  for (const char* option : {"gpus", "sequence-parallel", "global-batch", "microbatch", "zero", "recompute", "interleave",
                             "no-overlap", "expert-imbalance"})
    if (given.count(option) && !given[option].defaulted())
      throw InputError({}, std::string("--") + option + " applies to a parallel training plan (--parallel)",
                       std::string("add --parallel tp=T,pp=P,dp=D, or drop --") + option);
}

ParallelPlan to_parallel_plan(const ParallelOptionValues& v) {
  ParallelPlan p;
  if (v.parallel.empty()) throw InputError({}, "--system needs --parallel", "e.g. --parallel tp=8,pp=1,dp=1");
  parse_parallel_degrees(v.parallel, p);
  p.sequence_parallel = v.sequence_parallel;
  if (v.global_batch && *v.global_batch < 1)
    throw InputError({}, "--global-batch must be a positive number of sequences (got " + std::to_string(*v.global_batch) + ")",
                     "leave it out for microbatch x dp");
  p.global_batch = v.global_batch.value_or(0);  // 0: the plan's microbatch x dp
  p.microbatch = v.microbatch;
  p.zero = v.zero;
  auto r = parse_recompute(v.recompute);
  if (!r) throw InputError({}, "--recompute: unknown policy '" + v.recompute + "'", "use none, selective or full");
  p.recompute = *r;
  p.interleave = v.interleave;
  p.overlap = !v.no_overlap;
  p.expert_imbalance = v.expert_imbalance;
  if (v.gpus && *v.gpus != p.devices())
    throw InputError({}, "--gpus " + std::to_string(*v.gpus) + " is not tp x pp x dp x cp = " + std::to_string(p.devices()),
                     "make the degrees multiply to the device count");
  return p;
}

SystemSpec plan_system(const ParallelOptionValues& v, const HardwareOptionValues& hw) {
  if (!hw.hw.empty()) throw InputError({}, "--hw does not go with --parallel", "the device comes from --system's descriptor");
  for (const std::string& set : hw.sets)
    if (set.rfind("model.", 0) != 0)
      throw InputError({}, "--set " + set + ": with --parallel only model.NAME=VALUE applies", "the system descriptor sets the device");
  if (hw.efficiency != "calibrated" && hw.efficiency != "none")
    throw InputError({}, "--efficiency: unknown choice '" + hw.efficiency + "'", "use calibrated or none");
  return load_system(v.system.empty() ? "dgx-a100" : v.system, hw.efficiency == "none");
}

namespace {

bool option_given(const po::variables_map& given, const char* option) {
  return given.count(option) && !given[option].defaulted();
}

}  // namespace

ParallelPlan data_parallel_plan(const std::string& model, const ParallelOptionValues& v, const po::variables_map& given) {
  ParallelPlan plan = to_parallel_plan(v);
  if (plan.tp > 1 || plan.pp > 1 || plan.ep > 1 || plan.cp > 1)
    throw InputError({}, "--parallel " + v.parallel + ": model '" + model + "' has no [params] layers, hidden, heads, seq and tp to shard, so only data parallelism applies",
                     "use --parallel dp=N (tp, pp, cp and ep shard a transformer written with [params] layers, hidden, heads, seq and tp)");
  for (const char* option : {"sequence-parallel", "microbatch", "zero", "recompute", "interleave", "expert-imbalance", "batch", "phase", "seq",
                             "context", "kv-dtype", "weight-dtype", "data-on", "overhead", "checkpoint", "hw-model", "columns"})
    if (option_given(given, option))
      throw InputError({}, std::string("--") + option + " does not apply to data parallelism of model '" + model + "'",
                       "each replica runs one training step at --global-batch / dp samples; --dtype, --precision and "
                       "--optimizer set it");
  return plan;
}

namespace {

// A model that is not a transformer: data parallelism only (data_parallel.hpp).
int write_data_parallel(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw,
                        const RunOptionValues& run, const OutputOptionValues& out, const po::variables_map& given) {
  ParallelPlan plan = data_parallel_plan(model, v, given);
  OutputFormat format = to_output_format(out, {OutputFormat::table, OutputFormat::json});
  SystemSpec system = plan_system(v, hw);
  RunOptionValues step = run;
  step.phase = "training";  // each replica runs a training step, so --optimizer applies to it
  DataParallelEstimate e = estimate_data_parallel(model, model_overrides(hw), system, plan.dp, plan.batch(),
                                                  to_run_settings(step), plan.overlap);
  write_output(out.output, [&](std::ostream& os) { write_data_parallel_estimate(e, format, os); });
  return 0;
}

}  // namespace

ParallelPlanRun run_parallel_plan(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw) {
  ParallelPlan plan = to_parallel_plan(v);
  SystemSpec system = plan_system(v, hw);
  std::vector<ParamOverride> overrides = model_overrides(hw);
  TransformerParams shape = transformer_params(model, overrides);
  check_plan(plan, shape, system, model);
  const HardwareModel& hw_model = select_hardware_model(system.device, "");
  ShardedLayers layers = time_sharded_layers(model, overrides, shape, plan.tp, plan.cp, plan.microbatch, system.device, hw_model);
  ShardedLayers unsharded = time_sharded_layers(model, overrides, shape, 1, 1, plan.microbatch, system.device, hw_model);
  TrainingEstimate e = estimate_training(model, system, plan, shape, layers, unsharded);
  return {std::move(e), std::move(layers)};
}

void reject_single_device_options(const po::variables_map& given) {
  for (const char* option : {"batch", "dtype", "phase", "optimizer", "precision", "seq", "context", "kv-dtype",
                             "weight-dtype", "data-on", "overhead", "checkpoint", "hw-model", "columns"})
    if (given.count(option) && !given[option].defaulted())
      throw InputError({}, std::string("--") + option + " does not apply to a parallel plan",
                       "a plan trains in bf16 (fp16 on a device without bf16) mixed precision with Adam; its batch is --global-batch and --microbatch");
}

int write_parallel_plan(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw,
                        const RunOptionValues& run, const OutputOptionValues& out, const po::variables_map& given) {
  if (!is_transformer(load_model(model, model_overrides(hw)))) return write_data_parallel(model, v, hw, run, out, given);
  reject_single_device_options(given);
  OutputFormat format = to_output_format(out, {OutputFormat::table, OutputFormat::csv, OutputFormat::json});
  TrainingEstimate estimate = run_parallel_plan(model, v, hw).estimate;
  write_output(out.output, [&](std::ostream& os) { write_training_estimate(estimate, format, os); });
  return 0;
}

}  // namespace ridge::cli
