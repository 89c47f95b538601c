// Peak memory and "fits" of one sweep point: the one place the sweep asks for them.
// The footprint depends on the model and run settings only, so the sweep computes it
// once per group of points and judges it here against each hardware point, with the
// same runtime reserve as `ridge memory` (kDefaultReserveFraction).
#pragma once

#include <optional>

#include "hw/hardware_spec.hpp"
#include "sim/engine/device_fit.hpp"

namespace ridge {

struct PointMemory {
  std::optional<double> peak_bytes;  // the step's peak device memory
  std::optional<bool> fits;          // peak_bytes <= the device DRAM's usable capacity
};

inline PointMemory point_memory(const MemoryFootprint& footprint, const HardwareSpec& hw) {
  double peak = static_cast<double>(footprint.peak_bytes());
  return {peak, peak <= static_cast<double>(usable_capacity(hw, kDefaultReserveFraction))};
}

}  // namespace ridge
