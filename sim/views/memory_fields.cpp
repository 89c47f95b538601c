// The memory schema (see memory_fields.hpp).
#include "sim/views/memory_fields.hpp"

namespace ridge {

namespace {
using S = const MemoryReport&;
using T = const MemoryTimelineRow&;
}  // namespace

std::vector<Field<MemoryReport>> memory_summary_fields(const MemoryReport& report) {
  const bool training = report.footprint.settings.phase == Phase::training;
  std::vector<Field<MemoryReport>> f = {
      {"params", "parameters", Unit::count, [](S r) -> FieldValue { return r.footprint.params; }},
      {"bytes_per_param", "bytes per parameter", Unit::integer, [training](S r) -> FieldValue {
         return int64_t{training ? r.footprint.sizes.per_param_training() : r.footprint.sizes.weight};
       }},
      {"parameters_bytes", "weights", Unit::bytes, [](S r) -> FieldValue { return r.footprint.parameters_bytes; }},
      {"master_weights_bytes", "master weights", Unit::bytes, [](S r) -> FieldValue { return r.footprint.master_weights_bytes; }},
      {"gradients_bytes", "gradients", Unit::bytes, [](S r) -> FieldValue { return r.footprint.gradients_bytes; }},
      {"optimizer_bytes", "optimizer state", Unit::bytes, [](S r) -> FieldValue { return r.footprint.optimizer_bytes; }},
      {"model_bytes", "model part", Unit::bytes, [](S r) -> FieldValue { return r.footprint.model_bytes(); }},
      {"statistics_bytes", "saved statistics", Unit::bytes, [](S r) -> FieldValue { return r.footprint.statistics_bytes; }},
      {"per_sample_bytes", "per sample at the peak", Unit::bytes, [](S r) -> FieldValue { return r.footprint.peak_per_sample; }},
      {"activations_bytes", "activations", Unit::bytes, [](S r) -> FieldValue { return r.footprint.activations_bytes(); }},
      {"workspace_bytes", "workspace", Unit::bytes, [](S r) -> FieldValue { return r.footprint.workspace_bytes(); }},
      {"peak_bytes", "peak", Unit::bytes, [](S r) -> FieldValue { return r.footprint.peak_bytes(); }},
      {"peak_layer", "peak at layer", Unit::text, [](S r) -> FieldValue { return r.peak_layer; }},
      {"peak_phase", "peak in pass", Unit::text,
       [](S r) -> FieldValue { return std::string(event_kind_name(r.footprint.peak().kind)); }},
  };
  if (report.footprint.settings.uses_kv_cache()) {
    f.push_back({"kv_cache_tokens", "KV cache tokens", Unit::integer,
                 [](S r) -> FieldValue { return r.footprint.kv_cache_tokens; }});
    f.push_back({"kv_bytes_per_token", "KV bytes per token", Unit::bytes,
                 [](S r) -> FieldValue { return r.footprint.kv_bytes_per_token; }});
    f.push_back({"kv_cache_bytes", "KV cache", Unit::bytes, [](S r) -> FieldValue { return r.footprint.kv_cache_bytes(); }});
  }
  if (report.without_checkpoint) {
    f.push_back({"peak_bytes_without_checkpoint", "peak without checkpoint", Unit::bytes,
                 [](S r) -> FieldValue { return r.without_checkpoint->peak_bytes(); }});
    f.push_back({"checkpoint_saving_bytes", "checkpoint saving (< 0: costs more)", Unit::bytes,
                 [](S r) -> FieldValue { return *r.checkpoint_saving_bytes; }});
    f.push_back({"recompute_flops", "recompute FLOPs", Unit::count, [](S r) -> FieldValue { return r.footprint.recompute_flops; }});
    f.push_back({"recompute_bytes", "recompute bytes", Unit::bytes, [](S r) -> FieldValue { return r.footprint.recompute_bytes; }});
  }
  if (report.fit) {
    f.push_back({"hardware", "hardware", Unit::text, [](S r) -> FieldValue { return r.fit->hardware; }});
    f.push_back({"dram_bytes", "DRAM", Unit::bytes, [](S r) -> FieldValue { return r.fit->dram_bytes; }});
    f.push_back({"reserve_fraction", "reserve", Unit::fraction, [](S r) -> FieldValue { return r.fit->reserve_fraction; }});
    f.push_back({"capacity_bytes", "usable", Unit::bytes, [](S r) -> FieldValue { return r.fit->capacity_bytes; }});
    f.push_back({"fits", "fits", Unit::flag, [](S r) -> FieldValue { return r.fit->fits; }});
    f.push_back({"max_batch", "largest batch", Unit::integer, [](S r) -> FieldValue { return r.fit->max_batch; }});
    f.push_back({"max_batch_peak_bytes", "peak at largest batch", Unit::bytes,
                 [](S r) -> FieldValue { return r.fit->max_batch_peak; }});
    f.push_back({"next_batch_peak_bytes", "peak one batch above", Unit::bytes,
                 [](S r) -> FieldValue { return r.fit->next_batch_peak; }});
    if (report.fit->max_context)
      f.push_back({"max_context", "longest context", Unit::integer, [](S r) -> FieldValue { return *r.fit->max_context; }});
    f.push_back({"recompute_time_s", "recompute time", Unit::seconds, [](S r) -> FieldValue {
                   if (!r.fit->recompute_s) return NotApplicable{};
                   return *r.fit->recompute_s;
                 }});
  }
  return f;
}

std::vector<Field<MemoryTimelineRow>> memory_timeline_fields(const MemoryReport& report) {
  const bool training = report.footprint.settings.phase == Phase::training;
  const bool ckpt = report.footprint.checkpoint.kind != CheckpointPolicy::Kind::none;
  auto live = [](std::optional<int64_t> MemoryTimelineRow::*m) {
    return [m](T r) -> FieldValue {
      if (!(r.*m)) return NotApplicable{};
      return *(r.*m);
    };
  };
  std::vector<Field<MemoryTimelineRow>> f = {
      {"name", "layer", Unit::text, [](T r) -> FieldValue { return r.layer; }, true},
      {"op", "op", Unit::text, [](T r) -> FieldValue { return r.op; }, true}};
  if (ckpt) {
    f.push_back({"segment", "segment", Unit::integer, [](T r) -> FieldValue { return int64_t{r.segment}; }, true});
    f.push_back({"recomputed", "recomputed", Unit::flag, [](T r) -> FieldValue { return r.recomputed; }, true});
  }
  if (training) f.push_back({"kept_bytes", "kept", Unit::bytes, [](T r) -> FieldValue { return r.kept_bytes; }, true});
  f.push_back({"forward_live_bytes", "fwd live", Unit::bytes, live(&MemoryTimelineRow::forward_live_bytes), true});
  if (ckpt) f.push_back({"recompute_live_bytes", "recompute live", Unit::bytes, live(&MemoryTimelineRow::recompute_live_bytes), true});
  if (training) f.push_back({"backward_live_bytes", "bwd live", Unit::bytes, live(&MemoryTimelineRow::backward_live_bytes), true});
  f.push_back({"peak_phase", "peak", Unit::text, [](T r) -> FieldValue {
                 if (r.peak_phase.empty()) return NotApplicable{};
                 return r.peak_phase;
               }, true});
  return f;
}

}  // namespace ridge
