// Timing one run on several devices, side by side (see device_comparison.hpp).
#include "sim/engine/device_comparison.hpp"

#include "sim/base/ratio.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/workload/memory_footprint.hpp"

namespace ridge {

namespace {

ComparedDevice compare_one(const Model& model, const CostAnalysis& costs, const DeviceUnderTest& d, const CostBasis& basis,
                           const MemoryFootprint& footprint, bool token_phase) {
  ComparedDevice c;
  c.hardware = d.spec->id;
  c.name = d.spec->name;
  c.run = derive(model, costs, *d.spec, *d.model);
  c.time_s = c.run.totals.timing.time_s;
  c.samples_per_s = c.run.samples_per_s;
  if (token_phase) c.tokens_per_s = ratio(static_cast<double>(costs.settings.batch * costs.settings.tokens_per_step().value_or(0)), c.time_s);
  DeviceFit fit = fit_on_device(model, footprint, *d.spec, *d.model, kDefaultReserveFraction);
  c.fits = fit.fits;
  c.largest_batch = fit.max_batch;
  for (const LayerResult& l : c.run.layers) {
    double share = ratio(l.timing.time_s, c.time_s);
    switch (l.bound.kind) {
      case Bound::Kind::compute: c.compute_bound_share += share; break;
      case Bound::Kind::memory: c.memory_bound_share += share; break;
      case Bound::Kind::overhead:
      case Bound::Kind::link: c.overhead_bound_share += share; break;
      case Bound::Kind::none: break;
    }
  }
  if (c.run.energy) {
    c.joules_per_sample = c.run.joules_per_sample;
    c.average_power_w = c.run.energy->average_power_w;
  }
  c.cost = use_cost(*d.spec, basis, c.average_power_w);
  if (c.cost) {
    c.samples_per_usd = per_usd(c.samples_per_s, c.cost->usd_per_hour);
    c.usd_per_1000_samples = ratio(1000.0, *c.samples_per_usd);
    if (token_phase) c.usd_per_million_tokens = ratio(1e6, per_usd(c.tokens_per_s, c.cost->usd_per_hour));
  }
  return c;
}

}  // namespace

ComparisonResult compare_devices(const Model& model, const CostAnalysis& costs, const std::vector<DeviceUnderTest>& devices,
                                 const CostBasis& basis, const std::optional<TrainingRun>& training_run) {
  ComparisonResult r;
  r.model = model.name;
  r.settings = costs.settings;
  r.basis = basis;
  r.training_run = training_run;
  r.token_phase = costs.settings.uses_kv_cache();
  MemoryFootprint footprint = memory_footprint(model, costs.settings, CheckpointPolicy{});
  for (const DeviceUnderTest& d : devices) r.devices.push_back(compare_one(model, costs, d, basis, footprint, r.token_phase));
  if (r.devices.empty()) return r;
  const ComparedDevice& first = r.devices.front();
  for (ComparedDevice& c : r.devices) {
    if (training_run && c.samples_per_s > 0) {
      c.training_run_hours = training_run->samples / c.samples_per_s / 3600;
      if (c.cost) c.training_run_usd = *c.training_run_hours * c.cost->usd_per_hour;
    }
    c.speedup = ratio(c.samples_per_s, first.samples_per_s);
    if (c.samples_per_usd && first.samples_per_usd) c.samples_per_usd_ratio = ratio(*c.samples_per_usd, *first.samples_per_usd);
    if (c.joules_per_sample && first.joules_per_sample)
      c.joules_per_sample_ratio = ratio(*c.joules_per_sample, *first.joules_per_sample);
  }
  for (size_t k = 0; k < model.layers.size(); ++k) {
    BoundDifference diff{first.run.layers[k].name, {}};
    bool differs = false;
    for (const ComparedDevice& c : r.devices) {
      diff.bounds.push_back(c.run.layers[k].bound.label);
      // Memory-bound at GDDR5X on one device and at HBM2 on another is the same bound.
      differs = differs || c.run.layers[k].bound.kind != first.run.layers[k].bound.kind;
    }
    if (differs) r.differing_layers.push_back(std::move(diff));
  }
  return r;
}

}  // namespace ridge
