// Views of a parallel sweep (sim/parallel/parallel_sweep): one row per point as CSV, JSON,
// a table, Markdown or LaTeX (the plan, its status and the totals `analyze --parallel`
// reports), and a short summary: the fastest plan that fits per model and system.
#pragma once

#include <ostream>
#include <string>

#include "sim/parallel/parallel_sweep.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

void write_parallel_sweep(const ParallelSweep& sweep, OutputFormat format, std::ostream& out, const CsvStyle& csv_style = {});
std::string parallel_sweep_summary_text(const ParallelSweep& sweep);

}  // namespace ridge
