// The `ridge analyze` report: per-layer numbers and totals of a RunResult as a table,
// CSV, Markdown, LaTeX or JSON, all generated from the layer schema (layer_fields).
// Formats only; computes nothing.
#pragma once

#include <ostream>

#include "sim/engine/result.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

ColumnTable analyze_table(const RunResult& run, const ColumnChoice& columns);
Json analyze_json(const RunResult& run, const ColumnChoice& columns);
// Its "layers" and "totals" alone (the Python module builds each when it is asked for).
Json analyze_layers_json(const RunResult& run, const ColumnChoice& columns);
Json analyze_totals_json(const RunResult& run, const ColumnChoice& columns);
// The columns CSV and JSON carry: every field unless --columns chose some.
ColumnChoice machine_columns(const ColumnChoice& columns);
// Table, Markdown and LaTeX show the compact columns by default, CSV and JSON every
// field; --columns applies to all.
void write_analyze(const RunResult& run, OutputFormat format, const ColumnChoice& columns, std::ostream& out,
                   const CsvStyle& csv = {});

}  // namespace ridge
