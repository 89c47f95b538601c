// Small models for the training and memory tests, written out so every count in the
// tests can be checked by hand.
#pragma once

#include <string>

#include "sim/workload/model_reader.hpp"

namespace ridge::test_models {

// The zoo's `mlp` (models/mlp.toml): 1000 inputs, four hidden Linear(., 100) each
// followed by an in-place ReLU, Linear(100, 10) out.
// Params: 1000*100+100 + 3*(100*100+100) + 100*10+10 = 100,100 + 30,300 + 1,010 = 131,410.
// Layers in order: hidden.0.fc, hidden.0.relu, ..., hidden.3.relu, out (9 layers).
inline std::string mlp_toml(bool inplace_relu = true) {
  return std::string(R"(name = "mlp"
[input]
shape = [1000]
[[layer]]
name = "hidden"
repeat = 4
[[layer.body]]
name = "fc"
op = "linear"
out_features = 100
[[layer.body]]
name = "relu"
op = "relu"
inplace = )") + (inplace_relu ? "true" : "false") + R"(
[[layer]]
name = "out"
op = "linear"
out_features = 10
)";
}

inline Model mlp(bool inplace_relu = true) { return read_model_string(mlp_toml(inplace_relu), "mlp.toml"); }

}  // namespace ridge::test_models
