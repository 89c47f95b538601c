// The layer schema (see layer_fields.hpp). One declaration per reported quantity.
#include "sim/views/layer_fields.hpp"

namespace ridge {

namespace {

using F = Field<LayerResult>;
using R = const LayerResult&;

// A value that exists only per layer (not on the totals row).
template <class Get>
auto per_layer(Get get) {
  return [get](R r) -> FieldValue {
    if (r.is_total) return NotApplicable{};
    return get(r);
  };
}

void add_cost_fields(std::vector<F>& f, bool training, bool timed, bool kv) {
  auto count = [](int64_t LayerCost::*m) { return [m](R r) -> FieldValue { return r.cost.*m; }; };
  f.push_back({"name", "layer", Unit::text, [](R r) -> FieldValue { return r.name; }, true});
  f.push_back({"op", "op", Unit::text, per_layer([](R r) -> FieldValue { return r.op; }), true});
  f.push_back({"op_class", "class", Unit::text,
               per_layer([](R r) -> FieldValue { return std::string(op_class_name(r.work.op_class)); })});
  f.push_back({"output_shape", "output", Unit::shape, per_layer([](R r) -> FieldValue { return r.output_shape; }), true});
  f.push_back({"params", "params", Unit::count, count(&LayerCost::params), !timed});
  f.push_back({"macs", "MACs", Unit::count, count(&LayerCost::macs), true});
  if (training) f.push_back({"backward_macs", "bwd MACs", Unit::count, count(&LayerCost::backward_macs), !timed});
  f.push_back({"flops", "FLOPs", Unit::count, count(&LayerCost::flops), !timed});
  if (training) f.push_back({"backward_flops", "bwd FLOPs", Unit::count, count(&LayerCost::backward_flops), !timed});
  f.push_back({"input_bytes", "input", Unit::bytes, count(&LayerCost::input_bytes), !timed && !training});
  f.push_back({"output_bytes", "output", Unit::bytes, count(&LayerCost::output_bytes), !timed && !training});
  f.push_back({"weight_bytes", "weights", Unit::bytes, count(&LayerCost::weight_bytes), !timed && !training});
  if (kv) f.push_back({"kv_bytes", "kv", Unit::bytes, count(&LayerCost::kv_bytes), !timed});
  f.push_back({"arithmetic_intensity", "FLOP/B", Unit::intensity,
               [](R r) -> FieldValue { return r.arithmetic_intensity; }, true});
  if (!training) return;
  f.push_back({"backward_input_macs", "dX MACs", Unit::count, count(&LayerCost::backward_input_macs)});
  f.push_back({"backward_weight_macs", "dW MACs", Unit::count, count(&LayerCost::backward_weight_macs)});
  f.push_back({"backward_input_bytes", "bwd read", Unit::bytes, count(&LayerCost::backward_input_bytes)});
  f.push_back({"backward_output_bytes", "bwd write", Unit::bytes, count(&LayerCost::backward_output_bytes)});
  f.push_back({"backward_weight_bytes", "bwd wts", Unit::bytes, count(&LayerCost::backward_weight_bytes)});
  f.push_back({"update_flops", "upd FLOPs", Unit::count, count(&LayerCost::update_flops)});
  f.push_back({"update_bytes", "upd bytes", Unit::bytes, count(&LayerCost::update_bytes)});
}

void add_timing_fields(std::vector<F>& f, const HardwareSpec& hw, bool kv) {
  auto seconds = [](double LayerTiming::*m) { return [m](R r) -> FieldValue { return r.timing.*m; }; };
  f.push_back({"compute_time_s", "compute", Unit::seconds, seconds(&LayerTiming::compute_s)});
  for (size_t k = 0; k < hw.memory.size(); ++k)
    f.push_back({"memory_time_by_level_s." + hw.memory[k].name, hw.memory[k].name, Unit::seconds,
                 [k](R r) -> FieldValue { return k < r.timing.level_s.size() ? r.timing.level_s[k] : 0.0; }});
  f.push_back({"memory_time_s", "memory", Unit::seconds, seconds(&LayerTiming::memory_s)});
  f.push_back({"link_time_s", "link", Unit::seconds, seconds(&LayerTiming::link_s)});
  f.push_back({"overhead_time_s", "launch", Unit::seconds, seconds(&LayerTiming::overhead_s)});
  f.push_back({"time_s", "time", Unit::seconds, seconds(&LayerTiming::time_s), true});
  f.push_back({"bound", "bound", Unit::text, per_layer([](R r) -> FieldValue { return r.bound.label; }), true});
  if (hw.calibration)  // on a calibrated descriptor: no means the pure roofline (no fit for the class)
    f.push_back({"calibrated", "calibrated", Unit::flag, per_layer([](R r) -> FieldValue { return r.calibrated; })});
  f.push_back({"step_share", "share", Unit::fraction, [](R r) -> FieldValue { return r.step_share; }, true});
  f.push_back({"attained_flops", "FLOP/s", Unit::flop_rate, [](R r) -> FieldValue { return r.attained_flops; }});
  f.push_back({"roofline_attained_flops", "roof FLOP/s", Unit::flop_rate,
               per_layer([](R r) -> FieldValue { return r.roofline_attained_flops; })});
  f.push_back({"peak_fraction", "%peak", Unit::fraction, [](R r) -> FieldValue { return r.peak_fraction; }});
  f.push_back({"required_bandwidth_Bps", "need BW", Unit::bandwidth,
               per_layer([](R r) -> FieldValue { return r.required_Bps; }), true});
  const size_t streams = kv ? 4 : 3;  // the KV cache stream only where a run keeps one
  for (size_t s = 0; s < streams; ++s) {
    static const char* const titles[] = {"need in", "need out", "need w", "need kv"};
    static const char* const names[] = {"input", "output", "weights", "kv"};
    f.push_back({std::string("required_bandwidth_by_tensor_Bps.") + names[s], titles[s], Unit::bandwidth,
                 per_layer([s](R r) -> FieldValue { return r.streams[s].required_Bps; })});
  }
  for (size_t s = 0; s < streams; ++s) {
    static const char* const titles[] = {"in at", "out at", "w at", "kv at"};
    static const char* const names[] = {"input", "output", "weights", "kv"};
    f.push_back({std::string("memory_level_by_tensor.") + names[s], titles[s], Unit::text,
                 per_layer([s](R r) -> FieldValue { return r.streams[s].level_name; })});
  }
  f.push_back({"level", "level", Unit::text, per_layer([&hw](R r) -> FieldValue {
                 return hw.memory.empty() ? std::string() : hw.memory[static_cast<size_t>(r.intensity_level)].name;
               })});
  f.push_back({"required_bandwidth_at_level_Bps", "need at level", Unit::bandwidth,
               per_layer([](R r) -> FieldValue { return r.required_level_Bps; })});
  f.push_back({"available_bandwidth_Bps", "level BW", Unit::bandwidth,
               per_layer([](R r) -> FieldValue { return r.available_level_Bps; })});
  f.push_back({"ridge_point", "ridge", Unit::intensity, per_layer([](R r) -> FieldValue { return r.ridge_point; })});
  for (size_t k = 0; k < hw.memory.size(); ++k)
    f.push_back({"arithmetic_intensity_by_level." + hw.memory[k].name, "FLOP/B " + hw.memory[k].name, Unit::intensity,
                 per_layer([k](R r) -> FieldValue {
                   return k < r.intensity_by_level.size() ? r.intensity_by_level[k] : 0.0;
                 })});
}

}  // namespace

std::vector<Field<LayerResult>> layer_fields(const RunSettings& settings, const HardwareSpec* hw) {
  std::vector<F> f;
  add_cost_fields(f, settings.phase == Phase::training, hw != nullptr, settings.uses_kv_cache());
  if (hw) add_timing_fields(f, *hw, settings.uses_kv_cache());
  return f;
}

std::vector<Field<LayerResult>> layer_fields(const RunResult& run) {
  return layer_fields(run.settings, run.hardware ? &run.hardware->spec : nullptr);
}

std::vector<Field<RunResult>> run_fields(const RunResult& run) {
  std::vector<Field<RunResult>> f;
  if (run.totals.cost.active_params != run.totals.cost.params)  // a mixture of experts
    f.push_back({"active_params", "active params", Unit::count,
                 [](const RunResult& r) -> FieldValue { return r.totals.cost.active_params; }});
  if (!run.hardware) return f;
  f.push_back({"samples_per_s", "samples/s", Unit::number, [](const RunResult& r) -> FieldValue { return r.samples_per_s; }});
  f.push_back({"memory_bound_share", "memory-bound", Unit::fraction,
               [](const RunResult& r) -> FieldValue { return r.memory_bound_share; }});
  if (!run.energy) return f;
  f.push_back({"joules_per_sample", "J/sample", Unit::number, [](const RunResult& r) -> FieldValue { return r.joules_per_sample; }});
  f.push_back({"average_power_w", "average power (W)", Unit::number,
               [](const RunResult& r) -> FieldValue { return r.energy->average_power_w; }});
  f.push_back({"power_capped", "at board power", Unit::flag, [](const RunResult& r) -> FieldValue { return r.energy->capped; }});
  return f;
}

}  // namespace ridge
