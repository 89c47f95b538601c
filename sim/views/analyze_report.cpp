// Building the analyze report (see analyze_report.hpp).
#include "sim/views/analyze_report.hpp"

#include "sim/views/format_units.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

Cell count_cell(int64_t v) { return {format_count(static_cast<double>(v)), format_raw(v)}; }
Cell bytes_cell(int64_t v) { return {format_bytes(static_cast<double>(v)), format_raw(v)}; }
Cell ratio_cell(double v) { return {format_fixed(v, 2), format_raw(v)}; }

std::vector<Cell> cost_cells(const LayerCost& c, bool training) {
  std::vector<Cell> cells = {count_cell(c.params),      count_cell(c.macs),         count_cell(c.flops),
                             bytes_cell(c.input_bytes), bytes_cell(c.output_bytes), bytes_cell(c.weight_bytes),
                             ratio_cell(c.arithmetic_intensity())};
  if (training)
    for (Cell cell : {count_cell(c.backward_input_macs), count_cell(c.backward_weight_macs), count_cell(c.backward_macs),
                      count_cell(c.backward_flops), bytes_cell(c.backward_input_bytes),
                      bytes_cell(c.backward_output_bytes), bytes_cell(c.backward_weight_bytes),
                      count_cell(c.update_flops), bytes_cell(c.update_bytes)})
      cells.push_back(std::move(cell));
  return cells;
}

std::string settings_line(const Model& m, const RunSettings& s) {
  std::string line = "model " + m.name + ", batch " + std::to_string(s.batch) + ", dtype " +
                     std::string(dtype_name(s.dtype)) + ", phase " + std::string(phase_name(s.phase));
  if (s.phase == Phase::training) line += ", optimizer " + std::string(optimizer_name(s.optimizer));
  if (s.precision != Precision::uniform) line += ", precision " + precision_recipe(s);
  return line;
}

}  // namespace

ColumnTable analyze_table(const Model& model, const CostAnalysis& costs) {
  bool training = costs.settings.phase == Phase::training;
  ColumnTable t;
  t.preamble.push_back(settings_line(model, costs.settings));
  for (const auto& line : counting_conventions()) t.preamble.push_back(line);
  t.columns = {{"layer", "layer", false},        {"op", "op", false},
               {"output", "output_shape", false}, {"params", "params"},
               {"MACs", "macs"},                  {"FLOPs", "flops"},
               {"input", "input_bytes"},          {"output", "output_bytes"},
               {"weights", "weight_bytes"},       {"FLOP/B", "arithmetic_intensity"}};
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
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    std::vector<Cell> row = {text_cell(l.name), text_cell(l.op), text_cell(shape_to_string(l.output, costs.settings.batch))};
    for (Cell& c : cost_cells(costs.layers[i], training)) row.push_back(std::move(c));
    t.rows.push_back(std::move(row));
  }
  t.totals = {text_cell("total"), text_cell(""), text_cell("")};
  for (Cell& c : cost_cells(costs.totals, training)) t.totals.push_back(std::move(c));
  return t;
}

namespace {
void put_counts(Json& j, const LayerCost& c, bool training) {
  j.set("params", c.params);
  j.set("macs", c.macs);
  j.set("flops", c.flops);
  j.set("input_bytes", c.input_bytes);
  j.set("output_bytes", c.output_bytes);
  j.set("weight_bytes", c.weight_bytes);
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
}  // namespace

Json analyze_json(const Model& model, const CostAnalysis& costs) {
  const RunSettings& s = costs.settings;
  bool training = s.phase == Phase::training;
  Json root = report_root(model.name, s);
  Json conventions = Json::array();
  for (const auto& line : counting_conventions()) conventions.push(line);
  root.set("conventions", conventions);
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
    put_counts(j, costs.layers[i], training);
    layers.push(std::move(j));
  }
  root.set("layers", layers);
  Json totals = Json::object();
  put_counts(totals, costs.totals, training);
  root.set("totals", totals);
  return root;
}

void write_analyze(const Model& model, const CostAnalysis& costs, OutputFormat format, std::ostream& out) {
  write_report(format, out, [&] { return analyze_json(model, costs); }, [&] { return analyze_table(model, costs); });
}

}  // namespace ridge
