// Peak memory and "fits" of one sweep point: the one place the sweep asks for them.
//
// Placeholder until sim/memory_footprint.* (branch `training`) reaches main: it
// returns nothing, so the sweep's peak_memory_bytes and fits columns stay empty and no
// point is reported as "does not fit". When the footprint API lands, fill this from it
// (peak bytes of the point's settings, fits = peak <= hw.dram().capacity_bytes); the
// sweep then marks points that do not fit with a status and leaves their times empty.
#pragma once

#include <optional>

#include "hw/hardware_spec.hpp"
#include "sim/cost_analysis.hpp"
#include "sim/model.hpp"

namespace ridge {

struct PointMemory {
  std::optional<double> peak_bytes;  // the step's peak device memory
  std::optional<bool> fits;          // peak_bytes <= the device DRAM's capacity
};

inline PointMemory point_memory(const Model& /*model*/, const CostAnalysis& /*costs*/, const HardwareSpec& /*hw*/) {
  return {};
}

}  // namespace ridge
