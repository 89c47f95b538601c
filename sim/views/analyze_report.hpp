// The `ridge analyze` report: per-layer costs and totals as a table, CSV, Markdown or
// JSON (schema_version 1, keys as in DESIGN.md). Formats only; computes nothing new.
#pragma once

#include <ostream>

#include "sim/cost_analysis.hpp"
#include "sim/model.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

ColumnTable analyze_table(const Model& model, const CostAnalysis& costs);
Json analyze_json(const Model& model, const CostAnalysis& costs);
void write_analyze(const Model& model, const CostAnalysis& costs, OutputFormat format, std::ostream& out);

}  // namespace ridge
