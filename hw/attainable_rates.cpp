// Attainable compute rate, bandwidth and ridge point (see attainable_rates.hpp).
#include "hw/attainable_rates.hpp"

#include <algorithm>
#include <cstdlib>

#include "sim/base/ratio.hpp"

namespace ridge {

const ClassEfficiency* calibrated(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  return hw.calibration ? hw.calibration->find(work.op_class, dtype) : nullptr;
}

double attainable_level_Bps(const HardwareSpec& hw, int level, const ClassEfficiency* cal) {
  if (level < 0 || static_cast<size_t>(level) >= hw.memory.size()) return 0;
  const double bandwidth = hw.memory[static_cast<size_t>(level)].bandwidth_Bps;
  if (!cal) return bandwidth * hw.memory_efficiency;
  if (cal->memory_by_level.empty()) return bandwidth * cal->memory;
  // Its own fraction, else the nearest named level's attained bandwidth (the outer one
  // on a tie), capped by this level's bandwidth.
  int nearest = -1;
  double fraction = 0;
  for (int i = 0; i < static_cast<int>(hw.memory.size()); ++i) {
    auto it = cal->memory_by_level.find(hw.memory[static_cast<size_t>(i)].name);
    if (it == cal->memory_by_level.end()) continue;
    if (i == level) return bandwidth * it->second;
    if (nearest < 0 || std::abs(i - level) < std::abs(nearest - level)) nearest = i, fraction = it->second;
  }
  if (nearest < 0) return bandwidth * cal->memory;
  return std::min(bandwidth, hw.memory[static_cast<size_t>(nearest)].bandwidth_Bps * fraction);
}

double ridge_point(const HardwareSpec& hw, DType dtype, size_t level) {
  if (level >= hw.memory.size()) return 0;
  return ratio(hw.peak(dtype).value_or(0) * hw.compute_efficiency, attainable_level_Bps(hw, static_cast<int>(level)));
}

double attainable_flops_per_s(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  const ClassEfficiency* cal = calibrated(work, hw, dtype);
  const double peak = hw.peak(dtype).value_or(0);
  if (!cal) return peak * hw.compute_efficiency;
  if (work.flops <= 0) return peak * cal->compute;
  return peak * cal->compute * work.flops / (work.flops + cal->n_half_flops);
}

double layer_ridge_point(const LayerWork& work, const HardwareSpec& hw, DType dtype, int level) {
  return ratio(attainable_flops_per_s(work, hw, dtype), attainable_level_Bps(hw, level, calibrated(work, hw, dtype)));
}

}  // namespace ridge
