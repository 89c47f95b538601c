// MODEL arguments: a zoo name (models/NAME.toml) or a path to a model file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/workload/model.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"

namespace ridge {

// Zoo model names, sorted.
std::vector<std::string> zoo_names();
// The file MODEL names: models/NAME.toml in the data folder for a zoo name, else the path
// itself; nothing when there is none (load_model then says why).
std::optional<std::string> model_file(const std::string& name_or_path);
// Reads a zoo model by name, a model file by path with its [params] overridden, or an
// ONNX file (*.onnx, read with `onnx`); an unknown name lists close ones. `tokens` as
// read_model_file takes it (prefill and decode).
Model load_model(const std::string& name_or_path, const std::vector<ParamOverride>& overrides = {},
                 const OnnxOptions& onnx = {}, std::optional<int64_t> tokens = std::nullopt);
// The same with only `tokens` (the LLM phases' callers).
inline Model load_model(const std::string& name_or_path, std::optional<int64_t> tokens) {
  return load_model(name_or_path, {}, {}, tokens);
}

}  // namespace ridge
