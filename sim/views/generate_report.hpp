// The `ridge generate` report: time to first token, time per output token, total
// latency, tokens/s and the memory-bound share, as sentences or JSON (its quantities
// declared once in generate_fields). Formats a GenerationResult; computes nothing new.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_spec.hpp"
#include "sim/engine/generation.hpp"
#include "sim/views/field.hpp"
#include "sim/views/json.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

std::vector<Field<GenerationResult>> generate_fields();
std::string generate_text(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g);
Json generate_json(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g);

}  // namespace ridge
