// Building the analyze report (see analyze_report.hpp).
#include "sim/views/analyze_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/write_report.hpp"
#include "sim/views/hardware_view.hpp"

namespace ridge {

namespace {

Cell count_cell(int64_t v) { return {format_count(static_cast<double>(v)), format_raw(v)}; }
Cell bytes_cell(int64_t v) { return {format_bytes(static_cast<double>(v)), format_raw(v)}; }
Cell ratio_cell(double v) { return {format_fixed(v, 2), format_raw(v)}; }

std::vector<Cell> cost_cells(const LayerCost& c, bool training, bool kv) {
  std::vector<Cell> cells = {count_cell(c.params),      count_cell(c.macs),         count_cell(c.flops),
                             bytes_cell(c.input_bytes), bytes_cell(c.output_bytes), bytes_cell(c.weight_bytes)};
  if (kv) cells.push_back(bytes_cell(c.kv_bytes));
  cells.push_back(ratio_cell(c.arithmetic_intensity()));
  if (training)
    for (Cell cell : {count_cell(c.backward_input_macs), count_cell(c.backward_weight_macs), count_cell(c.backward_macs),
                      count_cell(c.backward_flops), bytes_cell(c.backward_input_bytes),
                      bytes_cell(c.backward_output_bytes), bytes_cell(c.backward_weight_bytes),
                      count_cell(c.update_flops), bytes_cell(c.update_bytes)})
      cells.push_back(std::move(cell));
  return cells;
}

Cell seconds_cell(double s) { return {format_seconds(s), format_raw(s)}; }
Cell bandwidth_cell(double Bps) { return {format_bandwidth(Bps), format_raw(Bps)}; }

// Levels that serve traffic in some layer: one time column each when more than DRAM does.
std::vector<size_t> used_levels(const TimedRun& r) {
  std::vector<size_t> used;
  for (size_t k = 0; k < r.hw.memory.size(); ++k)
    for (const LayerTimed& l : r.timing.layers)
      if (k < l.timing.level_s.size() && l.timing.level_s[k] > 0) {
        used.push_back(k);
        break;
      }
  if (used.size() == 1 && used[0] == 0) used.clear();
  return used;
}

void add_timing_columns(ColumnTable& t, const TimedRun& r, const std::vector<size_t>& levels, bool kv) {
  t.columns.push_back({"compute", "compute_time_s"});
  for (size_t k : levels) t.columns.push_back({r.hw.memory[k].name, "memory_time_" + r.hw.memory[k].name + "_s"});
  for (Column c : std::vector<Column>{{"memory", "memory_time_s"},
                                      {"link", "link_time_s"},
                                      {"launch", "overhead_time_s"},
                                      {"time", "time_s"},
                                      {"bound", "bound", false},
                                      {"FLOP/s", "attained_flops"},
                                      {"%peak", "peak_percent"},
                                      {"need BW", "required_bandwidth_Bps"},
                                      {"need in", "required_input_Bps"},
                                      {"need out", "required_output_Bps"},
                                      {"need w", "required_weights_Bps"}})
    t.columns.push_back(std::move(c));
  if (kv) t.columns.push_back({"need kv", "required_kv_Bps"});
}

void add_timing_cells(std::vector<Cell>& row, const LayerTimed& l, const TimedRun& r, const std::vector<size_t>& levels,
                      bool kv) {
  const LayerTiming& t = l.timing;
  row.push_back(seconds_cell(t.compute_s));
  for (size_t k : levels) row.push_back(seconds_cell(k < t.level_s.size() ? t.level_s[k] : 0.0));
  row.push_back(seconds_cell(t.memory_s));
  row.push_back(seconds_cell(t.link_s));
  row.push_back(seconds_cell(t.overhead_s));
  row.push_back(seconds_cell(t.time_s));
  row.push_back(text_cell(l.work.kernels == 0 && t.time_s == 0 ? "-" : bound_name(t, r.hw)));
  row.push_back({format_rate(l.attained_flops, "FLOP/s"), format_raw(l.attained_flops)});
  row.push_back(ratio_cell(100 * l.peak_fraction));
  row.push_back(bandwidth_cell(t.required_Bps()));
  row.push_back(bandwidth_cell(t.required_input_Bps));
  row.push_back(bandwidth_cell(t.required_output_Bps));
  row.push_back(bandwidth_cell(t.required_weight_Bps));
  if (kv) row.push_back(bandwidth_cell(t.required_kv_Bps));
}

void add_timing_totals(std::vector<Cell>& row, const TimedRun& r, const std::vector<size_t>& levels, bool kv) {
  const TimingTotals& t = r.timing.totals;
  row.push_back(seconds_cell(t.compute_s));
  for (size_t k : levels) {
    double sum = 0;
    for (const LayerTimed& l : r.timing.layers) sum += k < l.timing.level_s.size() ? l.timing.level_s[k] : 0.0;
    row.push_back(seconds_cell(sum));
  }
  row.push_back(seconds_cell(t.memory_s));
  row.push_back(seconds_cell(t.link_s));
  row.push_back(seconds_cell(t.overhead_s));
  row.push_back(seconds_cell(t.time_s));
  row.push_back(text_cell(""));
  row.push_back({format_rate(t.attained_flops, "FLOP/s"), format_raw(t.attained_flops)});
  row.push_back(ratio_cell(100 * t.peak_fraction));
  for (int k = 0; k < (kv ? 5 : 4); ++k) row.push_back(text_cell(""));
}

std::string settings_line(const Model& m, const RunSettings& s) {
  std::string line = "model " + m.name + ", batch " + std::to_string(s.batch) + ", dtype " +
                     std::string(dtype_name(s.dtype)) + ", phase " + std::string(phase_name(s.phase));
  if (s.phase == Phase::training) line += ", optimizer " + std::string(optimizer_name(s.optimizer));
  if (s.phase == Phase::prefill) line += ", " + std::to_string(m.input[0]) + " tokens per sequence";
  if (s.phase == Phase::decode) line += ", 1 new token per sequence, context " + std::to_string(s.context);
  if (s.uses_kv_cache()) line += ", KV cache " + std::string(dtype_name(s.cache_dtype()));
  if (s.precision != Precision::uniform) line += ", precision " + precision_recipe(s);
  return line;
}

}  // namespace

ColumnTable analyze_table(const Model& model, const CostAnalysis& costs, const TimedRun* timed) {
  bool training = costs.settings.phase == Phase::training;
  bool kv = costs.settings.uses_kv_cache();
  ColumnTable t;
  t.preamble.push_back(settings_line(model, costs.settings));
  if (timed) {
    t.preamble.push_back(hardware_line(timed->hw, timed->timing));
    t.preamble.push_back(timing_totals_line(timed->timing));
  }
  for (const auto& line : counting_conventions()) t.preamble.push_back(line);
  if (timed) {
    t.preamble.push_back("time: max(compute, memory) + link + launch; need BW: bytes / compute time, the bandwidth "
                         "that keeps the layer compute-bound");
    if (costs.settings.data_on == DataPlacement::host) t.preamble.push_back("data on host: the input and the last output cross the link");
  }
  std::vector<size_t> levels = timed ? used_levels(*timed) : std::vector<size_t>{};
  t.columns = {{"layer", "layer", false},        {"op", "op", false},
               {"output", "output_shape", false}, {"params", "params"},
               {"MACs", "macs"},                  {"FLOPs", "flops"},
               {"input", "input_bytes"},          {"output", "output_bytes"},
               {"weights", "weight_bytes"}};
  if (kv) t.columns.push_back({"kv", "kv_bytes"});
  t.columns.push_back({"FLOP/B", "arithmetic_intensity"});
  if (kv)
    t.preamble.push_back("kv: KV cache bytes read (cached tokens) and written (new tokens), its own stream");
  if (training) {
    t.preamble.push_back(
        "training: dX = input-gradient MACs (none for a layer reading only the model input), dW = weight-gradient "
        "MACs; bwd read = output gradient + saved tensors, bwd write = input gradient, bwd wts = weights read + "
        "weight gradients written; upd = optimizer update (gradients, weights, master weights, state)");
    for (Column col : std::initializer_list<Column>{{"dX MACs", "backward_input_macs"},
                                                    {"dW MACs", "backward_weight_macs"},
                                                    {"bwd MACs", "backward_macs"},
                                                    {"bwd FLOPs", "backward_flops"},
                                                    {"bwd read", "backward_input_bytes"},
                                                    {"bwd write", "backward_output_bytes"},
                                                    {"bwd wts", "backward_weight_bytes"},
                                                    {"upd FLOPs", "update_flops"},
                                                    {"upd bytes", "update_bytes"}})
      t.columns.push_back(col);
  }
  if (timed) add_timing_columns(t, *timed, levels, kv);
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    std::vector<Cell> row = {text_cell(l.name), text_cell(l.op), text_cell(shape_to_string(l.output, costs.settings.batch))};
    for (Cell& c : cost_cells(costs.layers[i], training, kv)) row.push_back(std::move(c));
    if (timed) add_timing_cells(row, timed->timing.layers[i], *timed, levels, kv);
    t.rows.push_back(std::move(row));
  }
  t.totals = {text_cell("total"), text_cell(""), text_cell("")};
  for (Cell& c : cost_cells(costs.totals, training, kv)) t.totals.push_back(std::move(c));
  if (timed) add_timing_totals(t.totals, *timed, levels, kv);
  return t;
}

namespace {
void put_counts(Json& j, const LayerCost& c, bool training, bool kv) {
  j.set("params", c.params);
  j.set("macs", c.macs);
  j.set("flops", c.flops);
  j.set("input_bytes", c.input_bytes);
  j.set("output_bytes", c.output_bytes);
  j.set("weight_bytes", c.weight_bytes);
  if (kv) j.set("kv_bytes", c.kv_bytes);
  j.set("arithmetic_intensity", c.arithmetic_intensity());
  if (training) {
    j.set("backward_macs", c.backward_macs);
    j.set("backward_flops", c.backward_flops);
    j.set("backward_input_macs", c.backward_input_macs);
    j.set("backward_weight_macs", c.backward_weight_macs);
    j.set("backward_input_bytes", c.backward_input_bytes);
    j.set("backward_output_bytes", c.backward_output_bytes);
    j.set("backward_weight_bytes", c.backward_weight_bytes);
    j.set("update_flops", c.update_flops);
    j.set("update_bytes", c.update_bytes);
  }
}

// The time keys layers and totals share.
template <class T>
void put_times(Json& j, const T& t) {
  j.set("compute_time_s", t.compute_s);
  j.set("memory_time_s", t.memory_s);
  j.set("link_time_s", t.link_s);
  j.set("overhead_time_s", t.overhead_s);
  j.set("time_s", t.time_s);
}

void put_timing(Json& j, const LayerTimed& l, const HardwareSpec& hw, bool kv) {
  const LayerTiming& t = l.timing;
  put_times(j, t);
  Json levels = Json::object();
  for (size_t k = 0; k < hw.memory.size() && k < t.level_s.size(); ++k) levels.set(hw.memory[k].name, t.level_s[k]);
  j.set("memory_time_by_level_s", levels);
  j.set("bound", bound_name(t, hw));
  j.set("attained_flops", l.attained_flops);
  j.set("peak_fraction", l.peak_fraction);
  j.set("required_bandwidth_Bps", t.required_Bps());
  Json by = Json::object();
  by.set("input", t.required_input_Bps);
  by.set("output", t.required_output_Bps);
  by.set("weights", t.required_weight_Bps);
  if (kv) by.set("kv", t.required_kv_Bps);
  j.set("required_bandwidth_by_tensor_Bps", by);
  auto level_name = [&](int k) { return k >= 0 && static_cast<size_t>(k) < hw.memory.size() ? hw.memory[k].name : ""; };
  Json placed = Json::object();
  placed.set("input", level_name(t.input_level));
  placed.set("output", level_name(t.output_level));
  placed.set("weights", level_name(t.weight_level));
  if (kv) placed.set("kv", level_name(t.kv_level));
  j.set("memory_level_by_tensor", placed);
}

void put_timing_totals(Json& j, const TimingTotals& t) {
  put_times(j, t);
  j.set("samples_per_s", t.samples_per_s);
  j.set("memory_bound_share", t.memory_bound_share);
  j.set("attained_flops", t.attained_flops);
  j.set("peak_fraction", t.peak_fraction);
}
}  // namespace

Json analyze_json(const Model& model, const CostAnalysis& costs, const TimedRun* timed) {
  const RunSettings& s = costs.settings;
  bool training = s.phase == Phase::training;
  bool kv = s.uses_kv_cache();
  Json root = report_root(model.name, s);
  Json conventions = Json::array();
  for (const auto& line : counting_conventions()) conventions.push(line);
  root.set("conventions", conventions);
  if (timed) {
    root.set("data_on", costs.settings.data_on == DataPlacement::host ? "host" : "device");
    root.set("hardware", hardware_json(timed->hw, timed->timing));
  }
  Json layers = Json::array();
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    Json j = Json::object();
    j.set("name", l.name);
    j.set("op", l.op);
    Json shape = Json::array();
    shape.push(s.batch);
    for (int64_t d : l.output) shape.push(d);
    j.set("output_shape", shape);
    put_counts(j, costs.layers[i], training, kv);
    if (timed) put_timing(j, timed->timing.layers[i], timed->hw, kv);
    layers.push(std::move(j));
  }
  root.set("layers", layers);
  Json totals = Json::object();
  put_counts(totals, costs.totals, training, kv);
  if (timed) put_timing_totals(totals, timed->timing.totals);
  root.set("totals", totals);
  return root;
}

void write_analyze(const Model& model, const CostAnalysis& costs, OutputFormat format, std::ostream& out,
                   const TimedRun* timed) {
  write_report(format, out, [&] { return analyze_json(model, costs, timed); },
               [&] { return analyze_table(model, costs, timed); });
}

}  // namespace ridge
