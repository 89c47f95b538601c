// MODEL arguments: a zoo name (models/NAME.toml) or a path to a model file.
#pragma once

#include <string>
#include <vector>

#include "sim/workload/model.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx_reader.hpp"

namespace ridge {

// Zoo model names, sorted.
std::vector<std::string> zoo_names();
// Reads a zoo model by name, a model file by path with its [params] overridden, or an
// ONNX file (*.onnx, read with `onnx`); an unknown name lists close ones.
Model load_model(const std::string& name_or_path, const std::vector<ParamOverride>& overrides = {},
                 const OnnxOptions& onnx = {});

}  // namespace ridge
