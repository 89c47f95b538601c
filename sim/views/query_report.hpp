// The `ridge query` answer: a few plain sentences, or JSON (the layer's schema fields,
// as `analyze --hw` reports them, plus the query's own). Formats a LayerQuery;
// computes nothing new.
#pragma once

#include <string>

#include "hw/hardware_spec.hpp"
#include "sim/engine/layer_query.hpp"
#include "sim/views/json.hpp"

namespace ridge {

std::string query_text(const LayerQuery& q, const HardwareSpec& hw);
Json query_json(const LayerQuery& q, const HardwareSpec& hw);

}  // namespace ridge
