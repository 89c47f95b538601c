// Attainable compute rate, bandwidth and ridge point (see attainable_rates.hpp).
#include "hw/attainable_rates.hpp"

#include <algorithm>
#include <cstdlib>

#include "hw/gemm_waves.hpp"
#include "sim/base/ratio.hpp"

namespace ridge {

const ClassEfficiency* calibrated(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  if (!hw.calibration) return nullptr;
  return hw.calibration->find(work.op_class, dtype, hw.library ? library_of(work, *hw.library) : std::string());
}

int fraction_level(const std::vector<bool>& has_fraction, int level) {
  int nearest = -1;
  for (int i = 0; i < static_cast<int>(has_fraction.size()); ++i)
    if (has_fraction[static_cast<size_t>(i)] && (nearest < 0 || std::abs(i - level) < std::abs(nearest - level))) nearest = i;
  return nearest;
}

double attainable_level_Bps(const HardwareSpec& hw, int level, const ClassEfficiency* cal) {
  if (level < 0 || static_cast<size_t>(level) >= hw.memory.size()) return 0;
  const double bandwidth = hw.memory[static_cast<size_t>(level)].bandwidth_Bps;
  if (!cal) return bandwidth * hw.memory_efficiency;
  if (cal->memory_by_level.empty()) return bandwidth * cal->memory;
  // Its own fraction, else the nearest named level's attained bandwidth, capped by this level's.
  std::vector<bool> named;
  for (const MemoryLevel& m : hw.memory) named.push_back(cal->memory_by_level.count(m.name) > 0);
  const int from = fraction_level(named, level);
  if (from < 0) return bandwidth * cal->memory;
  const MemoryLevel& lender = hw.memory[static_cast<size_t>(from)];
  const double attained = lender.bandwidth_Bps * cal->memory_by_level.at(lender.name);
  return from == level ? attained : std::min(bandwidth, attained);
}

double ridge_point(const HardwareSpec& hw, DType dtype, size_t level) {
  if (level >= hw.memory.size()) return 0;
  return ratio(hw.peak(dtype).value_or(0) * hw.compute_fraction(dtype), attainable_level_Bps(hw, static_cast<int>(level)));
}

std::pair<double, double> gemm_shape_slowdowns(double positions, double reduction, double positions_half,
                                               double reduction_half) {
  return {positions > 0 ? 1 + positions_half / positions : 1.0, reduction > 0 ? 1 + reduction_half / reduction : 1.0};
}

double gemm_shape_factor(const LayerWork& work, const ClassEfficiency& cal) {
  const auto [p, k] = gemm_shape_slowdowns(work.gemm_positions, work.gemm_reduction, cal.positions_half, cal.reduction_half);
  return 1 / (p * k);
}

double attainable_flops_per_s(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  const ClassEfficiency* cal = calibrated(work, hw, dtype);
  const double peak = hw.peak(dtype).value_or(0);
  if (!cal) return peak * hw.compute_fraction(dtype) * gemm_wave_efficiency(work, hw, dtype);
  if (work.flops <= 0) return peak * cal->compute;
  return peak * cal->compute * work.flops / (work.flops + cal->n_half_flops) * gemm_shape_factor(work, *cal);
}

double layer_ridge_point(const LayerWork& work, const HardwareSpec& hw, DType dtype, int level) {
  return ratio(attainable_flops_per_s(work, hw, dtype), attainable_level_Bps(hw, level, calibrated(work, hw, dtype)));
}

}  // namespace ridge
