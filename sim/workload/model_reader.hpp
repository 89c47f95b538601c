// Reads a model file (TOML; format in README "Model files") into a Model: expands
// repeated blocks, resolves input names, orders the graph, infers shapes and counts.
#pragma once

#include <string>

#include "sim/workload/model.hpp"

namespace ridge {

Model read_model_file(const std::string& path);
// `text` as if read from a file called `file_label` (used in messages).
Model read_model_string(const std::string& text, const std::string& file_label);

}  // namespace ridge
