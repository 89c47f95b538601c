// The schema of the whole-model query's numbers (`ridge query MODEL` without --layer):
// the step's verdict and sums, the share of the step by bound, the bytes per token by
// stream, each memory level's traffic and the largest linear layer's flip batch,
// declared once with key, title and unit like every other view (see field.hpp). JSON
// nests the dotted keys; CSV is one row of the model fields.
#pragma once

#include <vector>

#include "sim/engine/model_query.hpp"
#include "sim/views/field.hpp"

namespace ridge {

// The step's numbers (one row per query).
std::vector<Field<ModelQuery>> model_query_fields(const RunSettings& settings);
// One memory level's traffic over the step ("memory_levels" in JSON).
std::vector<Field<LevelTraffic>> level_traffic_fields();
// The largest linear layer and the batch where it turns compute-bound ("largest_linear").
std::vector<Field<LayerQuery>> largest_linear_fields();

}  // namespace ridge
