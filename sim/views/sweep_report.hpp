// Views of a finished sweep: one row per point (or per point and layer) as CSV, JSON,
// a table, Markdown or LaTeX, all from the sweep schema (sweep_fields), and the short
// text summary worded from the engine's SweepSummary. Nothing here recomputes a timing.
#pragma once

#include <ostream>
#include <string>

#include "sim/engine/sweep_run.hpp"
#include "sim/engine/sweep_summary.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

void write_sweep(const SweepPlan& plan, const SweepResult& result, bool per_layer, OutputFormat format,
                 const ColumnChoice& columns, std::ostream& out, const CsvStyle& csv_style = {});
Json sweep_json(const SweepPlan& plan, const SweepResult& result, bool per_layer);

// A few lines for people: per model, the fastest hardware point, and the batch (or
// varied value) at which the bound flips, per hardware, dtype and phase.
std::string sweep_summary_text(const SweepPlan& plan, const SweepResult& result, const SweepSummary& summary);

}  // namespace ridge
