// MODEL arguments: a zoo name (models/NAME.toml) or a path to a model file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/workload/model.hpp"

namespace ridge {

// Zoo model names, sorted.
std::vector<std::string> zoo_names();
// Reads a zoo model by name or a model file by path; an unknown name lists close ones.
// `tokens` as read_model_file takes it.
Model load_model(const std::string& name_or_path, std::optional<int64_t> tokens = std::nullopt);

}  // namespace ridge
