// Building the analyze report (see analyze_report.hpp).
#include "sim/views/analyze_report.hpp"

#include <algorithm>

#include "sim/base/format_units.hpp"
#include "sim/views/conventions.hpp"
#include "sim/views/hardware_view.hpp"
#include "sim/views/layer_fields.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

std::string settings_line(const RunResult& run) {
  const RunSettings& s = run.settings;
  std::string line = "model " + run.model + ", batch " + std::to_string(s.batch) + ", dtype " +
                     std::string(dtype_name(s.dtype)) + ", phase " + std::string(phase_name(s.phase));
  if (s.phase == Phase::training) line += ", optimizer " + std::string(optimizer_name(s.optimizer));
  if (s.phase == Phase::prefill) line += ", " + std::to_string(s.seq) + " prompt tokens per sequence";
  if (s.phase == Phase::decode) line += ", 1 new token per sequence after " + std::to_string(s.context) + " cached";
  if (s.uses_kv_cache()) line += ", KV cache " + std::string(dtype_name(s.cache_dtype()));
  if (s.weight_format != WeightFormat::same)
    line += ", linear weights " + std::string(weight_format_name(s.weight_format)) + " (one fp16 scale per " +
            std::to_string(s.weight_group) + (s.quantize_lm_head ? ", lm_head too)" : ")");
  if (s.overhead != LaunchOverhead::per_kernel)
    line += s.overhead == LaunchOverhead::none ? ", no launch overhead" : ", one launch per step (graph)";
  if (s.precision != Precision::uniform) line += ", precision " + precision_recipe(s);
  return line;
}

std::vector<std::string> preamble(const RunResult& run) {
  std::vector<std::string> lines = {settings_line(run)};
  for (const std::string& note : run.model_notes) lines.push_back("note: " + note);
  const LayerCost& total = run.totals.cost;
  if (total.active_params != total.params)
    lines.push_back("parameters " + format_count(static_cast<double>(total.params)) + " in all, " +
                    format_count(static_cast<double>(total.active_params)) +
                    " active per token (a mixture of experts: each token runs top_k of num_experts)");
  if (run.hardware) {
    lines.push_back(hardware_line(*run.hardware, run.settings.dtype));
    lines.push_back(run_summary_line(run));
  }
  for (const auto& line : counting_conventions()) lines.push_back(line);
  if (run.hardware) {
    // Classes whose calibration says compute and memory add (overlap = false) at this dtype.
    std::string adding;
    if (run.hardware->spec.calibration)
      for (const auto& [key, c] : run.hardware->spec.calibration->classes)
        if (!c.overlap && key.dtype == run.settings.dtype)
          adding += (adding.empty() ? "" : ", ") + std::string(op_class_name(key.op_class)) +
                    (key.library.empty() ? "" : " in " + key.library);
    lines.push_back("time: max(compute, memory)" +
                    (adding.empty() ? std::string() : " (compute + memory for " + adding + ": calibrated, they do not overlap)") +
                    " + link + launch; share: of the step time; need BW: bytes / compute "
                    "time, the bandwidth that keeps the layer compute-bound");
    if (run.settings.data_on == DataPlacement::host) lines.push_back("data on host: the input and the last output cross the link");
  }
  if (run.settings.uses_kv_cache())
    lines.push_back("kv: KV cache bytes, its own stream: read for every cached token, written for every new one "
                    "(2 x kv_heads x head_dim per token and attention layer)");
  if (run.settings.phase == Phase::training)
    lines.push_back("training: counts and bytes over forward + backward (dX: input gradient, none for a layer reading "
                    "only the model input; dW: weight gradient) + the optimizer update");
  return lines;
}

// On a calibrated descriptor, the op classes of the layers that do work but have no fit
// at the run's dtype (they run at the pure roofline), with how many layers each.
std::vector<std::pair<std::string, size_t>> uncalibrated_classes(const RunResult& run) {
  std::vector<std::pair<std::string, size_t>> classes;
  if (!run.hardware || !run.hardware->spec.calibration) return classes;
  for (const LayerResult& l : run.layers) {
    if (l.calibrated || (l.work.flops <= 0 && l.work.bytes() <= 0)) continue;
    const std::optional<KernelLibrary>& rule = run.hardware->spec.library;
    const std::string library = rule ? library_of(l.work, *rule) : "";
    std::string name = std::string(op_class_name(l.work.op_class)) + (library.empty() ? "" : " in " + library);
    auto it = std::find_if(classes.begin(), classes.end(), [&](const auto& c) { return c.first == name; });
    if (it == classes.end()) classes.push_back({name, 1});
    else ++it->second;
  }
  return classes;
}

// "pure roofline (no fit in v100-calibrated for fp32): 12 of 23 layers, classes ...".
std::string uncalibrated_line(const RunResult& run) {
  std::vector<std::pair<std::string, size_t>> classes = uncalibrated_classes(run);
  if (classes.empty()) return "";
  size_t count = 0;
  std::string list;
  for (const auto& [name, n] : classes) {
    count += n;
    list += (list.empty() ? "" : ", ") + name + " (" + std::to_string(n) + ")";
  }
  return "uncalibrated: " + std::to_string(count) + " of " + std::to_string(run.layers.size()) + " layers have no fit in " +
         run.hardware->spec.id + "'s [calibration] for their class at " + std::string(dtype_name(run.settings.dtype)) +
         " and run at the pure roofline: " + list + " (--columns name,op_class,calibrated,time_s lists them)";
}

// Layers that stand in, at zero cost, for ONNX nodes ridge does not model (--allow-unknown).
std::vector<std::string> unmodelled_layers(const RunResult& run) {
  std::vector<std::string> names;
  for (const LayerResult& l : run.layers)
    if (l.op == "unmodelled") names.push_back(l.name);
  return names;
}

}  // namespace

ColumnTable analyze_table(const RunResult& run, const ColumnChoice& columns) {
  std::vector<Field<LayerResult>> fields = layer_fields(run);
  std::vector<const Field<LayerResult>*> chosen = choose_fields(fields, columns);
  ColumnTable t;
  t.preamble = preamble(run);
  add_columns(t, chosen);
  for (const LayerResult& l : run.layers) t.rows.push_back(field_cells(chosen, l));
  t.totals = field_cells(chosen, run.totals);
  if (std::string line = uncalibrated_line(run); !line.empty()) t.footer.push_back(line);
  if (std::vector<std::string> u = unmodelled_layers(run); !u.empty()) {
    std::string names;
    for (size_t i = 0; i < u.size() && i < 8; ++i) names += (i ? ", " : "") + u[i];
    t.footer.push_back("unmodelled: " + std::to_string(u.size()) + " layer(s) counted at zero cost, left out of the "
                       "totals: " + names + (u.size() > 8 ? ", ..." : ""));
  }
  return t;
}

Json analyze_layers_json(const RunResult& run, const ColumnChoice& columns) {
  std::vector<Field<LayerResult>> fields = layer_fields(run);
  std::vector<const Field<LayerResult>*> chosen = choose_fields(fields, columns);
  Json layers = Json::array();
  for (const LayerResult& l : run.layers) {
    Json j = Json::object();
    put_fields(j, chosen, l);
    layers.push_back(std::move(j));
  }
  return layers;
}

Json analyze_totals_json(const RunResult& run, const ColumnChoice& columns) {
  std::vector<Field<LayerResult>> fields = layer_fields(run);
  Json totals = Json::object();
  put_fields(totals, choose_fields(fields, columns), run.totals);
  std::vector<Field<RunResult>> extra = run_fields(run);
  put_fields(totals, all_fields(extra), run);
  if (run.hardware && run.hardware->spec.calibration) {
    Json classes = Json::array();
    for (const auto& [op_class, layers] : uncalibrated_classes(run)) classes.push_back(op_class);
    totals["uncalibrated_classes"] = std::move(classes);
  }
  if (std::vector<std::string> u = unmodelled_layers(run); !u.empty()) {  // counted at zero cost (--allow-unknown)
    Json unmodelled = Json::array();
    for (const std::string& name : u) unmodelled.push_back(name);
    totals["unmodelled"] = std::move(unmodelled);
  }
  return totals;
}

Json analyze_json(const RunResult& run, const ColumnChoice& columns) {
  Json root = report_root(run.model, run.settings);
  Json conventions = Json::array();
  for (const auto& line : counting_conventions()) conventions.push_back(line);
  root["conventions"] = std::move(conventions);
  if (!run.model_notes.empty()) {
    Json notes = Json::array();
    for (const std::string& note : run.model_notes) notes.push_back(note);
    root["notes"] = std::move(notes);
  }
  if (run.hardware) {
    root["data_on"] = run.settings.data_on == DataPlacement::host ? "host" : "device";
    root["hardware"] = hardware_json(*run.hardware);
  }
  root["layers"] = analyze_layers_json(run, columns);
  root["totals"] = analyze_totals_json(run, columns);
  return root;
}

ColumnChoice machine_columns(const ColumnChoice& columns) {
  return columns.kind == ColumnChoice::Kind::compact ? ColumnChoice{ColumnChoice::Kind::all, {}} : columns;
}

void write_analyze(const RunResult& run, OutputFormat format, const ColumnChoice& columns, std::ostream& out,
                   const CsvStyle& csv) {
  bool machine = format == OutputFormat::csv || format == OutputFormat::json;
  ColumnChoice effective = machine ? machine_columns(columns) : columns;
  write_report(format, out, [&] { return analyze_json(run, effective); }, [&] { return analyze_table(run, effective); }, csv);
}

}  // namespace ridge
