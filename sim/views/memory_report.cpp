// Building the memory report (see memory_report.hpp).
#include "sim/views/memory_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/hardware_view.hpp"
#include "sim/views/memory_fields.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

std::string b(int64_t v) { return format_bytes(static_cast<double>(v)); }
std::string exact(int64_t v) { return format_raw(v) + " B"; }
// A capacity in GiB (capacity_text) and in SI bytes, as the memory report counts.
std::string capacity_and_si(double bytes) {
  std::string written = capacity_text(bytes), si = format_bytes(bytes);
  return written == si ? si : written + " (" + si + ")";
}

std::string peak_where(const MemoryReport& r) {
  return r.peak_layer + " (" + std::string(event_kind_name(r.footprint.peak().kind)) + ")";
}

std::string per_param_line(const MemoryFootprint& f) {
  const ByteSizes& z = f.sizes;
  std::string p = std::to_string(z.weight) + " (weights)";
  if (f.settings.phase != Phase::training) {
    if (f.settings.weight_format != WeightFormat::same)
      return p + ", linear layers " + std::string(weight_format_name(f.settings.weight_format)) +
             " with an fp16 scale per " + std::to_string(f.settings.weight_group);
    return p + " = " + std::to_string(z.weight) + " B/param";
  }
  p += " + " + std::to_string(z.gradient) + " (gradients)";
  if (z.master) p += " + " + std::to_string(z.master) + " (fp32 master)";
  if (z.state_slots)
    p += " + " + std::to_string(z.state * z.state_slots) + " (" + std::string(optimizer_name(f.settings.optimizer)) +
         " state, " + std::to_string(z.state_slots) + " x " + std::to_string(z.state) + ")";
  return p + " = " + std::to_string(z.per_param_training()) + " B/param";
}

std::vector<std::string> summary(const MemoryReport& r) {
  const MemoryFootprint& f = r.footprint;
  const RunSettings& s = f.settings;
  bool training = s.phase == Phase::training;
  std::vector<std::string> l;
  std::string head = "model " + r.model + ", batch " + std::to_string(s.batch) + ", phase " +
                     std::string(phase_name(s.phase)) + ", precision " + precision_recipe(s);
  if (training) head += ", optimizer " + std::string(optimizer_name(s.optimizer)) + ", checkpoint " + checkpoint_name(f.checkpoint);
  l.push_back(head);
  std::string stats = f.statistics_bytes ? " + saved statistics" : "";
  std::string stats_value = f.statistics_bytes ? " + " + b(f.statistics_bytes) : "";
  l.push_back("memory = model part" + stats + " + batch x per-sample part = " + b(f.model_bytes()) + stats_value + " + " +
              std::to_string(s.batch) + " x " + b(f.peak_per_sample) + " = " + b(f.peak_bytes()) + " (peak, at " +
              peak_where(r) + ")");
  std::string model = "model part: " + format_count(static_cast<double>(f.params)) + " params x " + per_param_line(f) +
                      ": parameters " + b(f.parameters_bytes);
  if (training) {
    if (f.master_weights_bytes) model += " + master weights " + b(f.master_weights_bytes);
    model += " + gradients " + b(f.gradients_bytes) + " + optimizer state " + b(f.optimizer_bytes);
  }
  l.push_back(model + " = " + b(f.model_bytes()));
  if (f.active_params != f.params)
    l.push_back("every expert is resident: " + format_count(static_cast<double>(f.params)) + " params, though a token uses " +
                format_count(static_cast<double>(f.active_params)) + " (top_k of num_experts)");
  if (training) {
    std::string kept = "activations kept for backward (end of forward): " + b(f.activations_bytes()) + " (" +
                       b(f.activations_per_sample) + " per sample";
    if (f.statistics_bytes)
      kept += ", and saved statistics " + b(f.statistics_bytes) + " per step: batchnorm's mean and 1/std, 2 fp32 per channel";
    l.push_back(kept + ")");
    std::string at = "at the peak: model part " + b(f.model_bytes()) + stats_value + " + kept activations " +
                     b(r.peak_kept_bytes);
    if (r.peak_recomputed_bytes) at += " + recomputed activations " + b(r.peak_recomputed_bytes);
    l.push_back(at + " + workspace " + b(f.workspace_bytes()) + " (transient activations " + b(r.peak_transient_bytes) +
                " + activation gradients " + b(r.peak_gradient_bytes) + ")");
  } else {
    l.push_back("live activations at the worst point (" + peak_where(r) + "): " + b(f.activations_bytes()) +
                " (a tensor is freed after its last consumer)");
  }
  if (s.uses_kv_cache())
    l.push_back("KV cache (" + std::string(dtype_name(s.cache_dtype())) + "): " + std::to_string(f.kv_cache_tokens) +
                " tokens x " + b(f.kv_bytes_per_token) + " per token (all layers' 2 x kv_heads x head_dim) x batch " +
                std::to_string(s.batch) + " = " + b(f.kv_cache_bytes()));
  if (r.without_checkpoint) {
    const MemoryFootprint& w = *r.without_checkpoint;
    int64_t saving = *r.checkpoint_saving_bytes;
    std::string effect = saving >= 0 ? "saves " + b(saving) : "costs " + b(-saving) + " more: the recompute holds more than it frees";
    std::string c = "checkpoint " + checkpoint_name(f.checkpoint) + ": peak " + b(f.peak_bytes()) + " instead of " +
                    b(w.peak_bytes()) + " (" + effect + "); recompute " +
                    format_count(static_cast<double>(f.recompute_flops)) + " FLOPs, " + b(f.recompute_bytes) +
                    " moved (forward of every segment but the last, once more)";
    if (r.fit) c += r.fit->recompute_s ? ", " + format_seconds(*r.fit->recompute_s) + " on " + r.fit->hardware
                                       : ", time: dtype not supported by " + r.fit->hardware;
    l.push_back(c);
  }
  if (r.fit) {
    const DeviceFit& d = *r.fit;
    l.push_back("device " + d.hardware + ": " + d.level + " " + capacity_and_si(d.dram_bytes) + " less " +
                format_fixed(d.reserve_fraction * 100, 1) + "% reserve (runtime context, allocator) = " +
                b(d.capacity_bytes) + " usable; " + (d.fits ? "fits" : "does NOT fit") + " at batch " +
                std::to_string(s.batch));
    if (d.max_batch > 0)
      l.push_back("largest batch that fits: " + std::to_string(d.max_batch) + " = floor((" + exact(d.capacity_bytes) +
                  " - " + exact(f.fixed_bytes()) + ") / " + exact(f.peak_per_sample) + "); verified: peak " +
                  exact(d.max_batch_peak) + ", batch " + std::to_string(d.max_batch + 1) + " would need " +
                  exact(d.next_batch_peak));
    else
      l.push_back("no batch fits: batch 1 needs " + b(d.next_batch_peak) + " (the model part" + stats + " alone " +
                  b(f.fixed_bytes()) + ")");
    if (d.max_context)
      l.push_back("longest context that fits at batch " + std::to_string(s.batch) + ": " +
                  std::to_string(*d.max_context) + " cached tokens" +
                  (d.max_context_capped ? " (the model's max_positions - 1; memory would hold more)"
                                        : " (the KV cache of the rest of the usable memory)"));
    else if (s.phase == Phase::decode)
      l.push_back("no context fits at batch " + std::to_string(s.batch) + ": not even an empty KV cache");
  }
  return l;
}

const std::vector<std::string>& rules() {
  static const std::vector<std::string> lines = {
      "rules: bytes = elements x dtype size, SI units (1 MB = 1e6 B); kept = what PyTorch's autograd saves for "
      "backward (a conv / linear input, a relu output, masks, pooling indices, norm statistics, an in-place layer's "
      "copy of the input it overwrites), a storage shared by in-place ops and views counted once; live = all memory "
      "in use at that layer's forward / recompute / backward",
      "workspace = activations not kept for backward + activation gradients, live at the peak; library scratch "
      "space (e.g. cuDNN workspace) is not modelled; weight gradients are held for the whole step",
  };
  return lines;
}

}  // namespace

ColumnTable memory_table(const MemoryReport& r, bool timeline, const ColumnChoice& columns) {
  ColumnTable t;
  t.preamble = summary(r);
  if (!timeline) {
    std::vector<Field<MemoryReport>> fields = memory_summary_fields(r);
    t.columns = {{"quantity", "quantity", false}, {"value", "value", true}, {"key", "key", false}};
    for (const Field<MemoryReport>* f : choose_fields(fields, columns.kind == ColumnChoice::Kind::compact
                                                                  ? ColumnChoice{ColumnChoice::Kind::all, {}}
                                                                  : columns)) {
      FieldValue v = f->get(r);
      if (std::holds_alternative<NotApplicable>(v)) continue;
      t.rows.push_back({text_cell(f->title), {human_text(v, f->unit), raw_text(v)}, text_cell(f->key)});
    }
    return t;
  }
  for (const auto& line : rules()) t.preamble.push_back(line);
  std::vector<Field<MemoryTimelineRow>> fields = memory_timeline_fields(r);
  std::vector<const Field<MemoryTimelineRow>*> chosen = choose_fields(fields, columns);
  add_columns(t, chosen);
  for (const MemoryTimelineRow& row : r.timeline) t.rows.push_back(field_cells(chosen, row));
  return t;
}

Json memory_json(const MemoryReport& r) {
  const MemoryFootprint& f = r.footprint;
  Json root = report_root(r.model, f.settings);
  root["precision_recipe"] = precision_recipe(f.settings);
  if (f.settings.phase == Phase::training) root["checkpoint"] = checkpoint_name(f.checkpoint);
  std::vector<Field<MemoryReport>> summary_fields = memory_summary_fields(r);
  put_fields(root, all_fields(summary_fields), r);
  Json rules_json = Json::array();
  for (const auto& line : rules()) rules_json.push_back(line);
  root["rules"] = std::move(rules_json);
  std::vector<Field<MemoryTimelineRow>> fields = memory_timeline_fields(r);
  Json layers = Json::array();
  for (const MemoryTimelineRow& row : r.timeline) {
    Json j = Json::object();
    put_fields(j, all_fields(fields), row);
    layers.push_back(std::move(j));
  }
  root["layers"] = std::move(layers);
  return root;
}

void write_memory(const MemoryReport& r, OutputFormat format, bool timeline, const ColumnChoice& columns,
                  std::ostream& out, const CsvStyle& csv) {
  if (format == OutputFormat::csv && !timeline) {  // one row of the summary numbers, keys as the header
    ColumnTable t;
    t.preamble = summary(r);
    std::vector<Field<MemoryReport>> fields = memory_summary_fields(r);
    std::vector<const Field<MemoryReport>*> chosen =
        choose_fields(fields, columns.kind == ColumnChoice::Kind::compact ? ColumnChoice{ColumnChoice::Kind::all, {}} : columns);
    add_columns(t, chosen);
    t.rows.push_back(field_cells(chosen, r));
    write_csv(t, out, csv);
    return;
  }
  write_report(format, out, [&] { return memory_json(r); }, [&] { return memory_table(r, timeline, columns); }, csv);
}

}  // namespace ridge
