// The schema of a layer's numbers: every quantity `analyze` (per layer and totals),
// `query` and the plots' data report, declared once with its key, title and unit.
// The keys are the JSON and CSV names (docs/reference/json-schema.md).
#pragma once

#include <vector>

#include "sim/engine/result.hpp"
#include "sim/views/field.hpp"

namespace ridge {

// The fields of a layer (and of the totals row) of `run`: costs always, training
// costs in training, timing with hardware (one per-level field per memory level).
std::vector<Field<LayerResult>> layer_fields(const RunResult& run);
// The same for a layer derived alone (query): `hw` is null without hardware.
std::vector<Field<LayerResult>> layer_fields(const RunSettings& settings, const HardwareSpec* hw);

// Run-level numbers reported beside the totals: active_params (a mixture-of-experts
// model only: the parameters one token uses), and with hardware samples_per_s and
// memory_bound_share.
std::vector<Field<RunResult>> run_fields(const RunResult& run);

}  // namespace ridge
