// Parallel training views (see parallel_report.hpp).
#include "sim/views/parallel_report.hpp"

#include <iomanip>

#include "sim/base/format_units.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/parallel_fields.hpp"

namespace ridge {

Json plan_json(const ParallelPlan& p) {
  Json j = Json::object();
  put_fields(j, all_fields(parallel_plan_fields()), p);
  return j;
}

Json totals_json(const ParallelResult& r) {
  Json t = Json::object();
  put_fields(t, all_fields(parallel_totals_fields()), r);
  return t;
}

namespace {

Json memory_json(const TrainingEstimate& e) {
  Json m = Json::object();
  m["weights_bytes"] = e.memory.weights;
  m["gradients_bytes"] = e.memory.gradients;
  m["optimizer_bytes"] = e.memory.optimizer;
  m["activations_bytes"] = e.memory.activations;
  m["total_bytes"] = e.memory.total();
  m["capacity_bytes"] = e.capacity_bytes;
  m["peak_stage"] = e.peak_stage;
  m["expert_params_per_device"] = e.expert_params_per_device;
  return m;
}

Json collectives_json(const std::vector<CollectiveRow>& rows) {
  Json out = Json::array();
  for (const CollectiveRow& r : rows) {
    Json c = Json::object();
    c["group"] = r.group;
    c["when"] = r.when;
    c["op"] = std::string(collective_op_name(r.cost.op));
    c["algorithm"] = r.cost.algorithm;
    c["link"] = r.cost.link;
    c["bytes"] = r.cost.bytes;
    c["time_s"] = r.cost.time_s;
    c["group_size"] = r.cost.group_size;
    c["count"] = r.count;
    c["total_s"] = r.total_s();
    out.push_back(c);
  }
  return out;
}

Json estimate_json(const TrainingEstimate& e) {
  Json j = Json::object();
  j["model"] = e.model;
  j["system"] = e.system;
  j["plan"] = plan_json(e.plan);
  j["totals"] = totals_json({&e, nullptr});
  j["memory"] = memory_json(e);
  j["collectives"] = collectives_json(e.collectives);
  return j;
}

std::string pct(double v) { return format_fixed(100 * v, 1) + "%"; }

void write_collectives_table(const std::vector<CollectiveRow>& rows, std::ostream& out) {
  ColumnTable t;
  t.columns = {{"group", "group", false}, {"when", "when", false}, {"op", "op", false}, {"algorithm", "algorithm", false},
               {"link", "link", false},   {"group size", "group_size"}, {"bytes", "bytes"}, {"time", "time_s"},
               {"count", "count"},        {"total", "total_s"}};
  for (const CollectiveRow& r : rows)
    t.rows.push_back({text_cell(r.group), text_cell(r.when), text_cell(std::string(collective_op_name(r.cost.op))),
                      text_cell(r.cost.algorithm), text_cell("link:" + r.cost.link),
                      text_cell(std::to_string(r.cost.group_size)), text_cell(format_bytes(r.cost.bytes)),
                      text_cell(format_seconds(r.cost.time_s)), text_cell(format_raw(r.count)),
                      text_cell(format_seconds(r.total_s()))});
  write_text_table(t, out);
}

void write_text(const TrainingEstimate& e, std::ostream& out) {
  const ParallelPlan& p = e.plan;
  out << e.model << " on " << e.system << ": " << plan_label(p) << "\n";
  out << "  " << p.devices() << " devices, global batch " << p.batch() << " = " << e.microbatches << " microbatches of "
      << p.microbatch << " per dp rank, " << e.layers_per_stage << " layers per stage\n\n";
  auto line = [&](const std::string& k, const std::string& v) { out << "  " << std::left << std::setw(22) << k << v << "\n"; };
  line("iteration time", format_seconds(e.iteration_time_s));
  line("tokens/s", format_count(e.tokens_per_s));
  line("MFU / HFU", pct(e.mfu) + " / " + pct(e.hfu) + "  (model FLOPs without / hardware FLOPs with recomputation)");
  line("stage fwd / bwd", format_seconds(e.stage_forward_s) + " / " + format_seconds(e.stage_backward_s) + " per microbatch (compute)");
  line("pipeline bubble", format_seconds(e.bubble_s) + " (" + pct(e.bubble_share) + " of the pipeline)");
  std::string sharding;
  if (p.cp > 1) sharding += ", cp " + format_seconds(e.cp_comm_s);
  if (p.ep > 1) sharding += ", ep " + format_seconds(e.ep_comm_s);
  line("communication", format_seconds(e.communication_time_s) + " exposed: tp " + format_seconds(e.tp_comm_s) + sharding + ", pp " +
                            format_seconds(e.pp_comm_s) + ", dp " + format_seconds(e.dp_exposed_s) + " of " +
                            format_seconds(e.dp_comm_s) + (p.overlap ? " (overlapped with backward)" : " (no overlap)"));
  line("optimizer step", format_seconds(e.optimizer_s));
  out << "\n  memory per device (" << e.peak_stage << " stage): weights " << format_bytes(e.memory.weights) << ", gradients "
      << format_bytes(e.memory.gradients) << ", optimizer " << format_bytes(e.memory.optimizer) << ", activations "
      << format_bytes(e.memory.activations) << "\n  total " << format_bytes(e.memory.total()) << " of "
      << format_bytes(e.capacity_bytes) << ": " << (e.fits ? "fits" : "DOES NOT FIT") << "\n";
  if (e.shape.mixture_of_experts())
    out << "  of the parameters, " << format_count(e.expert_params_per_device) << " are this device's experts ("
        << e.shape.experts / p.ep << " of " << e.shape.experts << " a layer"
        << (p.tp > 1 ? ", each split tp " + std::to_string(p.tp) + " ways" : std::string()) << ")\n";
  if (e.collectives.empty()) return;
  out << "\n";
  write_collectives_table(e.collectives, out);
}

// The columns of a plan's CSV row: its rank, the plan, the compact totals (those of a
// parallel sweep's row, less the model and system every row here shares).
ColumnTable ranked_csv(const std::vector<TrainingEstimate>& estimates) {
  using Ranked = std::pair<size_t, const TrainingEstimate*>;
  std::vector<Field<Ranked>> fields = {{"rank", "#", Unit::integer, [](const Ranked& r) -> FieldValue { return int64_t(r.first); }}};
  const std::vector<Field<ParallelPlan>> plan = parallel_plan_fields();
  const std::vector<Field<ParallelResult>> totals = parallel_totals_fields();
  append_fields(fields, all_fields(plan), [](const Ranked& r) -> const ParallelPlan& { return r.second->plan; });
  append_fields(fields, choose_fields(totals, {}), [](const Ranked& r) { return ParallelResult{r.second, nullptr}; });
  const auto columns = all_fields(fields);
  ColumnTable t;
  add_columns(t, columns);
  for (size_t i = 0; i < estimates.size(); ++i) t.rows.push_back(field_cells(columns, Ranked{i + 1, &estimates[i]}, true));
  return t;
}

}  // namespace

void write_training_estimate(const TrainingEstimate& e, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    write_json(out, estimate_json(e));
  } else if (format == OutputFormat::csv) {
    write_csv(ranked_csv({e}), out);
  } else {
    write_text(e, out);
  }
}

Json data_parallel_plan_json(const DataParallelEstimate& e) {
  Json plan = Json::object();
  plan["dp"] = e.dp;
  plan["global_batch"] = e.global_batch;
  plan["per_device_batch"] = e.settings.batch;
  plan["dtype"] = std::string(dtype_name(e.settings.dtype));
  plan["overlap"] = e.overlap;
  return plan;
}

void write_data_parallel_estimate(const DataParallelEstimate& e, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    Json j = Json::object();
    j["model"] = e.model;
    j["system"] = e.system;
    j["plan"] = data_parallel_plan_json(e);
    j["totals"] = totals_json({nullptr, &e});
    j["collectives"] = collectives_json(e.collectives);
    write_json(out, j);
    return;
  }
  out << e.model << " on " << e.system << ": data parallel dp=" << e.dp << "\n  " << e.dp << " devices, global batch "
      << e.global_batch << " = " << e.settings.batch << " per device, " << dtype_name(e.settings.dtype) << "\n\n";
  auto line = [&](const std::string& k, const std::string& v) { out << "  " << std::left << std::setw(22) << k << v << "\n"; };
  line("iteration time", format_seconds(e.iteration_time_s));
  line("samples/s", format_count(e.samples_per_s));
  line("MFU", pct(e.mfu));
  line("device step", format_seconds(e.step_s) + " (backward " + format_seconds(e.backward_s) + ")");
  line("gradient all-reduce", format_bytes(e.gradient_bytes) + ", " + format_seconds(e.exposed_s) + " exposed" +
                                  (e.overlap ? " (overlapped with backward)" : " (no overlap)"));
  out << "\n  memory per device " << format_bytes(e.memory_bytes) << " of " << format_bytes(e.capacity_bytes) << ": "
      << (e.fits ? "fits" : "DOES NOT FIT") << "\n";
  if (e.collectives.empty()) return;
  out << "\n";
  write_collectives_table(e.collectives, out);
}

void write_plan_search(const SearchResult& r, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    Json j = Json::object();
    j["considered"] = r.considered;
    j["fitting"] = r.fitting;
    j["do_not_fit"] = r.too_large;
    Json rejected = Json::object();
    for (const auto& [why, n] : r.rejected) rejected[why] = n;
    j["do_not_divide"] = rejected;
    Json best = Json::array();
    for (const TrainingEstimate& e : r.best) best.push_back(estimate_json(e));
    j["best"] = best;
    write_json(out, j);
    return;
  }
  if (format == OutputFormat::csv) {
    write_csv(ranked_csv(r.best), out);
    return;
  }
  ColumnTable t;
  t.columns = {{"#", "rank"}, {"plan", "plan", false}};
  const std::vector<Field<ParallelResult>> totals = parallel_totals_fields();
  const auto shown = choose_fields(totals, parse_column_choice("iteration_time_s,tokens_per_s,mfu,bubble_share,"
                                                                "communication_time_s,memory_per_device_bytes"));
  add_columns(t, shown);
  for (size_t i = 0; i < r.best.size(); ++i) {
    std::vector<Cell> row = {text_cell(std::to_string(i + 1)), text_cell(plan_label(r.best[i].plan))};
    for (Cell& c : field_cells(shown, ParallelResult{&r.best[i], nullptr})) row.push_back(std::move(c));
    t.rows.push_back(std::move(row));
  }
  write_text_table(t, out);
  out << "\n" << r.considered << " plans: " << r.fitting << " fit, " << r.too_large << " divide the model but do not fit in memory";
  int64_t rejected = 0;
  for (const auto& [why, n] : r.rejected) rejected += n;
  out << ", " << rejected << " do not divide it:\n";
  for (const auto& [why, n] : r.rejected) out << "  " << n << "  " << why << "\n";
}

}  // namespace ridge
