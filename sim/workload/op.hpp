// The interface every layer type implements: read its attributes from the model file,
// check its input shapes, infer the output shape and count its costs per sample.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/workload/layer_counts.hpp"
#include "sim/workload/op_class.hpp"
#include "sim/workload/shape.hpp"
#include "sim/base/toml_fields.hpp"

namespace ridge {

// Thrown by an op when its inputs do not fit it; the graph builder adds the layer's
// name and location.
class ShapeMismatch : public std::runtime_error {
 public:
  explicit ShapeMismatch(const std::string& what) : std::runtime_error(what) {}
};

struct OpResult {
  Shape output;
  LayerCounts counts;
  std::optional<OpClass> op_class;  // set where it depends on attributes (conv2d), else OpInfo's
};

// `attrs` holds the layer's table (name, op, inputs are already read); the op reads its
// own keys and leaves unknown ones for the caller to reject. `inputs` are per-sample.
using OpFunction = OpResult (*)(TomlFields& attrs, const std::vector<Shape>& inputs);

struct OpInfo {
  std::string_view name;
  OpFunction evaluate;
  int min_inputs;
  int max_inputs;  // -1: any number
  OpClass op_class;  // unless its evaluate function chooses one (OpResult::op_class)
  std::string_view summary;
};

}  // namespace ridge
