// Dispatch by output format (see write_report.hpp).
#include "sim/views/write_report.hpp"

namespace ridge {

void write_report(OutputFormat format, std::ostream& out, const std::function<Json()>& json,
                  const std::function<ColumnTable()>& table, const CsvStyle& csv) {
  switch (format) {
    case OutputFormat::json: write_json(out, json()); break;
    case OutputFormat::csv: write_csv(table(), out, csv); break;
    case OutputFormat::md: write_markdown(table(), out); break;
    case OutputFormat::table: write_text_table(table(), out); break;
    case OutputFormat::tex: write_latex(table(), out); break;
  }
}

Json report_root(const std::string& model_name, const RunSettings& s) {
  Json root = Json::object();
  root["schema_version"] = kJsonSchemaVersion;
  root["model"] = model_name;
  root["batch"] = s.batch;
  root["dtype"] = std::string(dtype_name(s.dtype));
  root["phase"] = std::string(phase_name(s.phase));
  if (s.phase == Phase::training) root["optimizer"] = std::string(optimizer_name(s.optimizer));
  if (s.phase == Phase::decode) root["context"] = s.context;
  if (s.uses_kv_cache()) root["kv_dtype"] = std::string(dtype_name(s.cache_dtype()));
  root["precision"] = std::string(precision_name(s.precision));
  return root;
}

}  // namespace ridge
