// The schema of `ridge memory`: the summary numbers of a MemoryReport and the columns
// of its per-layer timeline, each declared once (key = JSON and CSV name).
#pragma once

#include <vector>

#include "sim/engine/memory_result.hpp"
#include "sim/views/field.hpp"

namespace ridge {

std::vector<Field<MemoryReport>> memory_summary_fields(const MemoryReport& report);
std::vector<Field<MemoryTimelineRow>> memory_timeline_fields(const MemoryReport& report);

}  // namespace ridge
