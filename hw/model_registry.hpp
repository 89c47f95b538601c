// The one table naming every hardware model (hw/model_registry.cpp). Adding a model is
// one file in hw/ plus one row there.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"

namespace ridge {

// Every registered model, in registry order.
const std::vector<const HardwareModel*>& hardware_models();
std::vector<std::string> hardware_model_names();

// The model called `name`; an unknown name is an InputError listing close names.
const HardwareModel& find_hardware_model(const std::string& name);

// `requested` (from --hw-model) when not empty, else the descriptor's default model.
const HardwareModel& select_hardware_model(const HardwareSpec& hw, const std::string& requested);

}  // namespace ridge
