// Sweep views (see sweep_report.hpp).
#include "sim/views/sweep_report.hpp"

#include <sstream>

#include "sim/base/data_paths.hpp"
#include "sim/base/format_energy.hpp"
#include "sim/base/format_units.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/conventions.hpp"
#include "sim/views/sweep_fields.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

std::vector<std::string> preamble(const SweepPlan& plan, bool per_layer) {
  std::vector<std::string> lines = {
      "ridge sweep " + plan.file.path + ": " + std::to_string(plan.point_count()) + " points" +
          (per_layer ? ", one row per layer" : ""),
      "time: per layer max(compute, memory) (their sum for a calibrated class with overlap = false) + link + launch, "
      "summed over layers; seconds, FLOP/s, bytes (SI)",
      "bound: memory when memory-bound layers take more than half the step time, overhead (link) when launches (the "
      "link) do, else compute",
      "peak_memory_bytes, fits: the step's peak device memory (ridge memory) against the DRAM less a 5% runtime reserve",
  };
  for (const auto& line : counting_conventions()) lines.push_back(line);
  return lines;
}

std::vector<Field<SweepRow>> row_fields(const SweepPlan& plan, bool per_layer, bool vary_as_columns) {
  std::vector<Field<SweepRow>> f = sweep_point_name_fields(plan, vary_as_columns);
  for (auto& g : per_layer ? sweep_layer_fields() : sweep_point_total_fields()) f.push_back(std::move(g));
  return f;
}

// Every row in order: a point, or each layer of a point that ran (one row when it did not).
std::vector<SweepRow> rows_of(const SweepPlan& plan, const SweepResult& result, bool per_layer) {
  std::vector<SweepRow> rows;
  for (size_t i = 0; i < result.points.size(); ++i) {
    if (!per_layer || !result.points[i].ok()) {
      rows.push_back({&plan, &result, i, per_layer ? 0 : -1});
      continue;
    }
    const Eigen::Index n = result.group_work[plan.coords(i).group].size();
    for (Eigen::Index l = 0; l < n; ++l) rows.push_back({&plan, &result, i, static_cast<long>(l)});
  }
  return rows;
}

}  // namespace

void write_sweep(const SweepPlan& plan, const SweepResult& result, bool per_layer, OutputFormat format,
                 const ColumnChoice& columns, std::ostream& out, const CsvStyle& csv_style) {
  const bool csv = format == OutputFormat::csv;
  std::vector<Field<SweepRow>> fields = row_fields(plan, per_layer, true);
  std::vector<const Field<SweepRow>*> chosen =
      choose_fields(fields, csv && columns.kind == ColumnChoice::Kind::compact ? ColumnChoice{ColumnChoice::Kind::all, {}} : columns);
  ColumnTable t;
  t.preamble = preamble(plan, per_layer);
  add_columns(t, chosen);
  if (csv) {  // streamed: a per-layer sweep has hundreds of thousands of rows
    write_csv_head(t, out, csv_style);
    for (const SweepRow& r : rows_of(plan, result, per_layer)) write_csv_row(field_cells(chosen, r, true), out);
    return;
  }
  write_report(format, out, [&] { return sweep_json(plan, result, per_layer); }, [&] {
    for (const SweepRow& r : rows_of(plan, result, per_layer)) t.rows.push_back(field_cells(chosen, r));
    return t;
  });
}

Json sweep_json(const SweepPlan& plan, const SweepResult& result, bool per_layer) {
  Json root = Json::object();
  root["schema_version"] = kJsonSchemaVersion;
  root["sweep"] = plan.file.path;
  Json conventions = Json::array();
  for (const auto& line : preamble(plan, per_layer)) conventions.push_back(line);
  root["conventions"] = std::move(conventions);
  std::vector<Field<SweepRow>> names = sweep_point_name_fields(plan, false);
  std::vector<Field<SweepRow>> totals = sweep_point_total_fields();
  std::vector<Field<SweepRow>> layer = sweep_layer_fields();
  Json points = Json::array();
  for (size_t i = 0; i < result.points.size(); ++i) {
    SweepRow row{&plan, &result, i, -1};
    Json p = Json::object();
    put_fields(p, all_fields(names), row);
    Json vary = Json::object();
    const SweepHardwarePoint& hp = plan.hw_points[plan.coords(i).hw_point];
    for (size_t k = 0; k < plan.file.vary.size(); ++k) vary[plan.file.vary[k].key] = plan.file.vary[k].values[hp.value[k]].text;
    p["vary"] = std::move(vary);
    put_fields(p, all_fields(totals), row);
    if (per_layer && result.points[i].ok()) {
      Json layers = Json::array();
      const Eigen::Index n = result.group_work[plan.coords(i).group].size();
      for (Eigen::Index l = 0; l < n; ++l) {
        Json j = Json::object();
        put_fields(j, all_fields(layer), SweepRow{&plan, &result, i, static_cast<long>(l)});
        layers.push_back(std::move(j));
      }
      p["layers"] = std::move(layers);
    }
    points.push_back(std::move(p));
  }
  root["points"] = std::move(points);
  return root;
}

// ---------------------------------------------------------------------------------
// Summary

namespace {

// "v100 fp16 inference" (a descriptor file's declared name in place of its path) plus whatever else distinguishes the series (other varied
// values, the hardware model when several are swept, the optimizer in training, the
// decode context, the batch along a [[vary]] series: skip_vary >= 0 names the value the series runs along).
std::string series_name(const SweepPlan& plan, const SweepResult& result, size_t index, int skip_vary) {
  SweepCoords c = plan.coords(index);
  const SweepHardwarePoint& hp = plan.hw_points[c.hw_point];
  // A descriptor named by path goes by the name it declares, as the `device` column and the plots call it.
  const std::string& written = plan.file.hardware[hp.hardware].text;
  std::string s = names_a_file(written) ? hp.spec.name : written;
  if (plan.file.hw_models.size() > 1) s += " " + result.points[index].hw_model;
  for (size_t k = 0; k < plan.file.vary.size(); ++k)
    if (static_cast<int>(k) != skip_vary) s += " " + plan.file.vary[k].key + "=" + plan.file.vary[k].values[hp.value[k]].text;
  s += " " + std::string(dtype_name(c.dtype)) + " " + std::string(phase_name(c.phase));
  if (plan.file.optimizers.size() > 1 && c.phase == Phase::training) s += " " + std::string(optimizer_name(c.optimizer));
  if (plan.file.kv_dtypes.size() > 1) s += " KV " + std::string(dtype_name(c.kv_dtype.value_or(c.dtype)));
  if (plan.file.weight_formats.size() > 1)
    s += " weights " + std::string(c.weight_format == WeightFormat::same ? "none" : weight_format_name(c.weight_format));
  if (plan.file.overheads.size() > 1) s += " overhead " + std::string(launch_overhead_name(c.overhead));
  if (c.phase == Phase::decode) s += " context " + std::to_string(c.context);
  if (c.seq > 0) s += " seq " + std::to_string(c.seq);
  if (skip_vary >= 0 && plan.file.batches.size() > 1) s += " batch " + std::to_string(c.batch);
  return s;
}

// The batch or the [[vary]] value of a point, as the flip line names it.
std::string along_value(const SweepPlan& plan, size_t index, int along_vary) {
  SweepCoords c = plan.coords(index);
  if (along_vary < 0) return std::to_string(c.batch);
  const SweepHardwarePoint& hp = plan.hw_points[c.hw_point];
  return plan.file.vary[static_cast<size_t>(along_vary)].values[hp.value[static_cast<size_t>(along_vary)]].text;
}

}  // namespace

std::string sweep_summary_text(const SweepPlan& plan, const SweepResult& result, const SweepSummary& summary) {
  const SweepFile& f = plan.file;
  std::ostringstream out;
  out << "sweep " << f.path << ": " << summary.points << " points, " << summary.ran << " ran, "
      << summary.points - summary.ran << " could not (see the status column)\n";
  constexpr size_t kMaxFlipLines = 6;
  for (size_t m = 0; m < f.models.size(); ++m) {
    for (const FastestPoint& fp : summary.fastest) {
      if (fp.model != m) continue;
      out << f.models[m].text << " " << phase_name(fp.phase) << ": ";
      if (!fp.point) {
        out << "no point ran\n";
        continue;
      }
      const SweepPointResult& r = result.points[*fp.point];
      out << "fastest " << series_name(plan, result, *fp.point, -1) << " batch " << plan.coords(*fp.point).batch << ", "
          << format_count(r.samples_per_s) << " samples/s (" << format_seconds(r.sums.time_s) << " per step, "
          << r.bound_text() << "-bound)\n";
    }
    for (const BestValuePoint& v : summary.best_value) {
      if (v.model != m) continue;
      if (v.per_usd)
        out << "  best per dollar: " << series_name(plan, result, *v.per_usd, -1) << " batch " << plan.coords(*v.per_usd).batch
            << ", " << format_count(*result.points[*v.per_usd].samples_per_usd)
            << " samples/$ (" << cost_basis_text(f.cost) << ")\n";
      if (v.per_joule)
        out << "  best per joule: " << series_name(plan, result, *v.per_joule, -1) << " batch "
            << plan.coords(*v.per_joule).batch << ", " << format_joules(*result.points[*v.per_joule].joules_per_sample)
            << " per sample (estimate)\n";
    }
    std::vector<std::string> lines;
    for (const BoundFlip& flip : summary.flips) {
      if (flip.model != m) continue;
      std::string what = flip.along_vary < 0 ? "batch" : f.vary[static_cast<size_t>(flip.along_vary)].key;
      lines.push_back(series_name(plan, result, flip.after, flip.along_vary) + ": " +
                      result.points[flip.before].bound_text() + "-bound at " + what + " " +
                      along_value(plan, flip.before, flip.along_vary) + ", " + result.points[flip.after].bound_text() +
                      "-bound at " + along_value(plan, flip.after, flip.along_vary));
    }
    for (size_t j = 0; j < lines.size() && j < kMaxFlipLines; ++j) out << "  bound flips: " << lines[j] << '\n';
    if (lines.size() > kMaxFlipLines) out << "  (" << lines.size() - kMaxFlipLines << " more flips; see the bound column)\n";
    if (lines.empty() && (f.batches.size() > 1 || !f.vary.empty())) out << "  the bound does not flip in this sweep\n";
  }
  return out.str();
}

}  // namespace ridge
