// Data-parallel training of any model (see data_parallel.hpp for the rule).
#include "sim/parallel/data_parallel.hpp"

#include <algorithm>

#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/engine/result.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {

DataParallelEstimate estimate_data_parallel(const std::string& model, const std::vector<ParamOverride>& overrides,
                                            const SystemSpec& system, int64_t dp, int64_t global_batch,
                                            RunSettings settings, bool overlap) {
  if (global_batch <= 0 || global_batch % dp != 0)
    throw InputError({}, "--global-batch " + std::to_string(global_batch) + " is not a positive multiple of dp=" + std::to_string(dp),
                     "each data-parallel replica takes global batch / dp samples");
  if (dp > system.total_devices())
    throw InputError({}, "dp=" + std::to_string(dp) + " needs more devices than " + system.id + " has (" +
                             std::to_string(system.total_devices()) + ")",
                     "lower dp or pick a larger system (ridge list systems)");
  DataParallelEstimate e;
  e.model = model;
  e.system = system.id;
  e.dp = dp;
  e.global_batch = global_batch;
  e.overlap = overlap;
  settings.phase = Phase::training;
  settings.batch = global_batch / dp;
  e.settings = settings;

  Model m = load_model(model, overrides);
  const HardwareModel& hw_model = select_hardware_model(system.device, "");
  CostAnalysis costs = analyze_costs(m, settings);
  RunResult step = derive(m, costs, system.device, hw_model);
  e.step_s = step.totals.timing.time_s;
  for (size_t i = 0; i < m.layers.size(); ++i)
    e.backward_s += time_forward_backward(m.layers[i], costs.layers[i], system.device, hw_model, settings.dtype).second;
  e.params = step.totals.cost.params;
  e.gradient_bytes = static_cast<double>(e.params) * byte_sizes(settings).gradient;
  double exposed = 0;
  if (dp > 1) {
    e.collectives.push_back(
        {"dp", "step", collective_cost(system, CollectiveOp::all_reduce, e.gradient_bytes, place_group(system, dp, 1)), 1});
    exposed = e.collectives.back().total_s();
  }
  e.exposed_s = std::max(0.0, exposed - (overlap ? e.backward_s : 0));
  e.iteration_time_s = e.step_s + e.exposed_s;
  e.samples_per_s = static_cast<double>(global_batch) / e.iteration_time_s;
  e.model_flops = static_cast<double>(step.totals.cost.flops + step.totals.cost.backward_flops) * static_cast<double>(dp);
  auto peak = system.device.peak_flops.find(settings.dtype);
  if (peak != system.device.peak_flops.end())
    e.mfu = e.model_flops / (e.iteration_time_s * static_cast<double>(dp) * peak->second);

  MemoryFootprint fp = memory_footprint(m, settings, CheckpointPolicy{});
  e.memory_bytes = static_cast<double>(fp.peak_bytes());
  e.capacity_bytes = static_cast<double>(usable_capacity(system.device, kDefaultReserveFraction));
  e.fits = e.memory_bytes <= e.capacity_bytes;
  return e;
}

}  // namespace ridge
