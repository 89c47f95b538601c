// The output format table (see output_format.hpp).
#include "sim/views/output_format.hpp"

#include "sim/base/error.hpp"

namespace ridge {

const std::vector<OutputFormatInfo>& output_formats() {
  static const std::vector<OutputFormatInfo> table = {
      {OutputFormat::table, "table", "aligned text for a terminal (the compact columns unless --columns)"},
      {OutputFormat::csv, "csv", "comma-separated, exact values, every column"},
      {OutputFormat::json, "json", "every field, exact values (schema_version: docs/reference/json-schema.md)"},
      {OutputFormat::md, "md", "a Markdown table"},
      {OutputFormat::tex, "tex", "a LaTeX booktabs table (\\usepackage{booktabs})"},
  };
  return table;
}

std::string_view format_name(OutputFormat f) {
  for (const OutputFormatInfo& i : output_formats())
    if (i.format == f) return i.name;
  return "?";
}

std::string format_choices(const std::vector<OutputFormat>& supported) {
  std::string s;
  for (OutputFormat f : supported) s += (s.empty() ? "" : " | ") + std::string(format_name(f));
  return s;
}

OutputFormat parse_output_format(std::string_view name, const std::vector<OutputFormat>& supported) {
  std::string_view canonical = name == "text" ? "table" : name == "markdown" ? "md" : name;
  for (OutputFormat f : supported)
    if (format_name(f) == canonical) return f;
  throw InputError({}, "--format: '" + std::string(name) + "' is not a format this command writes",
                   "use " + format_choices(supported));
}

}  // namespace ridge
