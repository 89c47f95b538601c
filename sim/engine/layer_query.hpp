// `ridge query`: why one layer is (or is not) bandwidth-limited on a piece of hardware,
// and what would flip it. The layer's numbers are its derived LayerResult (the same
// numbers `analyze --hw` reports); the query adds the batch search. views/query_report
// only formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

struct LayerQuery {
  int index = -1;  // into Model::layers
  std::string model;
  RunSettings settings;
  std::string hardware_model;
  LayerResult layer;
  // For a memory-bound layer: the smallest batch above the current one at which it is
  // compute-bound (memory-bound one below it), searched with the engine up to
  // kFlipBatchLimit; nothing when none is found.
  std::optional<int64_t> compute_bound_at_batch;
  int64_t searched_to_batch = 0;  // the largest batch the search evaluated
  // Timed FLOPs per byte of activations as the batch grows without end (weights
  // amortised): when below the ridge point, no batch can flip the layer.
  double per_sample_intensity = 0;
};

inline constexpr int64_t kFlipBatchLimit = int64_t{1} << 20;

// Throws InputError for an unknown layer (with close names) or an unsupported dtype.
LayerQuery query_layer(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                       const HardwareModel& hw_model, const std::string& layer_name);

}  // namespace ridge
