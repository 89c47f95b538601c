// The `ridge query` answer: a few plain sentences, or JSON (keys as in DESIGN.md).
// Formats a LayerQuery; computes nothing new.
#pragma once

#include <ostream>

#include "hw/hardware_spec.hpp"
#include "sim/engine/layer_query.hpp"
#include "sim/workload/model.hpp"
#include "sim/views/json.hpp"

namespace ridge {

std::string query_text(const Model& model, const HardwareSpec& hw, const LayerQuery& q);
Json query_json(const Model& model, const HardwareSpec& hw, const LayerQuery& q);

}  // namespace ridge
