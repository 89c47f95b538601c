// The Result of `ridge memory`: the footprint of one step, what checkpointing saves (or
// costs), the parts of the peak at the run's batch, the per-layer timeline rows, and
// with hardware the fit. Derived once here; views/memory_report only formats it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

// One layer's line of the timeline, bytes at the run's batch.
struct MemoryTimelineRow {
  std::string layer;
  std::string op;
  int segment = -1;  // checkpoint segment, -1 without checkpointing
  bool recomputed = false;
  int64_t kept_bytes = 0;                     // what this layer keeps for backward
  std::optional<int64_t> forward_live_bytes;  // all memory in use at its forward (model part included)
  std::optional<int64_t> recompute_live_bytes;
  std::optional<int64_t> backward_live_bytes;
  std::string peak_phase;  // "forward" / "recompute" / "backward" when the step's peak is here, else empty
};

struct MemoryReport {
  std::string model;
  MemoryFootprint footprint;
  std::string peak_layer;                             // where the peak happens
  // The peak event's parts at the run's batch.
  int64_t peak_kept_bytes = 0;
  int64_t peak_recomputed_bytes = 0;
  int64_t peak_transient_bytes = 0;
  int64_t peak_gradient_bytes = 0;
  std::optional<MemoryFootprint> without_checkpoint;  // when checkpointing
  // Peak without checkpointing minus peak with it; negative when checkpointing costs
  // memory (a segment's recompute holding more than the activations it drops).
  std::optional<int64_t> checkpoint_saving_bytes;
  std::optional<DeviceFit> fit;
  std::vector<MemoryTimelineRow> timeline;  // parallel to Model::layers
};

// `hw_model` is used only with `hw`.
MemoryReport analyze_memory(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint,
                            const HardwareSpec* hw, const HardwareModel* hw_model,
                            double reserve_fraction = kDefaultReserveFraction);

}  // namespace ridge
