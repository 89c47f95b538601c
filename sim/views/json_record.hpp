// A one-record JSON report (query, generate) as a CSV of one row whose columns are its
// keys, so `--format csv` and `--format json` cannot disagree: nested objects flatten to
// dotted keys ("bound_share.memory"), arrays of objects by index ("memory_levels.0.name"),
// arrays of integers to a shape ("1x96x55x55", as analyze's CSV writes output_shape),
// numbers in the same shortest round-trip form, booleans true / false, null empty.
#pragma once

#include "sim/views/column_table.hpp"
#include "sim/views/json.hpp"

namespace ridge {

ColumnTable json_record_table(const Json& record);

}  // namespace ridge
