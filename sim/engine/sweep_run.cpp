// The sweep driver (see sweep_run.hpp).
#include "sim/engine/sweep_run.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "hw/energy_model.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/engine/cost_of_use.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/ratio.hpp"

namespace ridge {

namespace {

// An error raised without a location (an unknown name) is reported where the sweep file wrote the name.
template <typename F>
auto located_at(const SourceLoc& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.where().file.empty()) throw;
    throw InputError(where, e.what(), e.hint());
  }
}

constexpr std::string_view kModelPrefix = "model.";
bool is_model_key(const SweepVary& v) { return v.key.starts_with(kModelPrefix); }

size_t vary_combinations(const SweepFile& f) {
  size_t n = 1;
  for (const SweepVary& v : f.vary) n *= v.values.size();
  return n;
}

}  // namespace

size_t group_block(const SweepFile& f) {
  return f.phases.size() * f.dtypes.size() * f.optimizers.size() * f.kv_dtypes.size() * f.weight_formats.size() *
         f.overheads.size() * f.contexts.size() * f.seqs.size() * f.batches.size();
}

size_t SweepPlan::group_count() const { return models.size() * group_block(file); }

size_t SweepPlan::index(size_t model, size_t hw_point, size_t hw_model, size_t group_rest) const {
  size_t combos = vary_combinations(file);
  size_t hw = hw_point / combos, combo = hw_point % combos;
  size_t outer = ((model * file.hardware.size() + hw) * file.hw_models.size() + hw_model) * combos + combo;
  return outer * group_block(file) + group_rest;
}

SweepCoords SweepPlan::coords(size_t index) const {
  SweepCoords c;
  size_t block = group_block(file);
  size_t rest = index % block, outer = index / block;
  size_t i = rest;
  c.batch = file.batches[i % file.batches.size()];
  i /= file.batches.size();
  c.seq_index = i % file.seqs.size();
  c.seq = file.seqs[c.seq_index];
  i /= file.seqs.size();
  c.context = file.contexts[i % file.contexts.size()];
  i /= file.contexts.size();
  c.optimizer = file.optimizers[i % file.optimizers.size()];
  i /= file.optimizers.size();
  c.kv_dtype = file.kv_dtypes[i % file.kv_dtypes.size()];
  i /= file.kv_dtypes.size();
  c.weight_format = file.weight_formats[i % file.weight_formats.size()];
  i /= file.weight_formats.size();
  c.overhead = file.overheads[i % file.overheads.size()];
  i /= file.overheads.size();
  c.dtype = file.dtypes[i % file.dtypes.size()];
  i /= file.dtypes.size();
  c.phase = file.phases[i];
  size_t combos = vary_combinations(file);
  size_t combo = outer % combos;
  outer /= combos;
  c.hw_model = outer % file.hw_models.size();
  outer /= file.hw_models.size();
  size_t hw = outer % file.hardware.size();
  c.model = outer / file.hardware.size();
  c.hw_point = hw * combos + combo;
  c.variant = c.model * model_combos + hw_points[c.hw_point].model_combo;
  c.group = c.variant * block + rest;
  return c;
}

SweepPlan plan_sweep(SweepFile file) {
  SweepPlan plan;
  const bool decodes = std::find(file.phases.begin(), file.phases.end(), Phase::decode) != file.phases.end();
  // The model.* keys, in file order, and the number of their value combinations.
  std::vector<size_t> model_keys;
  for (size_t k = 0; k < file.vary.size(); ++k)
    if (is_model_key(file.vary[k])) {
      model_keys.push_back(k);
      plan.model_combos *= file.vary[k].values.size();
    }
  for (const SweepItem& m : file.models) {
    if (!model_keys.empty()) {  // check the keys against the model's own [params] first
      Model base = located_at(m.where, [&] { return load_model(file.resolve(m.text)); });
      std::vector<std::string> names;
      for (const auto& [name, value] : base.params) names.push_back("model." + name);
      for (size_t k : model_keys)
        if (!base.params.count(file.vary[k].key.substr(kModelPrefix.size())))
          throw InputError(file.vary[k].key_where,
                           "[[vary]] key '" + file.vary[k].key + "' is not a parameter of model '" + m.text + "'",
                           names.empty() ? std::string("its model file has no [params] table")
                                         : suggestion_hint(file.vary[k].key, names));
    }
    for (size_t mc = 0; mc < plan.model_combos; ++mc) {  // the last model key varies fastest
      std::vector<ParamOverride> overrides;
      size_t rest = mc;
      for (size_t j = model_keys.size(); j-- > 0;) {
        const SweepVary& v = file.vary[model_keys[j]];
        const SweepItem& value = v.values[rest % v.values.size()];
        rest /= v.values.size();
        overrides.insert(overrides.begin(), {v.key.substr(kModelPrefix.size()), value.text, value.where});
      }
      plan.models.push_back(located_at(m.where, [&] { return load_model(file.resolve(m.text), overrides); }));
      if (decodes) plan.decode_models.push_back(located_at(m.where, [&] { return load_model(file.resolve(m.text), overrides, {}, 1); }));
      for (int64_t seq : file.seqs)
        if (seq > 0) plan.seq_models.push_back(located_at(m.where, [&] { return load_model(file.resolve(m.text), overrides, {}, seq); }));
    }
  }
  size_t combos = vary_combinations(file);
  for (size_t h = 0; h < file.hardware.size(); ++h) {
    const SweepItem& item = file.hardware[h];
    HardwareDescriptor d = located_at(item.where, [&] { return open_hardware(file.resolve(item.text)); });
    std::vector<std::string> keys = d.key_paths();
    for (const SweepVary& v : file.vary)
      if (!is_model_key(v) && std::find(keys.begin(), keys.end(), v.key) == keys.end())
        throw InputError(v.key_where, "[[vary]] key '" + v.key + "' is not a key of hardware '" + item.text + "'",
                         "keys of " + item.text + " include memory.<level>.bandwidth with its level names; see docs/reference/hardware-descriptors.md, \"--set key paths\"");
    for (size_t combo = 0; combo < combos; ++combo) {
      SweepHardwarePoint p;
      p.hardware = h;
      std::vector<HardwareOverride> overrides;
      size_t rest = combo;
      p.value.resize(file.vary.size());
      for (size_t k = file.vary.size(); k-- > 0;) {
        p.value[k] = rest % file.vary[k].values.size();
        rest /= file.vary[k].values.size();
      }
      for (size_t k = 0; k < file.vary.size(); ++k) {
        const SweepItem& value = file.vary[k].values[p.value[k]];
        if (is_model_key(file.vary[k])) p.model_combo = p.model_combo * file.vary[k].values.size() + p.value[k];
        else overrides.push_back({file.vary[k].key, value.text, value.where});
      }
      p.spec = d.spec(overrides);
      for (const SweepItem& hm : file.hw_models)
        plan.hw_model_of.push_back(&located_at(hm.text.empty() ? item.where : hm.where,
                                               [&]() -> const HardwareModel& { return select_hardware_model(p.spec, hm.text); }));
      plan.hw_points.push_back(std::move(p));
    }
  }
  plan.file = std::move(file);
  return plan;
}

std::string SweepPointResult::status_text() const {
  switch (status) {
    case PointStatus::ok: return "ok";
    case PointStatus::unsupported: return "unsupported: " + reason;
    case PointStatus::does_not_fit: return "does not fit: " + reason;
    case PointStatus::error: return "error: " + reason;
  }
  return reason;
}

std::string SweepPointResult::bound_text() const {
  if (!ok()) return {};
  switch (bound) {
    case Bound::Kind::memory: return "memory";
    case Bound::Kind::overhead: return "overhead";
    case Bound::Kind::link: return "link";
    default: return "compute";
  }
}

namespace {

void derive_point_totals(SweepPointResult& r, int64_t batch) {
  r.samples_per_s = ratio(static_cast<double>(batch), r.sums.time_s);
  r.memory_bound_share = ratio(r.sums.memory_bound_s, r.sums.time_s);
  r.attained_flops = ratio(r.flops, r.sums.time_s);
  r.peak_fraction = ratio(r.attained_flops, r.peak_flops);
  // Whatever takes more than half the step: memory-bound layers, launches or the link.
  r.bound = r.memory_bound_share > 0.5                         ? Bound::Kind::memory
            : ratio(r.sums.overhead_s, r.sums.time_s) > 0.5    ? Bound::Kind::overhead
            : ratio(r.sums.link_s, r.sums.time_s) > 0.5        ? Bound::Kind::link
                                                               : Bound::Kind::compute;
}

void derive_point_energy_and_cost(SweepPointResult& r, const HardwareSpec& hw, const RunSettings& settings,
                                  const CostBasis& basis) {
  if (!has_energy_model(hw)) return;
  StepEnergy e = step_energy(hw, settings.dtype, r.flops, r.sums.level_bytes, r.sums.time_s, r.sums.overhead_s);
  r.joules_per_sample = ratio(e.total_J, static_cast<double>(settings.batch));
  r.average_power_w = e.average_power_w;
  if (std::optional<UseCost> c = use_cost(hw, basis, e.average_power_w)) {
    r.usd_per_hour = c->usd_per_hour;
    r.samples_per_usd = per_usd(r.samples_per_s, c->usd_per_hour);
  }
}

// Evaluates one (model, phase, dtype, optimizer, batch) group against every hardware point.
void run_group(const SweepPlan& plan, size_t group, const SweepRunOptions& opt, SweepResult& result,
               LayerTimingArrays& scratch) {
  const SweepFile& f = plan.file;
  size_t block = group_block(f);
  size_t variant = group / block, rest = group % block;
  size_t model_index = variant / plan.model_combos, model_combo = variant % plan.model_combos;
  // Any point of the group gives its settings.
  SweepCoords c = plan.coords(plan.index(model_index, 0, 0, rest));
  const Model& model = c.phase == Phase::decode ? plan.decode_models[variant]
                       : c.seq > 0                ? plan.seq_models[variant * f.seqs.size() + c.seq_index]
                                                  : plan.models[variant];
  RunSettings settings;
  settings.batch = c.batch;
  settings.dtype = c.dtype;
  settings.phase = c.phase;
  settings.optimizer = c.optimizer;
  settings.kv_dtype = c.kv_dtype;
  settings.weight_format = c.weight_format;
  settings.overhead = c.overhead;
  settings.context = c.context;
  settings.seq = c.seq;

  std::string group_error;
  CostAnalysis costs;
  LayerWorkArrays work;
  double flops = 0, bytes = 0;
  std::optional<MemoryFootprint> footprint;
  try {
    costs = analyze_costs(model, settings);
    footprint = memory_footprint(model, settings, CheckpointPolicy{});
    work = to_arrays(layer_work(model, costs));
    flops = sum_in_layer_order(work.flops);
    bytes = sum_in_layer_order(work.input_bytes) + sum_in_layer_order(work.output_bytes) +
            sum_in_layer_order(work.weight_bytes) + sum_in_layer_order(work.kv_bytes);  // as derive() sums a run's streams
  } catch (const InputError& e) {
    group_error = e.what();
  }
  const size_t hw_models = f.hw_models.size();
  for (size_t hp = 0; hp < plan.hw_points.size(); ++hp) {
    if (plan.hw_points[hp].model_combo != model_combo) continue;  // another variant's point
    const HardwareSpec& hw = plan.hw_points[hp].spec;
    for (size_t hm = 0; hm < hw_models; ++hm) {
      SweepPointResult& r = result.points[plan.index(model_index, hp, hm, rest)];
      const HardwareModel& hw_model = *plan.hw_model_of[hp * hw_models + hm];
      r.hw_model = std::string(hw_model.name());
      if (!group_error.empty()) {
        r.status = PointStatus::error;
        r.reason = group_error;
        continue;
      }
      std::optional<double> peak = hw.peak(settings.dtype);
      if (!peak) {
        r.status = PointStatus::unsupported;
        r.reason = hw.id + " has no " + std::string(dtype_name(settings.dtype)) + " peak";
        continue;
      }
      r.memory = point_memory(*footprint, hw);
      if (r.memory.fits == false) {
        r.status = PointStatus::does_not_fit;
        r.reason = "peak " + format_bytes(*r.memory.peak_bytes) + " > " +
                   format_bytes(static_cast<double>(usable_capacity(hw, kDefaultReserveFraction))) + " usable " +
                   hw.dram().name;
        continue;
      }
      r.peak_flops = *peak;
      r.flops = flops;
      r.bytes = bytes;
      r.sums = hw_model.time_layers(work, hw, settings.dtype, scratch);
      derive_point_totals(r, settings.batch);
      derive_point_energy_and_cost(r, hw, settings, f.cost);
      if (opt.per_layer) r.layers = scratch;
    }
  }
  if (opt.per_layer) result.group_work[group] = std::move(work);
}

}  // namespace

SweepResult run_sweep(const SweepPlan& plan, const SweepRunOptions& opt) {
  if (opt.per_layer) {
    // One row per point and layer, each kept until the run ends: bounded like the points.
    size_t rows = 0;
    for (const Model& m : plan.models) rows += m.layers.size();
    rows *= plan.point_count() / std::max<size_t>(plan.models.size(), 1);
    if (rows > kMaxSweepLayerRows)
      throw InputError({plan.file.path}, "--per-layer would write " + std::to_string(rows) +
                                             " rows (points x layers), more than the limit of " +
                                             std::to_string(kMaxSweepLayerRows),
                       "sweep fewer points with --per-layer, or leave it out for one row per point");
  }
  SweepResult result;
  result.points.resize(plan.point_count());
  const size_t groups = plan.group_count();
  if (opt.per_layer) result.group_work.resize(groups);
  const size_t points_per_group = groups ? plan.point_count() / groups : 0;
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::atomic<bool> failed{false};
  auto worker = [&] {
    LayerTimingArrays scratch;  // per thread, reused by every group it runs
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) return;
      size_t g = next.fetch_add(1, std::memory_order_relaxed);
      if (g >= groups) return;
      try {
        run_group(plan, g, opt, result, scratch);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
        return;
      }
      if (opt.done) opt.done->fetch_add(points_per_group, std::memory_order_relaxed);
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(opt.jobs, static_cast<unsigned>(std::max<size_t>(groups, 1))));
  if (jobs == 1) {
    worker();
  } else {
    // The system may refuse threads (a process or memory limit): run on those it gives.
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < jobs; ++i) {
      try {
        threads.emplace_back(worker);
      } catch (const std::system_error&) {
        break;
      }
    }
    if (threads.empty()) worker();
    for (std::thread& t : threads) t.join();
  }
  if (failure) std::rethrow_exception(failure);
  result.cancelled = opt.cancel && opt.cancel->load();
  return result;
}

}  // namespace ridge
