// Reads a model file (TOML; format in docs/reference/model-files.md) into a Model: expands
// its [params] (named integers, used as expressions in any integer field), expands
// repeated blocks, resolves input names, orders the graph, infers shapes and counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/workload/model.hpp"

namespace ridge {

// `--set model.NAME=VALUE` or a sweep's `[[vary]] key = "model.NAME"`: replaces the
// [params] entry NAME for one run. VALUE is an integer expression (it may use the other
// params); `where` locates it for errors (empty file: the command line).
struct ParamOverride {
  std::string name;
  std::string value;
  SourceLoc where;
};

// `overrides` with `NAME = value` appended, as a command sets a [params] entry for one
// rank or stage (a plan's tp, ep or layers per stage).
std::vector<ParamOverride> with_param(std::vector<ParamOverride> overrides, const char* name, int64_t value);

// `tokens`, when given, replaces the first dimension of the input shape (the sequence
// of a language model's token ids): prefill reads the model at its prompt length,
// decode at one token.
Model read_model_file(const std::string& path, const std::vector<ParamOverride>& overrides = {},
                      std::optional<int64_t> tokens = std::nullopt);
// A model table already parsed (or translated from ONNX), as if read from `file_label`.
Model read_model_table(const toml::table& root, const std::string& file_label,
                       const std::vector<ParamOverride>& overrides = {}, std::optional<int64_t> tokens = std::nullopt);
// `text` as if read from a file called `file_label` (used in messages).
Model read_model_string(const std::string& text, const std::string& file_label,
                        const std::vector<ParamOverride>& overrides = {},
                        std::optional<int64_t> tokens = std::nullopt);

}  // namespace ridge
