// Attainable compute rate, bandwidth and ridge point (see attainable_rates.hpp).
#include "hw/attainable_rates.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "hw/gemm_waves.hpp"
#include "sim/base/ratio.hpp"

namespace ridge {

KernelChoice kernel_choice(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  const double peak = hw.peak(dtype).value_or(0);
  const std::vector<ConvAlgorithm> algorithms =
      hw.conv_algorithms ? eligible_conv_algorithms(work, dtype, peak, *hw.conv_algorithms) : std::vector<ConvAlgorithm>{};
  if (algorithms.empty()) {
    const ClassEfficiency* cal =
        hw.calibration ? hw.calibration->find(work.op_class, dtype, hw.library ? library_of(work, *hw.library) : std::string())
                       : nullptr;
    return {cal, "", 1.0, peak};
  }
  std::vector<KernelChoice> candidates;
  for (const ConvAlgorithm& a : algorithms) {
    const ClassKey key = algorithm_class(work, dtype, a, hw);
    const ClassEfficiency* cal = hw.calibration ? hw.calibration->find(key.op_class, key.dtype, key.library) : nullptr;
    candidates.push_back({cal, a.name, a.multiplies, a.peak_flops});
  }
  const bool any_calibrated = std::any_of(candidates.begin(), candidates.end(), [](const KernelChoice& c) { return c.cal; });
  std::optional<KernelChoice> best;
  double best_s = 0;
  for (const KernelChoice& c : candidates) {
    if (any_calibrated && !c.cal) continue;
    const double s = compute_seconds(work, hw, dtype, c);
    if (!best || s < best_s) best = c, best_s = s;
  }
  return *best;
}

ClassKey algorithm_class(const LayerWork& work, DType dtype, const ConvAlgorithm& algorithm, const HardwareSpec& hw) {
  if (algorithm.as_linear) return {OpClass::linear, dtype, hw.library ? hw.library->linear : std::string()};
  return {work.op_class, dtype, algorithm.name};
}

double compute_seconds(const LayerWork& work, const HardwareSpec& hw, DType dtype, const KernelChoice& choice) {
  const ClassEfficiency* cal = choice.cal;
  double peak = choice.peak_flops * (cal ? cal->compute * gemm_shape_factor(work, *cal) : hw.compute_fraction(dtype));
  // Calibrated: attained = peak x compute x shape x W / (a W + n_half), so time = (a W + n_half) / (peak x compute x shape).
  const double work_flops = choice.multiplies * work.flops;
  const double flops = cal && work.flops > 0 ? work_flops + cal->n_half_flops : work_flops;
  if (!cal) peak *= gemm_wave_efficiency(work, hw, dtype);
  return work.flops > 0 && peak > 0 ? flops / peak : 0;
}

const ClassEfficiency* calibrated(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  if (!hw.calibration) return nullptr;
  return kernel_choice(work, hw, dtype).cal;
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
  const KernelChoice choice = kernel_choice(work, hw, dtype);
  const ClassEfficiency* cal = choice.cal;
  const double peak = choice.peak_flops / choice.multiplies;
  if (!cal) return peak * hw.compute_fraction(dtype) * gemm_wave_efficiency(work, hw, dtype);
  if (work.flops <= 0) return peak * cal->compute;
  return choice.peak_flops * cal->compute * work.flops / (choice.multiplies * work.flops + cal->n_half_flops) *
         gemm_shape_factor(work, *cal);
}

double layer_ridge_point(const LayerWork& work, const HardwareSpec& hw, DType dtype, int level) {
  const KernelChoice choice = kernel_choice(work, hw, dtype);
  return ratio(attainable_flops_per_s(work, hw, dtype) * choice.multiplies, attainable_level_Bps(hw, level, choice.cal));
}

}  // namespace ridge
