// Parallel sweep views (see parallel_sweep_report.hpp).
#include "sim/views/parallel_sweep_report.hpp"

#include <map>
#include <utility>

#include "sim/base/format_units.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/parallel_fields.hpp"
#include "sim/views/parallel_report.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

ParallelResult result_of(const ParallelSweepPoint& p) {
  return {p.estimate ? &*p.estimate : nullptr, p.data_parallel ? &*p.data_parallel : nullptr};
}

// A row: the model, system and devices, the plan, its status and the compact totals
// (parallel_fields.hpp), empty where the point has no estimate.
std::vector<Field<ParallelSweepPoint>> point_fields() {
  using S = const ParallelSweepPoint&;
  std::vector<Field<ParallelSweepPoint>> f = {
      {"model", "model", Unit::text, [](S p) -> FieldValue { return p.model; }, true},
      {"system", "system", Unit::text, [](S p) -> FieldValue { return p.system; }, true},
      {"gpus", "gpus", Unit::integer, [](S p) -> FieldValue { return p.plan.devices(); }, true}};
  const std::vector<Field<ParallelPlan>> plan = parallel_plan_fields();
  append_fields(f, all_fields(plan), [](S p) -> const ParallelPlan& { return p.plan; });
  f.push_back({"status", "status", Unit::text, [](S p) -> FieldValue { return p.status; }, true});
  const std::vector<Field<ParallelResult>> totals = parallel_totals_fields();
  append_fields(f, choose_fields(totals, {}), result_of);
  return f;
}

ColumnTable table_of(const ParallelSweep& sweep) {
  ColumnTable t;
  t.preamble = {"ridge sweep " + sweep.path + ": " + std::to_string(sweep.points.size()) + " parallel training points",
                "each point is `ridge analyze MODEL --system S --parallel tp=T,pp=P,dp=D ...`: one iteration, bf16 "
                "mixed precision with Adam; seconds, tokens/s, bytes (SI); communication_time_s: exposed",
                "memory_per_device_bytes, fits: the peak stage's device against its DRAM less a 5% runtime reserve",
                "a model with no [params] to shard (a CNN) runs data parallel only, each replica an fp32 training step "
                "with Adam (`--parallel dp=D --global-batch B`): no tokens/s, samples/s"};
  const std::vector<Field<ParallelSweepPoint>> fields = point_fields();
  const auto columns = all_fields(fields);
  add_columns(t, columns);
  for (const ParallelSweepPoint& p : sweep.points) t.rows.push_back(field_cells(columns, p));
  return t;
}

Json json_of(const ParallelSweep& sweep) {
  Json root = Json::object();
  root["schema_version"] = kJsonSchemaVersion;
  root["sweep"] = sweep.path;
  Json points = Json::array();
  for (const ParallelSweepPoint& p : sweep.points) {
    Json j = Json::object();
    j["model"] = p.model;
    j["system"] = p.system;
    j["plan"] = p.data_parallel ? data_parallel_plan_json(*p.data_parallel) : plan_json(p.plan);
    j["status"] = p.status;
    if (p.ok()) j["totals"] = totals_json(result_of(p));
    points.push_back(std::move(j));
  }
  root["points"] = std::move(points);
  return root;
}

}  // namespace

void write_parallel_sweep(const ParallelSweep& sweep, OutputFormat format, std::ostream& out, const CsvStyle& csv_style) {
  write_report(format, out, [&] { return json_of(sweep); }, [&] { return table_of(sweep); }, csv_style);
}

std::string parallel_sweep_summary_text(const ParallelSweep& sweep) {
  // Per (model, system), in first-seen order: the fastest plan that fits.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, const ParallelSweepPoint*> best;
  for (const ParallelSweepPoint& p : sweep.points) {
    auto key = std::make_pair(p.model, p.system);
    if (!best.count(key)) order.push_back(key), best[key] = nullptr;
    if (!p.fits()) continue;
    const ParallelSweepPoint*& b = best[key];
    if (!b || p.iteration_time_s() < b->iteration_time_s()) b = &p;
  }
  std::string s;
  for (const auto& key : order) {
    const ParallelSweepPoint* b = best[key];
    s += key.first + " on " + key.second + ": ";
    if (!b) {
      s += "no plan fits\n";
      continue;
    }
    const std::string plan = b->estimate ? plan_label(b->plan) : "dp" + std::to_string(b->plan.dp) + " (data parallel)";
    s += "fastest plan that fits: " + plan + ", " + format_seconds(b->iteration_time_s()) + " per iteration, MFU " +
         human_text(b->estimate ? b->estimate->mfu : b->data_parallel->mfu, Unit::fraction) + "\n";
  }
  return s;
}

}  // namespace ridge
