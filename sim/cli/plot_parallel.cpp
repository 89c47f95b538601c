// One device's work and its plan's collectives, for the plots (see plot_parallel.hpp).
#include "sim/cli/plot_parallel.hpp"

#include "hw/model_registry.hpp"
#include "plots/plot_text.hpp"
#include "sim/engine/result.hpp"
#include "sim/parallel/collective_intensity.hpp"
#include "sim/parallel/data_parallel.hpp"
#include "sim/parallel/rank_layers.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

namespace {

std::vector<ParamOverride> with_param(std::vector<ParamOverride> o, const char* name, int64_t v) {
  o.push_back({name, std::to_string(v), {}});
  return o;
}

// The rows as one microbatch sees them, and the link levels they cross.
void add_collectives(ParallelPlot& p, const SystemSpec& system, const std::vector<CollectiveRow>& rows, double microbatches,
                     double element_bytes) {
  bool up = false, out = false;
  for (const CollectiveRow& r : rows) {
    const double per_microbatch = r.count / microbatches;
    p.collectives.push_back({r.group + " " + std::string(collective_op_name(r.cost.op)) + " " + r.when, r.cost.link,
                             r.total_s() / microbatches, collective_flops(r.cost, element_bytes) * per_microbatch,
                             collective_link_bytes(r.cost) * per_microbatch});
    up |= r.cost.link.find("scale_up") != std::string::npos;
    out |= r.cost.link.find("scale_out") != std::string::npos;
  }
  auto roof = [](const NetworkLevel& l, const std::string& role) {
    return plots::LinkRoof{l.name + " " + plots::si_label(l.achievable_Bps(), "B/s"), l.achievable_Bps(), role};
  };
  if (up) p.link_roofs.push_back(roof(system.scale_up, "scale-up"));
  if (out) p.link_roofs.push_back(roof(system.scale_out, "scale-out"));
}

}  // namespace

ParallelPlot parallel_plot(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw,
                           const RunOptionValues& run, const po::variables_map& given) {
  const std::vector<ParamOverride> overrides = model_overrides(hw);
  ParallelPlot p;
  if (!is_transformer(load_model(model, overrides))) {
    ParallelPlan plan = data_parallel_plan(model, v, given);
    SystemSpec system = plan_system(v, hw);
    RunOptionValues step = run;
    step.phase = "training";  // each replica runs a training step
    DataParallelEstimate e = estimate_data_parallel(model, overrides, system, plan.dp, plan.batch(), to_run_settings(step), plan.overlap);
    p.settings = e.settings;
    p.model = load_model(model, overrides, to_onnx_options(run), p.settings.tokens_per_step());
    p.plan = "dp" + std::to_string(plan.dp);
    add_collectives(p, system, e.collectives, 1, byte_sizes(p.settings).gradient);
    p.run.hw = system.device;
  } else {
    reject_single_device_options(given);
    ParallelPlanRun run = run_parallel_plan(model, v, hw);
    const TrainingEstimate& e = run.estimate;
    SystemSpec system = plan_system(v, hw);
    p.settings = training_microbatch(e.plan.microbatch, system.device);
    p.model = load_model(model, with_param(with_param(overrides, "tp", e.plan.tp), "layers", e.shape.layers / e.plan.pp));
    p.plan = plan_label(e.plan);
    add_collectives(p, system, e.collectives, static_cast<double>(e.microbatches), 2);  // 16-bit activations and gradients
    p.run.hw = system.device;
    p.iteration = iteration_parts(e, run.layers, system);
    p.microbatches = e.microbatches;
  }
  p.run.timing = derive(p.model, analyze_costs(p.model, p.settings), p.run.hw, select_hardware_model(p.run.hw, ""));
  return p;
}

}  // namespace ridge::cli
