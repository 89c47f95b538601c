// Parallel sweeps (see parallel_sweep.hpp).
#include "sim/parallel/parallel_sweep.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/parallel/plan_check.hpp"
#include "sim/parallel/system_reader.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {

namespace {

// An integer plan value in [lo, hi]; anything else is an InputError where it was written.
int64_t integer_value(const SweepItem& v, const std::string& key, int64_t lo, int64_t hi) {
  int64_t n = 0;
  const char* end = v.text.data() + v.text.size();
  auto [ptr, ec] = std::from_chars(v.text.data(), end, n);
  if (ec != std::errc() || ptr != end || n < lo || n > hi)
    throw InputError(v.where, "sweep: parallel." + key + " must be an integer from " + std::to_string(lo) +
                                  (hi == INT64_MAX ? " up" : " to " + std::to_string(hi)) + " (got '" + v.text + "')");
  return n;
}

// A routing imbalance: a number of at least 1 (plan_check bounds it by what routing allows).
double imbalance_value(const SweepItem& v, const std::string& key) {
  double x = 0;
  const char* end = v.text.data() + v.text.size();
  auto [ptr, ec] = std::from_chars(v.text.data(), end, x);
  if (ec != std::errc() || ptr != end || !(x >= 1) || !std::isfinite(x))
    throw InputError(v.where, "sweep: parallel." + key + " must be a number of at least 1, the busiest expert rank's load over the mean (got '" + v.text + "')",
                     "1 is uniform routing");
  return x;
}

bool boolean_value(const SweepItem& v, const std::string& key) {
  if (v.text == "true" || v.text == "false") return v.text == "true";
  throw InputError(v.where, "sweep: parallel." + key + " must be true or false (got '" + v.text + "')");
}

// Sets `key` of `plan` from `v` (the key is one of sweep_parallel_key_names()).
void set_plan_key(ParallelPlan& plan, const std::string& key, const SweepItem& v) {
  if (key == "tp") plan.tp = integer_value(v, key, 1, INT32_MAX);
  else if (key == "pp") plan.pp = integer_value(v, key, 1, INT32_MAX);
  else if (key == "dp") plan.dp = integer_value(v, key, 1, INT32_MAX);
  else if (key == "cp") plan.cp = integer_value(v, key, 1, INT32_MAX);
  else if (key == "ep") plan.ep = integer_value(v, key, 1, INT32_MAX);
  else if (key == "microbatch") plan.microbatch = integer_value(v, key, 1, INT32_MAX);
  else if (key == "global_batch") plan.global_batch = integer_value(v, key, 1, INT32_MAX);
  else if (key == "interleave") plan.interleave = integer_value(v, key, 1, INT32_MAX);
  else if (key == "zero") plan.zero = static_cast<int>(integer_value(v, key, 0, 3));
  else if (key == "sequence_parallel") plan.sequence_parallel = boolean_value(v, key);
  else if (key == "overlap") plan.overlap = boolean_value(v, key);
  else if (key == "expert_imbalance") plan.expert_imbalance = imbalance_value(v, key);
  else if (key == "recompute") {
    std::optional<Recompute> r = parse_recompute(v.text);
    if (!r) throw InputError(v.where, "sweep: parallel.recompute: unknown policy '" + v.text + "'", "use none, selective or full");
    plan.recompute = *r;
  }
}

// Runs `load` and relocates its InputError to where the name was written.
template <typename Load>
auto located(const SweepItem& item, Load load) {
  try {
    return load();
  } catch (const InputError& e) {
    throw InputError(item.where, e.what(), e.hint());
  }
}

// Why the devices do not add up, or nothing; sets dp from gpus when the file gives no dp.
std::string fit_gpus(ParallelPlan& plan, int64_t gpus, bool dp_given) {
  if (gpus == 0) return {};
  if (dp_given) {
    if (gpus == plan.devices()) return {};
    return "gpus " + std::to_string(gpus) + " is not tp x pp x dp x cp = " + std::to_string(plan.devices());
  }
  int64_t per_replica = plan.tp * plan.pp * plan.cp;
  if (gpus % per_replica != 0)
    return "tp x pp x cp = " + std::to_string(per_replica) + " does not divide gpus " + std::to_string(gpus);
  plan.dp = gpus / per_replica;
  return {};
}

// Why a model that runs data parallel only cannot run `plan` on `system`, or nothing.
std::string data_parallel_problem(const ParallelPlan& plan, const SystemSpec& system) {
  const ParallelPlan defaults;
  if (plan.tp > 1 || plan.pp > 1 || plan.ep > 1 || plan.sequence_parallel || plan.microbatch != defaults.microbatch ||
      plan.zero != 0 || plan.recompute != Recompute::none || plan.interleave != 1 || plan.expert_imbalance != 1)
    return "the model has no [params] to shard, so only dp, global_batch and overlap apply";
  if (plan.dp > system.total_devices())
    return "dp " + std::to_string(plan.dp) + " is more than the " + std::to_string(system.total_devices()) + " devices of " + system.id;
  if (plan.batch() % plan.dp != 0)
    return "global batch " + std::to_string(plan.batch()) + " is not a multiple of dp " + std::to_string(plan.dp);
  return {};
}

}  // namespace

ParallelSweep run_parallel_sweep(const SweepFile& file) {
  ParallelSweep out;
  out.path = file.path;
  // Every value parsed before anything runs, so a bad one stops the sweep with no output.
  bool dp_given = false;
  for (const SweepParallelKey& k : file.parallel) {
    dp_given |= k.key == "dp";
    for (const SweepItem& v : k.values) {
      ParallelPlan scratch;
      set_plan_key(scratch, k.key, v);
    }
  }
  std::vector<SystemSpec> systems;
  for (const SweepItem& s : file.systems) systems.push_back(located(s, [&] { return load_system(s.text); }));
  std::vector<std::optional<TransformerParams>> shapes;  // none: the model runs data parallel only
  for (const SweepItem& m : file.models)
    shapes.push_back(located(m, [&]() -> std::optional<TransformerParams> {
      if (!is_transformer(load_model(m.text))) return std::nullopt;
      return transformer_params(m.text, {});
    }));

  // Sharded layers per (model, system, tp, cp, microbatch): the work every plan with them shares.
  std::map<std::tuple<size_t, size_t, int64_t, int64_t, int64_t>, ShardedLayers> layer_cache;
  auto layers = [&](size_t model, size_t system, int64_t tp, int64_t cp, int64_t microbatch) -> const ShardedLayers& {
    auto key = std::make_tuple(model, system, tp, cp, microbatch);
    auto it = layer_cache.find(key);
    if (it != layer_cache.end()) return it->second;
    const HardwareSpec& device = systems[system].device;
    ShardedLayers l = time_sharded_layers(file.models[model].text, {}, *shapes[model], tp, cp, microbatch, device,
                                          select_hardware_model(device, ""));
    return layer_cache.emplace(key, std::move(l)).first->second;
  };

  const size_t gpu_count = std::max<size_t>(1, file.gpus.size());
  std::vector<size_t> dims = {file.models.size(), systems.size(), gpu_count};
  for (const SweepParallelKey& k : file.parallel) dims.push_back(k.values.size());
  std::vector<size_t> at(dims.size(), 0);
  for (size_t n = file.point_count(); n > 0; --n) {
    ParallelSweepPoint p;
    p.model = file.models[at[0]].text;
    p.system = file.systems[at[1]].text;
    p.gpus = file.gpus.empty() ? 0 : std::stoll(file.gpus[at[2]].text);
    for (size_t k = 0; k < file.parallel.size(); ++k)
      set_plan_key(p.plan, file.parallel[k].key, file.parallel[k].values[at[3 + k]]);
    const std::optional<TransformerParams>& shape = shapes[at[0]];
    std::string problem = fit_gpus(p.plan, p.gpus, dp_given);
    if (problem.empty())
      problem = shape ? plan_problem(p.plan, *shape, systems[at[1]]).what : data_parallel_problem(p.plan, systems[at[1]]);
    if (problem.empty()) {
      p.status = "ok";
      if (shape)
        p.estimate = estimate_training(p.model, systems[at[1]], p.plan, *shape,
                                       layers(at[0], at[1], p.plan.tp, p.plan.cp, p.plan.microbatch),
                                       layers(at[0], at[1], 1, 1, p.plan.microbatch));
      else
        p.data_parallel = estimate_data_parallel(p.model, {}, systems[at[1]], p.plan.dp, p.plan.batch(), RunSettings{}, p.plan.overlap);
    } else {
      p.status = "invalid plan: " + problem;
    }
    out.points.push_back(std::move(p));
    for (size_t d = dims.size(); d-- > 0;) {  // the odometer: the last dimension fastest
      if (++at[d] < dims[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

}  // namespace ridge
