// The `ridge memory` report: the footprint's parts, the linear form in the batch, the
// peak and the per-layer timeline, as a table, CSV, Markdown or JSON (keys as in
// DESIGN.md). Formats only; every number comes from the MemoryReport.
#pragma once

#include <ostream>

#include "sim/engine/device_fit.hpp"
#include "sim/workload/model.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

ColumnTable memory_table(const Model& model, const MemoryReport& report);
Json memory_json(const Model& model, const MemoryReport& report);
void write_memory(const Model& model, const MemoryReport& report, OutputFormat format, std::ostream& out);

}  // namespace ridge
