// `ridge compare` output: one row per device (time per step, throughput, fit and largest
// batch, bound mix, energy and cost per sample, ratios against the first device), the
// cost basis, and the layers whose bound differs, as a table, CSV, JSON, Markdown or LaTeX.
#pragma once

#include <ostream>
#include <vector>

#include "sim/engine/device_comparison.hpp"
#include "sim/views/field.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

std::vector<Field<ComparedDevice>> compare_fields(const ComparisonResult& r);
void write_compare(const ComparisonResult& r, OutputFormat format, std::ostream& out);

}  // namespace ridge
