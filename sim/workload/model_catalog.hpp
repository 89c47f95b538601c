// MODEL arguments: a zoo name (models/NAME.toml) or a path to a model file.
#pragma once

#include <string>
#include <vector>

#include "sim/workload/model.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {

// Zoo model names, sorted.
std::vector<std::string> zoo_names();
// Reads a zoo model by name or a model file by path, with its [params] overridden;
// an unknown name lists close ones.
Model load_model(const std::string& name_or_path, const std::vector<ParamOverride>& overrides = {});

}  // namespace ridge
