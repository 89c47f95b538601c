// Attainable compute rate, bandwidth and ridge point (see attainable_rates.hpp).
#include "hw/attainable_rates.hpp"

#include "sim/base/ratio.hpp"

namespace ridge {

const ClassEfficiency* calibrated(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  return hw.calibration ? hw.calibration->find(work.op_class, dtype) : nullptr;
}

double attainable_level_Bps(const HardwareSpec& hw, int level, const ClassEfficiency* cal) {
  if (level < 0 || static_cast<size_t>(level) >= hw.memory.size()) return 0;
  return hw.memory[static_cast<size_t>(level)].bandwidth_Bps * (cal ? cal->memory : hw.memory_efficiency);
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
