// Dispatch by output format (see write_report.hpp).
#include "sim/views/write_report.hpp"

namespace ridge {

void write_report(OutputFormat format, std::ostream& out, const std::function<Json()>& json,
                  const std::function<ColumnTable()>& table) {
  switch (format) {
    case OutputFormat::json: json().write(out); break;
    case OutputFormat::csv: write_csv(table(), out); break;
    case OutputFormat::md: write_markdown(table(), out); break;
    case OutputFormat::table: write_text_table(table(), out); break;
    case OutputFormat::tex: write_latex(table(), out); break;
  }
}

Json report_root(const std::string& model_name, const RunSettings& s) {
  Json root = Json::object();
  root.set("schema_version", kJsonSchemaVersion);
  root.set("model", model_name);
  root.set("batch", s.batch);
  root.set("dtype", std::string(dtype_name(s.dtype)));
  root.set("phase", std::string(phase_name(s.phase)));
  if (s.phase == Phase::training) root.set("optimizer", std::string(optimizer_name(s.optimizer)));
  root.set("precision", std::string(precision_name(s.precision)));
  return root;
}

}  // namespace ridge
