// `ridge query`: why one layer is (or is not) bandwidth-limited on a piece of hardware,
// and what would flip it. Computes; views/query_report only formats.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"
#include "sim/engine/timing_analysis.hpp"

namespace ridge {

struct StreamNeed {
  const char* tensor = "";    // "input", "output", "weights"
  double bytes = 0;
  int level = 0;              // memory level serving it
  double required_Bps = 0;    // bytes / compute time
  double available_Bps = 0;   // that level's achievable bandwidth (peak x memory_efficiency)
};

struct LayerQuery {
  int index = -1;             // into Model::layers
  RunSettings settings;
  std::string hardware_model;
  LayerTimed timed;
  // The level in question: the binding level when memory-bound, else the level with the
  // longest traffic time (DRAM when nothing moves).
  int level = 0;
  double level_bytes = 0;           // bytes that level serves for this layer
  double arithmetic_intensity = 0;  // flops / level_bytes
  double ridge_point = 0;           // achievable peak / the level's achievable bandwidth
  double required_Bps = 0;          // level_bytes / compute time
  double available_Bps = 0;         // the level's achievable bandwidth
  std::array<StreamNeed, 3> streams;
  // For a memory-bound layer: the smallest batch above the current one at which it is
  // compute-bound (memory-bound one below it), searched with the engine up to
  // kFlipBatchLimit; nothing when none is found.
  std::optional<int64_t> compute_bound_at_batch;
  int64_t searched_to_batch = 0;  // the largest batch the search evaluated
  // FLOPs per byte of activations as the batch grows without end (weights amortised):
  // when below the ridge point, no batch can flip the layer.
  double per_sample_intensity = 0;
};

inline constexpr int64_t kFlipBatchLimit = int64_t{1} << 20;

// Throws InputError for an unknown layer (with close names) or an unsupported dtype.
LayerQuery query_layer(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                       const HardwareModel& hw_model, const std::string& layer_name);

}  // namespace ridge
