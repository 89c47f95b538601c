// Reads a model file (TOML; format in README "Model files") into a Model: expands
// repeated blocks, resolves input names, orders the graph, infers shapes and counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/workload/model.hpp"

namespace ridge {

// `tokens`, when given, replaces the first dimension of the input shape (the sequence
// of a language model's token ids): prefill reads the model at its prompt length,
// decode at one token.
Model read_model_file(const std::string& path, std::optional<int64_t> tokens = std::nullopt);
// `text` as if read from a file called `file_label` (used in messages).
Model read_model_string(const std::string& text, const std::string& file_label,
                        std::optional<int64_t> tokens = std::nullopt);

}  // namespace ridge
