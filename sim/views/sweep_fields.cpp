// The sweep schema (see sweep_fields.hpp).
#include "sim/views/sweep_fields.hpp"

#include <algorithm>

namespace ridge {

namespace {
using R = const SweepRow&;

const SweepPointResult& point(R r) { return r.result->points[r.point]; }

// A value that exists only for a point that ran.
template <class Get>
auto when_ran(Get get) {
  return [get](R r) -> FieldValue {
    if (!point(r).ok()) return NotApplicable{};
    return get(r);
  };
}
}  // namespace

std::vector<Field<SweepRow>> sweep_point_name_fields(const SweepPlan& plan, bool vary_as_columns) {
  std::vector<Field<SweepRow>> f = {
      {"model", "model", Unit::text, [](R r) -> FieldValue { return r.plan->file.models[r.plan->coords(r.point).model].text; }, true},
      {"hardware", "hardware", Unit::text, [](R r) -> FieldValue {
         return r.plan->file.hardware[r.plan->hw_points[r.plan->coords(r.point).hw_point].hardware].text;
       }, true},
      // The descriptor's own `name`: what plot keys show for a descriptor given by path.
      {"device", "device", Unit::text, [](R r) -> FieldValue { return r.plan->hw_points[r.plan->coords(r.point).hw_point].spec.name; }, true},
      {"hw_model", "hw model", Unit::text, [](R r) -> FieldValue { return point(r).hw_model; }, true},
  };
  if (vary_as_columns)
    for (size_t k = 0; k < plan.file.vary.size(); ++k)
      f.push_back({plan.file.vary[k].key, vary_key_title(plan.file.vary[k].key), Unit::text, [k](R r) -> FieldValue {
                     const SweepHardwarePoint& hp = r.plan->hw_points[r.plan->coords(r.point).hw_point];
                     return r.plan->file.vary[k].values[hp.value[k]].text;
                   }, true});
  f.push_back({"phase", "phase", Unit::text, [](R r) -> FieldValue { return std::string(phase_name(r.plan->coords(r.point).phase)); }, true});
  f.push_back({"dtype", "dtype", Unit::text, [](R r) -> FieldValue { return std::string(dtype_name(r.plan->coords(r.point).dtype)); }, true});
  f.push_back({"optimizer", "optimizer", Unit::text,
               [](R r) -> FieldValue { return std::string(optimizer_name(r.plan->coords(r.point).optimizer)); }, true});
  // The serving choices, where the file varies or sets them.
  const SweepFile& file = plan.file;
  if (file.kv_dtypes.size() > 1 || (!file.kv_dtypes.empty() && file.kv_dtypes.front()))
    f.push_back({"kv_dtype", "KV dtype", Unit::text, [](R r) -> FieldValue {
                   const SweepCoords c = r.plan->coords(r.point);
                   return std::string(dtype_name(c.kv_dtype.value_or(c.dtype)));
                 }, true});
  if (file.weight_formats.size() > 1 || (!file.weight_formats.empty() && file.weight_formats.front() != WeightFormat::same))
    f.push_back({"weight_dtype", "weights", Unit::text, [](R r) -> FieldValue {
                   WeightFormat w = r.plan->coords(r.point).weight_format;
                   return std::string(w == WeightFormat::same ? "none" : weight_format_name(w));
                 }, true});
  if (file.overheads.size() > 1 || (!file.overheads.empty() && file.overheads.front() != LaunchOverhead::per_kernel))
    f.push_back({"overhead", "overhead", Unit::text, [](R r) -> FieldValue {
                   return std::string(launch_overhead_name(r.plan->coords(r.point).overhead));
                 }, true});
  if (std::find(plan.file.phases.begin(), plan.file.phases.end(), Phase::decode) != plan.file.phases.end())
    f.push_back({"context", "context", Unit::integer, [](R r) -> FieldValue { return r.plan->coords(r.point).context; }, true});
  if (!plan.file.seqs.empty() && plan.file.seqs.front() > 0)
    f.push_back({"seq", "seq", Unit::integer, [](R r) -> FieldValue { return r.plan->coords(r.point).seq; }, true});
  f.push_back({"batch", "batch", Unit::integer, [](R r) -> FieldValue { return r.plan->coords(r.point).batch; }, true});
  f.push_back({"status", "status", Unit::text, [](R r) -> FieldValue { return point(r).status_text(); }, true});
  return f;
}

std::vector<Field<SweepRow>> sweep_point_total_fields() {
  auto sum = [](double TimingSums::*m) { return when_ran([m](R r) -> FieldValue { return point(r).sums.*m; }); };
  auto num = [](double SweepPointResult::*m) { return when_ran([m](R r) -> FieldValue { return point(r).*m; }); };
  // A figure the descriptor's [power] / [price] may not give: empty without it.
  auto opt = [](std::optional<double> SweepPointResult::*m) {
    return when_ran([m](R r) -> FieldValue { return point(r).*m ? FieldValue(*(point(r).*m)) : FieldValue(NotApplicable{}); });
  };
  return {
      {"time_s", "step time", Unit::seconds, sum(&TimingSums::time_s), true},
      {"samples_per_s", "samples/s", Unit::number, num(&SweepPointResult::samples_per_s), true},
      {"compute_time_s", "compute", Unit::seconds, sum(&TimingSums::compute_s)},
      {"memory_time_s", "memory", Unit::seconds, sum(&TimingSums::memory_s)},
      {"link_time_s", "link", Unit::seconds, sum(&TimingSums::link_s)},
      {"overhead_time_s", "launch", Unit::seconds, sum(&TimingSums::overhead_s)},
      {"bound", "bound", Unit::text, when_ran([](R r) -> FieldValue { return point(r).bound_text(); }), true},
      {"memory_bound_share", "memory-bound", Unit::fraction, num(&SweepPointResult::memory_bound_share)},
      {"flops", "FLOPs", Unit::count, num(&SweepPointResult::flops)},
      {"bytes", "bytes", Unit::bytes, num(&SweepPointResult::bytes)},
      {"attained_flops", "FLOP/s", Unit::flop_rate, num(&SweepPointResult::attained_flops)},
      {"peak_fraction", "%peak", Unit::fraction, num(&SweepPointResult::peak_fraction)},
      {"peak_memory_bytes", "peak memory", Unit::bytes, when_ran([](R r) -> FieldValue {
         if (!point(r).memory.peak_bytes) return NotApplicable{};
         return *point(r).memory.peak_bytes;
       }), true},
      {"fits", "fits", Unit::flag, when_ran([](R r) -> FieldValue {
         if (!point(r).memory.fits) return NotApplicable{};
         return *point(r).memory.fits;
       })},
      {"joules_per_sample", "J/sample", Unit::number, opt(&SweepPointResult::joules_per_sample)},
      {"average_power_w", "power (W)", Unit::number, opt(&SweepPointResult::average_power_w)},
      {"usd_per_hour", "$/h", Unit::number, opt(&SweepPointResult::usd_per_hour)},
      {"samples_per_usd", "samples/$", Unit::number, opt(&SweepPointResult::samples_per_usd)},
  };
}

std::vector<Field<SweepRow>> sweep_layer_fields() {
  auto arr = [](Eigen::ArrayXd LayerTimingArrays::*m) {
    return when_ran([m](R r) -> FieldValue { return (point(r).layers.*m)[r.layer]; });
  };
  auto work = [](R r) -> const LayerWorkArrays& { return r.result->group_work[r.plan->coords(r.point).group]; };
  return {
      {"name", "layer", Unit::text, when_ran([](R r) -> FieldValue {
         return r.plan->models[r.plan->coords(r.point).variant].layers[static_cast<size_t>(r.layer)].name;
       }), true},
      {"op", "op", Unit::text, when_ran([](R r) -> FieldValue {
         return r.plan->models[r.plan->coords(r.point).variant].layers[static_cast<size_t>(r.layer)].op;
       }), true},
      {"flops", "FLOPs", Unit::count, when_ran([work](R r) -> FieldValue { return work(r).flops[r.layer]; })},
      {"bytes", "bytes", Unit::bytes, when_ran([work](R r) -> FieldValue {
         const LayerWorkArrays& w = work(r);
         return w.input_bytes[r.layer] + w.output_bytes[r.layer] + w.weight_bytes[r.layer];
       })},
      {"compute_time_s", "compute", Unit::seconds, arr(&LayerTimingArrays::compute_s)},
      {"memory_time_s", "memory", Unit::seconds, arr(&LayerTimingArrays::memory_s)},
      {"link_time_s", "link", Unit::seconds, arr(&LayerTimingArrays::link_s)},
      {"overhead_time_s", "launch", Unit::seconds, arr(&LayerTimingArrays::overhead_s)},
      {"time_s", "time", Unit::seconds, arr(&LayerTimingArrays::time_s), true},
      // The per-layer table's classification: launch- or link-dominated layers say so.
      {"bound", "bound", Unit::text, when_ran([work](R r) -> FieldValue {
         const LayerTimingArrays& a = point(r).layers;
         LayerTiming t;
         t.compute_s = a.compute_s[r.layer];
         t.memory_s = a.memory_s[r.layer];
         t.link_s = a.link_s[r.layer];
         t.overhead_s = a.overhead_s[r.layer];
         t.time_s = a.time_s[r.layer];
         t.bound_level = a.bound_level[r.layer];
         const HardwareSpec& hw = r.plan->hw_points[r.plan->coords(r.point).hw_point].spec;
         return bound_of(t, work(r).layer(r.layer), hw).label;
       }), true},
  };
}

std::vector<std::string> sweep_reported_keys() {
  std::vector<std::string> keys;
  for (const auto& f : sweep_point_total_fields()) keys.push_back(f.key);
  for (const auto& f : sweep_layer_fields()) keys.push_back(f.key);
  return keys;
}

std::string vary_key_title(const std::string& key) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() > 1) parts.erase(parts.begin());  // the section: memory, compute, link, ...
  if (key.rfind("compute.", 0) == 0 && parts.size() == 1) parts.push_back("peak");
  std::string title;
  for (const std::string& p : parts) title += (title.empty() ? "" : " ") + p;
  std::replace(title.begin(), title.end(), '_', ' ');
  return title;
}

std::optional<SweepColumn> sweep_column(const std::string& key) {
  static const std::vector<std::pair<std::string, SweepColumn>> declared = [] {
    SweepPlan any;
    any.file.phases = {Phase::decode};  // so that the context column is declared
    any.file.seqs = {1};                // and the seq column
    any.file.kv_dtypes = {DType::fp8};  // and the serving choices'
    any.file.weight_formats = {WeightFormat::int4};
    any.file.overheads = {LaunchOverhead::none};
    std::vector<std::pair<std::string, SweepColumn>> out;
    for (const auto& f : sweep_point_name_fields(any, false)) out.push_back({f.key, {f.title, f.unit}});
    for (const auto& f : sweep_point_total_fields()) out.push_back({f.key, {f.title, f.unit}});
    return out;
  }();
  for (const auto& [k, c] : declared)
    if (k == key) return c;
  if (key.find('.') != std::string::npos) return SweepColumn{vary_key_title(key), Unit::text};
  return std::nullopt;
}

}  // namespace ridge
