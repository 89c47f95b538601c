// Building the memory report (see memory_report.hpp).
#include "sim/views/memory_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

Cell bytes_cell(int64_t v) { return {format_bytes(static_cast<double>(v)), format_raw(v)}; }
std::string b(int64_t v) { return format_bytes(static_cast<double>(v)); }
std::string exact(int64_t v) { return format_raw(v) + " B"; }
// A capacity as descriptors write it: GiB when it is a whole number of them, and SI.
std::string capacity_text(double bytes) {
  const double gib = 1024.0 * 1024 * 1024;
  std::string si = format_bytes(bytes);
  if (bytes >= gib && bytes / gib == static_cast<double>(static_cast<int64_t>(bytes / gib)))
    return format_raw(static_cast<int64_t>(bytes / gib)) + " GiB (" + si + ")";
  return si;
}

// Timeline event index of each layer's forward, recompute and backward (-1: none).
struct LayerEvents {
  std::vector<int> fwd, rec, bwd;
};
LayerEvents layer_events(const MemoryFootprint& f) {
  size_t n = f.layers.size();
  LayerEvents e{std::vector<int>(n, -1), std::vector<int>(n, -1), std::vector<int>(n, -1)};
  for (size_t i = 0; i < f.timeline.size(); ++i) {
    const MemoryEvent& ev = f.timeline[i];
    auto& slot = ev.kind == MemoryEvent::Kind::forward ? e.fwd : ev.kind == MemoryEvent::Kind::recompute ? e.rec : e.bwd;
    slot[ev.layer] = static_cast<int>(i);
  }
  return e;
}

std::string peak_where(const Model& m, const MemoryFootprint& f) {
  return m.layers[f.peak().layer].name + " (" + std::string(event_kind_name(f.peak().kind)) + ")";
}

std::string per_param_line(const MemoryFootprint& f) {
  const ByteSizes& z = f.sizes;
  std::string p = std::to_string(z.weight) + " (weights)";
  if (f.settings.phase == Phase::inference) return p + " = " + std::to_string(z.weight) + " B/param";
  p += " + " + std::to_string(z.gradient) + " (gradients)";
  if (z.master) p += " + " + std::to_string(z.master) + " (fp32 master)";
  if (z.state_slots)
    p += " + " + std::to_string(z.state * z.state_slots) + " (" + std::string(optimizer_name(f.settings.optimizer)) +
         " state, " + std::to_string(z.state_slots) + " x " + std::to_string(z.state) + ")";
  return p + " = " + std::to_string(z.per_param_training()) + " B/param";
}

std::vector<std::string> summary(const Model& m, const MemoryReport& r) {
  const MemoryFootprint& f = r.footprint;
  const RunSettings& s = f.settings;
  bool training = s.phase == Phase::training;
  std::vector<std::string> l;
  std::string head = "model " + m.name + ", batch " + std::to_string(s.batch) + ", phase " +
                     std::string(phase_name(s.phase)) + ", precision " + precision_recipe(s);
  if (training) head += ", optimizer " + std::string(optimizer_name(s.optimizer)) + ", checkpoint " + checkpoint_name(f.checkpoint);
  l.push_back(head);
  l.push_back("memory = model part + batch x per-sample part = " + b(f.model_bytes()) + " + " + std::to_string(s.batch) +
              " x " + b(f.peak_per_sample) + " = " + b(f.peak_bytes()) + " (peak, at " + peak_where(m, f) + ")");
  std::string model = "model part: " + format_count(static_cast<double>(f.params)) + " params x " + per_param_line(f) +
                      ": parameters " + b(f.parameters_bytes);
  if (training) {
    if (f.master_weights_bytes) model += " + master weights " + b(f.master_weights_bytes);
    model += " + gradients " + b(f.gradients_bytes) + " + optimizer state " + b(f.optimizer_bytes);
  }
  l.push_back(model + " = " + b(f.model_bytes()));
  const MemoryEvent& p = f.peak();
  int64_t n = s.batch;
  if (training) {
    l.push_back("activations kept for backward (end of forward): " + b(f.activations_bytes()) + " (" +
                b(f.activations_per_sample) + " per sample)");
    std::string at = "at the peak: model part " + b(f.model_bytes()) + " + kept activations " + b(p.kept * n);
    if (p.recomputed) at += " + recomputed activations " + b(p.recomputed * n);
    l.push_back(at + " + workspace " + b(f.workspace_bytes()) + " (transient activations " + b(p.transient * n) +
                " + activation gradients " + b(p.gradients * n) + ")");
  } else {
    l.push_back("live activations at the worst point (" + peak_where(m, f) + "): " + b(f.activations_bytes()) +
                " (a tensor is freed after its last consumer)");
  }
  if (s.uses_kv_cache())
    l.push_back("KV cache (" + std::string(dtype_name(s.cache_dtype())) + "): " + std::to_string(f.kv_cache_tokens) +
                " tokens x " + b(f.kv_bytes_per_token) + " per token (all layers' 2 x kv_heads x head_dim) x batch " +
                std::to_string(s.batch) + " = " + b(f.kv_cache_bytes()));
  if (r.without_checkpoint) {
    const MemoryFootprint& w = *r.without_checkpoint;
    std::string c = "checkpoint " + checkpoint_name(f.checkpoint) + ": peak " + b(f.peak_bytes()) + " instead of " +
                    b(w.peak_bytes()) + " (saves " + b(w.peak_bytes() - f.peak_bytes()) + "); recompute " +
                    format_count(static_cast<double>(f.recompute_flops)) + " FLOPs, " + b(f.recompute_bytes) +
                    " moved (forward of every segment but the last, once more)";
    if (r.fit) c += r.fit->recompute_s ? ", " + format_seconds(*r.fit->recompute_s) + " on " + r.fit->hardware
                                       : ", time: dtype not supported by " + r.fit->hardware;
    l.push_back(c);
  }
  if (r.fit) {
    const DeviceFit& d = *r.fit;
    l.push_back("device " + d.hardware + ": " + d.level + " " + capacity_text(d.dram_bytes) + " less " +
                format_fixed(d.reserve_fraction * 100, 1) + "% reserve (runtime context, allocator) = " +
                b(d.capacity_bytes) + " usable; " + (d.fits ? "fits" : "does NOT fit") + " at batch " +
                std::to_string(s.batch));
    if (d.max_batch > 0)
      l.push_back("largest batch that fits: " + std::to_string(d.max_batch) + " = floor((" + exact(d.capacity_bytes) +
                  " - " + exact(f.model_bytes()) + ") / " + exact(f.peak_per_sample) + "); verified: peak " +
                  exact(d.max_batch_peak) + ", batch " + std::to_string(d.max_batch + 1) + " would need " +
                  exact(d.next_batch_peak));
    else
      l.push_back("no batch fits: batch 1 needs " + b(d.next_batch_peak) + " (the model part alone " +
                  b(f.model_bytes()) + ")");
    if (d.max_context)
      l.push_back("longest context that fits at batch " + std::to_string(s.batch) + ": " +
                  std::to_string(*d.max_context) + " cached tokens" +
                  (d.max_context_capped ? " (the model's max_positions - 1; memory would hold more)"
                                        : " (the KV cache of the rest of the usable memory)"));
  }
  return l;
}

const std::vector<std::string>& rules() {
  static const std::vector<std::string> lines = {
      "rules: bytes = elements x dtype size, SI units (1 MB = 1e6 B); kept = what backward needs (a conv / linear "
      "input, a relu output, masks, pooling indices, norm statistics), a storage shared by in-place ops and views "
      "counted once; live = all memory in use at that layer's forward / recompute / backward",
      "workspace = activations not kept for backward + activation gradients, live at the peak; library scratch "
      "space (e.g. cuDNN workspace) is not modelled; weight gradients are held for the whole step",
  };
  return lines;
}

}  // namespace

ColumnTable memory_table(const Model& model, const MemoryReport& r) {
  const MemoryFootprint& f = r.footprint;
  bool training = f.settings.phase == Phase::training;
  bool ckpt = f.checkpoint.kind != CheckpointPolicy::Kind::none;
  ColumnTable t;
  t.preamble = summary(model, r);
  for (const auto& line : rules()) t.preamble.push_back(line);
  t.columns = {{"layer", "layer", false}, {"op", "op", false}};
  if (ckpt) t.columns.push_back({"segment", "segment"});
  if (training) t.columns.push_back({"kept", "kept_bytes"});
  t.columns.push_back({"fwd live", "forward_live_bytes"});
  if (ckpt) t.columns.push_back({"recompute live", "recompute_live_bytes"});
  if (training) t.columns.push_back({"bwd live", "backward_live_bytes"});
  t.columns.push_back({"peak", "peak", false});
  LayerEvents ev = layer_events(f);
  auto live = [&](int e) { return e < 0 ? text_cell("") : bytes_cell(f.live_bytes(f.timeline[e])); };
  auto mark = [&](size_t i) {
    std::string m;
    for (int e : {ev.fwd[i], ev.rec[i], ev.bwd[i]})
      if (e == static_cast<int>(f.peak_event)) m = "<- peak (" + std::string(event_kind_name(f.peak().kind)) + ")";
    return text_cell(m);
  };
  if (training) {
    std::vector<Cell> row = {text_cell("(input)"), text_cell("input")};
    if (ckpt) row.push_back(text_cell(""));
    row.push_back(bytes_cell(f.input_kept_per_sample * f.settings.batch));
    while (row.size() < t.columns.size()) row.push_back(text_cell(""));
    t.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const LayerMemory& l = f.layers[i];
    std::vector<Cell> row = {text_cell(model.layers[i].name), text_cell(model.layers[i].op)};
    if (ckpt) row.push_back(text_cell(std::to_string(l.segment) + (l.recomputed ? " (recomputed)" : "")));
    if (training) row.push_back(bytes_cell(l.kept_per_sample * f.settings.batch));
    row.push_back(live(ev.fwd[i]));
    if (ckpt) row.push_back(live(ev.rec[i]));
    if (training) row.push_back(live(ev.bwd[i]));
    row.push_back(mark(i));
    t.rows.push_back(std::move(row));
  }
  t.totals = {text_cell("total"), text_cell("")};
  if (ckpt) t.totals.push_back(text_cell(""));
  if (training) t.totals.push_back(bytes_cell(f.activations_bytes()));
  while (t.totals.size() + 1 < t.columns.size()) t.totals.push_back(text_cell(""));
  t.totals.push_back(text_cell("peak " + b(f.peak_bytes())));
  return t;
}

Json memory_json(const Model& model, const MemoryReport& r) {
  const MemoryFootprint& f = r.footprint;
  const RunSettings& s = f.settings;
  bool training = s.phase == Phase::training;
  Json root = report_root(model.name, s);
  root.set("precision_recipe", precision_recipe(s));
  if (training) root.set("checkpoint", checkpoint_name(f.checkpoint));
  root.set("params", f.params);
  root.set("bytes_per_param", training ? f.sizes.per_param_training() : f.sizes.weight);
  root.set("parameters_bytes", f.parameters_bytes);
  root.set("master_weights_bytes", f.master_weights_bytes);
  root.set("gradients_bytes", f.gradients_bytes);
  root.set("optimizer_bytes", f.optimizer_bytes);
  root.set("model_bytes", f.model_bytes());
  root.set("per_sample_bytes", f.peak_per_sample);
  root.set("activations_bytes", f.activations_bytes());
  if (s.uses_kv_cache()) {
    root.set("kv_cache_tokens", f.kv_cache_tokens);
    root.set("kv_cache_bytes", f.kv_cache_bytes());
  }
  root.set("workspace_bytes", f.workspace_bytes());
  root.set("peak_bytes", f.peak_bytes());
  root.set("peak_layer", model.layers[f.peak().layer].name);
  root.set("peak_phase", std::string(event_kind_name(f.peak().kind)));
  if (r.without_checkpoint) {
    root.set("peak_bytes_without_checkpoint", r.without_checkpoint->peak_bytes());
    root.set("recompute_flops", f.recompute_flops);
    root.set("recompute_bytes", f.recompute_bytes);
  }
  if (r.fit) {
    const DeviceFit& d = *r.fit;
    root.set("hardware", d.hardware);
    root.set("dram_bytes", static_cast<int64_t>(d.dram_bytes));
    root.set("reserve_fraction", d.reserve_fraction);
    root.set("capacity_bytes", d.capacity_bytes);
    root.set("fits", d.fits);
    root.set("max_batch", d.max_batch);
    root.set("max_batch_peak_bytes", d.max_batch_peak);
    root.set("next_batch_peak_bytes", d.next_batch_peak);
    if (d.recompute_s) root.set("recompute_time_s", *d.recompute_s);
    if (d.max_context) root.set("max_context", *d.max_context);
  }
  Json rules_json = Json::array();
  for (const auto& line : rules()) rules_json.push(line);
  root.set("rules", rules_json);
  LayerEvents ev = layer_events(f);
  Json layers = Json::array();
  auto put_live = [&](Json& j, const char* key, int e) {
    if (e >= 0) j.set(key, f.live_bytes(f.timeline[e]));
  };
  for (size_t i = 0; i < model.layers.size(); ++i) {
    Json j = Json::object();
    j.set("name", model.layers[i].name);
    j.set("op", model.layers[i].op);
    if (training) j.set("kept_bytes", f.layers[i].kept_per_sample * s.batch);
    if (f.layers[i].segment >= 0) {
      j.set("segment", f.layers[i].segment);
      j.set("recomputed", f.layers[i].recomputed);
    }
    put_live(j, "forward_live_bytes", ev.fwd[i]);
    put_live(j, "recompute_live_bytes", ev.rec[i]);
    put_live(j, "backward_live_bytes", ev.bwd[i]);
    layers.push(std::move(j));
  }
  root.set("layers", layers);
  return root;
}

void write_memory(const Model& model, const MemoryReport& report, OutputFormat format, std::ostream& out) {
  write_report(format, out, [&] { return memory_json(model, report); }, [&] { return memory_table(model, report); });
}

}  // namespace ridge
