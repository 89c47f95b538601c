// The `ridge memory` report: a few sentences (the linear form in the batch, the parts,
// the peak, the fit) and the summary numbers as a quantity / value table, or with
// --timeline one row per layer; CSV, Markdown, LaTeX and JSON from the same field
// declarations (memory_fields). Formats only; every number comes from the MemoryReport.
#pragma once

#include <ostream>

#include "sim/engine/memory_result.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

ColumnTable memory_table(const MemoryReport& report, bool timeline, const ColumnChoice& columns);
Json memory_json(const MemoryReport& report);
void write_memory(const MemoryReport& report, OutputFormat format, bool timeline, const ColumnChoice& columns,
                  std::ostream& out, const CsvStyle& csv = {});

}  // namespace ridge
