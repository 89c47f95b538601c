// Builds small models from text for the op and model-file tests.
#pragma once

#include <string>

#include "sim/workload/model_reader.hpp"

namespace ridge::testing {

// A model with per-sample input `shape` (TOML array text, "[3, 8, 8]") and `layers`
// (TOML text of [[layer]] tables).
inline Model model_of(const std::string& shape, const std::string& layers) {
  return read_model_string("name = \"t\"\n[input]\nshape = " + shape + "\n" + layers, "test.toml");
}

// The last layer of a model of one layer called "x": `body` is its keys after the name.
inline Layer one_layer(const std::string& shape, const std::string& body) {
  return model_of(shape, "[[layer]]\nname = \"x\"\n" + body + "\n").layers.back();
}

}  // namespace ridge::testing
