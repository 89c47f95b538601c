// Every report is either a JSON tree or a ColumnTable; this writes the one a format
// asks for, building only that one.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "sim/views/column_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

// JSON reports' schema_version: 2 since the Result stage gave every quantity one name
// (docs/reference/json-schema.md).
inline constexpr int kJsonSchemaVersion = 2;

void write_report(OutputFormat format, std::ostream& out, const std::function<Json()>& json,
                  const std::function<ColumnTable()>& table, const CsvStyle& csv = {});

// The keys every JSON report starts with: schema_version, model, batch, dtype, phase,
// optimizer (training only), precision.
Json report_root(const std::string& model_name, const RunSettings& s);

}  // namespace ridge
