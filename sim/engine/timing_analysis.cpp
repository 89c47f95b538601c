// Timing a model on hardware (see timing_analysis.hpp).
#include "sim/engine/timing_analysis.hpp"

#include "sim/base/error.hpp"

namespace ridge {

namespace {
double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
}  // namespace

void check_dtype_supported(const HardwareSpec& hw, DType dtype) {
  if (hw.peak(dtype)) return;
  std::string known;
  for (const auto& [t, peak] : hw.peak_flops) known += (known.empty() ? "" : ", ") + std::string(dtype_name(t));
  throw InputError({}, hw.id + " has no " + std::string(dtype_name(dtype)) + " peak",
                   known.empty() ? "its descriptor lists no [compute] peak" : "it computes in " + known + " (--dtype)");
}

TimingAnalysis analyze_timing(const Model& model, const CostAnalysis& costs, const HardwareSpec& hw,
                              const HardwareModel& hw_model) {
  DType dtype = costs.settings.dtype;
  check_dtype_supported(hw, dtype);
  if (costs.settings.weight_format == WeightFormat::fp8 && !hw.peak(DType::fp8))
    throw InputError({}, hw.id + " cannot read fp8 weights: its descriptor lists no fp8 support (got --weight-dtype fp8)",
                     "use --weight-dtype int8 or int4, which any device widens in its ALUs");
  TimingAnalysis r;
  r.hardware_model = std::string(hw_model.name());
  r.dtype = dtype;
  r.peak_flops = *hw.peak(dtype);
  TimingTotals& tot = r.totals;
  double memory_bound_s = 0;
  for (const LayerWork& w : layer_work(model, costs)) {
    LayerTimed l;
    l.work = w;
    l.timing = hw_model.time_layer(w, hw, dtype);
    l.attained_flops = ratio(w.flops, l.timing.time_s);
    l.peak_fraction = ratio(l.attained_flops, r.peak_flops);
    l.arithmetic_intensity = ratio(w.flops + w.epilogue_flops, w.bytes());  // as the cost analysis counts it
    tot.flops += w.flops;
    tot.bytes += w.bytes();
    tot.compute_s += l.timing.compute_s;
    tot.memory_s += l.timing.memory_s;
    tot.link_s += l.timing.link_s;
    tot.overhead_s += l.timing.overhead_s;
    tot.time_s += l.timing.time_s;
    if (l.timing.memory_bound()) memory_bound_s += l.timing.time_s;
    r.layers.push_back(std::move(l));
  }
  tot.samples_per_s = ratio(static_cast<double>(costs.settings.batch), tot.time_s);
  tot.memory_bound_share = ratio(memory_bound_s, tot.time_s);
  tot.attained_flops = ratio(tot.flops, tot.time_s);
  tot.peak_fraction = ratio(tot.attained_flops, r.peak_flops);
  return r;
}

double ridge_point(const HardwareSpec& hw, DType dtype, size_t level) {
  if (level >= hw.memory.size()) return 0;
  return ratio(hw.peak(dtype).value_or(0) * hw.compute_efficiency,
               hw.memory[level].bandwidth_Bps * hw.memory_efficiency);
}

}  // namespace ridge
