// Deriving the memory report (see memory_result.hpp).
#include "sim/engine/memory_result.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge {

namespace {

std::vector<MemoryTimelineRow> timeline_rows(const Model& model, const MemoryFootprint& f) {
  std::vector<MemoryTimelineRow> rows(model.layers.size());
  for (size_t i = 0; i < model.layers.size(); ++i) {
    MemoryTimelineRow& r = rows[i];
    r.layer = model.layers[i].name;
    r.op = model.layers[i].op;
    r.segment = f.layers[i].segment;
    r.recomputed = f.layers[i].recomputed;
    r.kept_bytes = checked_mul(f.layers[i].kept_per_sample, f.settings.batch);
  }
  for (size_t e = 0; e < f.timeline.size(); ++e) {
    const MemoryEvent& ev = f.timeline[e];
    MemoryTimelineRow& r = rows[static_cast<size_t>(ev.layer)];
    std::optional<int64_t>& slot = ev.kind == MemoryEvent::Kind::forward     ? r.forward_live_bytes
                                   : ev.kind == MemoryEvent::Kind::recompute ? r.recompute_live_bytes
                                                                             : r.backward_live_bytes;
    slot = f.live_bytes(ev);
    if (e == f.peak_event) r.peak_phase = std::string(event_kind_name(ev.kind));
  }
  return rows;
}

}  // namespace

MemoryReport analyze_memory(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint,
                            const HardwareSpec* hw, const HardwareModel* hw_model, double reserve_fraction) {
  MemoryReport r;
  r.model = model.name;
  r.footprint = memory_footprint(model, settings, checkpoint);
  const MemoryFootprint& f = r.footprint;
  const MemoryEvent& p = f.peak();
  r.peak_layer = model.layers[static_cast<size_t>(p.layer)].name;
  r.peak_kept_bytes = checked_mul(p.kept, settings.batch);
  r.peak_recomputed_bytes = checked_mul(p.recomputed, settings.batch);
  r.peak_transient_bytes = checked_mul(p.transient, settings.batch);
  r.peak_gradient_bytes = checked_mul(p.gradients, settings.batch);
  if (f.checkpoint.kind != CheckpointPolicy::Kind::none) {
    r.without_checkpoint = memory_footprint(model, settings, CheckpointPolicy{});
    r.checkpoint_saving_bytes = r.without_checkpoint->peak_bytes() - f.peak_bytes();
  }
  if (hw && hw_model) r.fit = fit_on_device(model, f, *hw, *hw_model, reserve_fraction);
  r.timeline = timeline_rows(model, f);
  return r;
}

}  // namespace ridge
