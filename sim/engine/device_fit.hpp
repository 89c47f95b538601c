// A step's memory footprint against a device: whether it fits the DRAM less a runtime
// reserve, the largest batch that fits (verified against the timeline), and the time a
// checkpointed run spends recomputing. The footprint itself is hardware-independent
// (workload/memory_footprint).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

// A footprint against one device.
struct DeviceFit {
  std::string hardware;          // descriptor name
  std::string level;             // the DRAM level's name
  double dram_bytes = 0;         // its capacity
  double reserve_fraction = 0;   // kept back for the runtime (CUDA context, allocator fragmentation)
  int64_t capacity_bytes = 0;    // floor(dram x (1 - reserve))
  bool fits = false;
  int64_t max_batch = 0;         // largest batch whose peak fits (0: not even the model part fits)
  int64_t max_batch_peak = 0;    // verified: the peak at max_batch (<= capacity)
  int64_t next_batch_peak = 0;   // verified: the peak at max_batch + 1 (> capacity)
  // Checkpoint recompute time: the recomputed layers' forward work timed by the hardware
  // model, one kernel each. Empty when the hardware lacks the dtype.
  std::optional<double> recompute_s;
  // Decode: the longest context (cached tokens before the step) whose KV cache fits at
  // the run's batch, capped by the model's max_positions; 0 when the cache of one more
  // token does not fit. Empty in other phases, and when not even that fits (the weights
  // alone exceed the device).
  std::optional<int64_t> max_context;
  bool max_context_capped = false;  // the cap is the model's max_positions, not memory
};

inline constexpr double kDefaultReserveFraction = 0.05;

// Bytes of `hw`'s DRAM usable by the run: floor(capacity x (1 - reserve)).
int64_t usable_capacity(const HardwareSpec& hw, double reserve_fraction);

DeviceFit fit_on_device(const Model& model, const MemoryFootprint& fp, const HardwareSpec& hw,
                        const HardwareModel& hw_model, double reserve_fraction);

}  // namespace ridge
