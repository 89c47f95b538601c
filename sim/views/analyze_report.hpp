// The `ridge analyze` report: per-layer costs and totals as a table, CSV, Markdown or
// JSON (schema_version 1, keys as in DESIGN.md). Formats only; computes nothing new.
#pragma once

#include <ostream>

#include "hw/hardware_spec.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model.hpp"
#include "sim/engine/timing_analysis.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

// With --hw: the hardware and its timing of the same run, adding time, bound, attained
// FLOP/s and required-bandwidth columns (and keys) to the cost report.
struct TimedRun {
  const HardwareSpec& hw;
  const TimingAnalysis& timing;
};

ColumnTable analyze_table(const Model& model, const CostAnalysis& costs, const TimedRun* timed = nullptr);
Json analyze_json(const Model& model, const CostAnalysis& costs, const TimedRun* timed = nullptr);
void write_analyze(const Model& model, const CostAnalysis& costs, OutputFormat format, std::ostream& out,
                   const TimedRun* timed = nullptr);

}  // namespace ridge
