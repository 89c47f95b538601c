// `ridge compare` views (see compare_report.hpp).
#include "sim/views/compare_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

using F = Field<ComparedDevice>;

FieldValue optional_value(const std::optional<double>& v) { return v ? FieldValue(*v) : FieldValue(nullptr); }

std::string basis_line(const CostBasis& b) { return "cost: " + cost_basis_text(b); }

std::string settings_text(const ComparisonResult& r) {
  const RunSettings& s = r.settings;
  return "model " + r.model + ", batch " + std::to_string(s.batch) + ", dtype " + std::string(dtype_name(s.dtype)) +
         ", phase " + std::string(phase_name(s.phase));
}

}  // namespace

std::vector<F> compare_fields(const ComparisonResult& r) {
  std::vector<F> f = {
      {"hardware", "hardware", Unit::text, [](const ComparedDevice& c) -> FieldValue { return c.hardware; }, true},
      {"time_s", "time/step", Unit::seconds, [](const ComparedDevice& c) -> FieldValue { return c.time_s; }, true},
      {"samples_per_s", "samples/s", Unit::number, [](const ComparedDevice& c) -> FieldValue { return c.samples_per_s; }, true},
  };
  if (r.token_phase)
    f.push_back({"tokens_per_s", "tokens/s", Unit::number, [](const ComparedDevice& c) -> FieldValue { return c.tokens_per_s; }, true});
  f.push_back({"fits", "fits", Unit::flag, [](const ComparedDevice& c) -> FieldValue { return c.fits; }, true});
  f.push_back({"largest_batch", "largest batch", Unit::integer, [](const ComparedDevice& c) -> FieldValue { return c.largest_batch; }, true});
  f.push_back({"compute_bound_share", "compute-bound", Unit::fraction,
               [](const ComparedDevice& c) -> FieldValue { return c.compute_bound_share; }, true});
  f.push_back({"memory_bound_share", "memory-bound", Unit::fraction,
               [](const ComparedDevice& c) -> FieldValue { return c.memory_bound_share; }, true});
  f.push_back({"overhead_bound_share", "launch/link-bound", Unit::fraction,
               [](const ComparedDevice& c) -> FieldValue { return c.overhead_bound_share; }, true});
  f.push_back({"joules_per_sample", "J/sample", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.joules_per_sample); }, true});
  f.push_back({"average_power_w", "power (W)", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.average_power_w); }, true});
  f.push_back({"usd_per_hour", "$/h", Unit::number, [](const ComparedDevice& c) -> FieldValue {
                 return c.cost ? FieldValue(c.cost->usd_per_hour) : FieldValue(nullptr);
               }, true});
  f.push_back({"samples_per_usd", "samples/$", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.samples_per_usd); }, true});
  f.push_back({"usd_per_1000_samples", "$/1000 samples", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.usd_per_1000_samples); }});
  if (r.token_phase)
    f.push_back({"usd_per_million_tokens", "$/M tokens", Unit::number,
                 [](const ComparedDevice& c) -> FieldValue { return optional_value(c.usd_per_million_tokens); }, true});
  if (r.training_run) {
    f.push_back({"training_run_hours", "run hours", Unit::number,
                 [](const ComparedDevice& c) -> FieldValue { return optional_value(c.training_run_hours); }, true});
    f.push_back({"training_run_usd", "run $", Unit::number,
                 [](const ComparedDevice& c) -> FieldValue { return optional_value(c.training_run_usd); }, true});
  }
  f.push_back({"speedup", "x speed", Unit::number, [](const ComparedDevice& c) -> FieldValue { return c.speedup; }, true});
  f.push_back({"samples_per_usd_ratio", "x samples/$", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.samples_per_usd_ratio); }, true});
  f.push_back({"joules_per_sample_ratio", "x J/sample", Unit::number,
               [](const ComparedDevice& c) -> FieldValue { return optional_value(c.joules_per_sample_ratio); }, true});
  f.push_back({"cost_basis", "cost basis", Unit::text, [](const ComparedDevice& c) -> FieldValue {
                 return c.cost ? FieldValue(c.cost->basis) : FieldValue(nullptr);
               }});
  return f;
}

void write_compare(const ComparisonResult& r, OutputFormat format, std::ostream& out) {
  std::vector<F> fields = compare_fields(r);
  bool machine = format == OutputFormat::csv || format == OutputFormat::json;
  std::vector<const F*> chosen = choose_fields(fields, ColumnChoice{machine ? ColumnChoice::Kind::all : ColumnChoice::Kind::compact, {}});
  auto json = [&] {
    Json root = report_root(r.model, r.settings);
    root["cost_basis"] = basis_line(r.basis);
    if (r.training_run) root["training_run"] = r.training_run->text;
    Json devices = Json::array();
    for (const ComparedDevice& c : r.devices) {
      Json j = Json::object();
      put_fields(j, chosen, c);
      devices.push_back(std::move(j));
    }
    root["devices"] = devices;
    Json layers = Json::array();
    for (const BoundDifference& d : r.differing_layers) {
      Json j = Json::object();
      j["layer"] = d.layer;
      Json bounds = Json::object();
      for (size_t i = 0; i < d.bounds.size(); ++i) bounds[r.devices[i].hardware] = d.bounds[i];
      j["bounds"] = bounds;
      layers.push_back(std::move(j));
    }
    root["differing_bounds"] = layers;
    return root;
  };
  auto table = [&] {
    ColumnTable t;
    t.preamble = {settings_text(r), basis_line(r.basis) + (r.training_run ? "; training run: " + r.training_run->text : ""),
                  "ratios (x) are against the first device; energy and cost are estimates (docs/guide/choosing-hardware.md)"};
    add_columns(t, chosen);
    for (const ComparedDevice& c : r.devices) t.rows.push_back(field_cells(chosen, c));
    t.footer.push_back(std::to_string(r.differing_layers.size()) + " layer(s) bound differently across the devices" +
                       (r.differing_layers.empty() ? "" : ":"));
    for (size_t i = 0; i < r.differing_layers.size() && i < 20; ++i) {
      const BoundDifference& d = r.differing_layers[i];
      std::string line = "  " + d.layer + ":";
      for (size_t k = 0; k < d.bounds.size(); ++k) line += " " + r.devices[k].hardware + "=" + d.bounds[k];
      t.footer.push_back(line);
    }
    if (r.differing_layers.size() > 20)
      t.footer.push_back("  ... (" + std::to_string(r.differing_layers.size() - 20) + " more; --format json lists all)");
    return t;
  };
  write_report(format, out, json, table);
}

}  // namespace ridge
