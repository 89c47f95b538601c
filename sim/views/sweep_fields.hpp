// The schema of `ridge sweep`: the columns naming a point (model, hardware, hw_model,
// each [[vary]] key, phase, dtype, optimizer, batch, status), the point's derived
// totals, and with --per-layer each layer's timing; each declared once. `plot sweep`
// reads CSV columns by these keys.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/sweep_run.hpp"
#include "sim/views/field.hpp"

namespace ridge {

// One CSV / JSON row: a point, or with layer >= 0 one layer of a point.
struct SweepRow {
  const SweepPlan* plan = nullptr;
  const SweepResult* result = nullptr;
  size_t point = 0;
  long layer = -1;
};

// The columns that name a point; `vary_as_columns` gives each [[vary]] key a column of
// its own (CSV), else they are left for the caller (JSON's `vary` object).
std::vector<Field<SweepRow>> sweep_point_name_fields(const SweepPlan& plan, bool vary_as_columns);
std::vector<Field<SweepRow>> sweep_point_total_fields();
std::vector<Field<SweepRow>> sweep_layer_fields();

// Keys of the point totals and layer fields, for readers of sweep CSVs (plot sweep):
// a CSV column that is not one of these, nor a naming column, is a [[vary]] key.
std::vector<std::string> sweep_reported_keys();

// A [[vary]] key's column title, in words: the key path without its section, its level
// or dtype named first ("memory.HBM2e.bandwidth" -> "HBM2e bandwidth", "compute.fp16"
// -> "fp16 peak", "overhead.kernel_launch" -> "kernel launch").
std::string vary_key_title(const std::string& key);

// A sweep CSV column's title and unit by its key, as the schema declares them (a
// naming column, a point total, or a [[vary]] key: its title, Unit::text since its
// values are written as in descriptors); nothing for a key the schema lacks.
struct SweepColumn {
  std::string title;
  Unit unit = Unit::text;
};
std::optional<SweepColumn> sweep_column(const std::string& key);

}  // namespace ridge
