// The `ridge query MODEL` answer without --layer: whether the step is bandwidth-limited
// for the model as a whole, in a few plain sentences or JSON. Formats a ModelQuery;
// computes nothing new.
#pragma once

#include <string>

#include "sim/engine/model_query.hpp"
#include "sim/views/json.hpp"

namespace ridge {

std::string model_query_text(const ModelQuery& q);
Json model_query_json(const ModelQuery& q);

}  // namespace ridge
