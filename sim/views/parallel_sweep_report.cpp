// Parallel sweep views (see parallel_sweep_report.hpp).
#include "sim/views/parallel_sweep_report.hpp"

#include <map>
#include <utility>

#include "sim/base/format_units.hpp"
#include "sim/views/parallel_report.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

Cell number(const std::string& text, double raw) { return {text, format_raw(raw)}; }
Cell integer(int64_t v) { return {std::to_string(v), std::to_string(v)}; }
Cell flag(bool v) { return text_cell(v ? "true" : "false"); }
std::string pct(double v) { return format_fixed(100 * v, 1) + "%"; }

ColumnTable table_of(const ParallelSweep& sweep) {
  ColumnTable t;
  t.preamble = {"ridge sweep " + sweep.path + ": " + std::to_string(sweep.points.size()) + " parallel training points",
                "each point is `ridge analyze MODEL --system S --parallel tp=T,pp=P,dp=D ...`: one iteration, bf16 "
                "mixed precision with Adam; seconds, tokens/s, bytes (SI); communication_time_s: exposed",
                "memory_per_device_bytes, fits: the peak stage's device against its DRAM less a 5% runtime reserve",
                "a model with no [params] to shard (a CNN) runs data parallel only, each replica an fp32 training step "
                "with Adam (`--parallel dp=D --global-batch B`): no tokens/s, samples/s"};
  t.columns = {{"model", "model", false},
               {"system", "system", false},
               {"gpus", "gpus"},
               {"tp", "tp"},
               {"pp", "pp"},
               {"dp", "dp"},
               {"cp", "cp"},
               {"ep", "ep"},
               {"sp", "sequence_parallel", false},
               {"mb", "microbatch"},
               {"global batch", "global_batch"},
               {"zero", "zero"},
               {"recompute", "recompute", false},
               {"interleave", "interleave"},
               {"overlap", "overlap", false},
               {"status", "status", false},
               {"iteration", "iteration_time_s"},
               {"tokens/s", "tokens_per_s"},
               {"samples/s", "samples_per_s"},
               {"MFU", "mfu"},
               {"HFU", "hfu"},
               {"bubble", "bubble_share"},
               {"comm", "communication_time_s"},
               {"memory", "memory_per_device_bytes"},
               {"fits", "fits", false}};
  for (const ParallelSweepPoint& p : sweep.points) {
    const ParallelPlan& plan = p.plan;
    std::vector<Cell> row = {text_cell(p.model),          text_cell(p.system),
                             integer(plan.devices()),     integer(plan.tp),
                             integer(plan.pp),            integer(plan.dp),
                             integer(plan.cp),            integer(plan.ep),
                             flag(plan.sequence_parallel), integer(plan.microbatch),
                             integer(plan.batch()),       integer(plan.zero),
                             text_cell(std::string(recompute_name(plan.recompute))), integer(plan.interleave),
                             flag(plan.overlap),          text_cell(p.status)};
    if (const auto& e = p.estimate) {
      const double samples_per_s = static_cast<double>(plan.batch()) / e->iteration_time_s;
      row.insert(row.end(), {number(format_seconds(e->iteration_time_s), e->iteration_time_s),
                             number(format_count(e->tokens_per_s), e->tokens_per_s),
                             number(format_count(samples_per_s), samples_per_s), number(pct(e->mfu), e->mfu),
                             number(pct(e->hfu), e->hfu), number(pct(e->bubble_share), e->bubble_share),
                             number(format_seconds(e->communication_time_s), e->communication_time_s),
                             number(format_bytes(e->memory.total()), e->memory.total()), flag(e->fits)});
    } else if (const auto& d = p.data_parallel) {
      row.insert(row.end(), {number(format_seconds(d->iteration_time_s), d->iteration_time_s), text_cell(""),
                             number(format_count(d->samples_per_s), d->samples_per_s), number(pct(d->mfu), d->mfu),
                             number(pct(d->mfu), d->mfu), number(pct(0), 0),
                             number(format_seconds(d->exposed_s), d->exposed_s),
                             number(format_bytes(d->memory_bytes), d->memory_bytes), flag(d->fits)});
    } else {
      row.resize(t.columns.size(), text_cell(""));
    }
    t.rows.push_back(std::move(row));
  }
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
    if (p.estimate) j["totals"] = training_totals_json(*p.estimate);
    if (p.data_parallel) j["totals"] = data_parallel_totals_json(*p.data_parallel);
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
         pct(b->estimate ? b->estimate->mfu : b->data_parallel->mfu) + "\n";
  }
  return s;
}

}  // namespace ridge
