// Shared timing terms (see timing_terms.hpp).
#include "hw/timing_terms.hpp"

#include <algorithm>
#include <limits>

#include "hw/gemm_waves.hpp"
#include "sim/base/error.hpp"

namespace ridge {

namespace {
double required(double bytes, double compute_s) {
  if (bytes <= 0) return 0;
  if (compute_s <= 0) return std::numeric_limits<double>::infinity();
  return bytes / compute_s;
}

// Data on the host (--data-on host) crosses the host link; a descriptor without one
// cannot time that, and charging 0 s would silently drop the transfer.
void require_link(const HardwareSpec& hw) {
  if (!hw.link)
    throw InputError({hw.file}, "hardware '" + hw.id + "' has no [link], so --data-on host has no link to send the data over",
                     "add a [link] table with its name and bandwidth (or --set link.name=PCIe --set link.bandwidth=\"32 GB/s\"), "
                     "or use --data-on device");
}
}  // namespace

double dequant_seconds_per_weight(const HardwareSpec& hw, DType dtype) {
  if (hw.dequant_ops_per_weight <= 0) return 0;
  const double vector_rate = hw.peak(DType::fp32).value_or(hw.peak(dtype).value_or(0));
  return vector_rate > 0 ? hw.dequant_ops_per_weight / vector_rate : 0;
}

LayerTiming begin_timing(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  LayerTiming t;
  const KernelChoice choice = kernel_choice(work, hw, dtype);
  t.compute_s = compute_seconds(work, hw, dtype, choice);
  if (work.link_bytes > 0) require_link(hw);
  t.link_s = work.link_bytes > 0 ? work.link_bytes / hw.link->bandwidth_Bps : 0;
  t.overhead_s = work.kernels * hw.per_kernel_s();
  t.dequant_s = work.dequant_weights * dequant_seconds_per_weight(hw, dtype);
  t.required_input_Bps = required(work.input_bytes, t.compute_s);
  t.required_output_Bps = required(work.output_bytes, t.compute_s);
  t.required_weight_Bps = required(work.weight_bytes, t.compute_s);
  t.required_kv_Bps = required(work.kv_bytes, t.compute_s);
  return t;
}

std::vector<double> cache_rule_placement(const LayerWork& work, const HardwareSpec& hw, LayerTiming& t) {
  std::vector<double> level_bytes(hw.memory.size(), 0.0);
  if (hw.memory.empty()) return level_bytes;
  int level = 0;
  for (size_t i = hw.memory.size(); i-- > 1;)
    if (work.bytes() <= hw.memory[i].capacity_bytes) {
      level = static_cast<int>(i);
      break;
    }
  t.input_level = t.output_level = t.weight_level = level;
  level_bytes[static_cast<size_t>(level)] = work.bytes();
  return level_bytes;
}

void finish_timing(LayerTiming& t, const std::vector<double>& level_bytes, const HardwareSpec& hw,
                   const ClassEfficiency* cal) {
  t.level_s.assign(hw.memory.size(), 0.0);
  t.level_bytes.assign(hw.memory.size(), 0.0);
  std::copy_n(level_bytes.begin(), std::min(level_bytes.size(), hw.memory.size()), t.level_bytes.begin());
  t.memory_s = 0;
  int slowest = -1;
  for (size_t i = 0; i < hw.memory.size() && i < level_bytes.size(); ++i) {
    if (level_bytes[i] <= 0) continue;
    t.level_s[i] = level_bytes[i] / attainable_level_Bps(hw, static_cast<int>(i), cal);
    if (t.level_s[i] > t.memory_s) {
      t.memory_s = t.level_s[i];
      slowest = static_cast<int>(i);
    }
  }
  // Ties go to compute: a layer is memory-bound only when memory is strictly slower.
  t.bound_level = t.memory_s > t.compute_s ? slowest : -1;
  t.overlapped = !cal || cal->overlap;
  t.time_s = t.roof_s() + t.link_s + t.overhead_s + t.dequant_s;
}

void begin_batch(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype, LayerTimingArrays& out) {
  out.resize(work.size());
  out.level_bytes.assign(hw.memory.size(), 0.0);
  const double peak = hw.peak(dtype).value_or(0) * hw.compute_fraction(dtype);
  if (peak > 0)
    out.compute_s = (work.flops > 0).select(work.flops / peak, 0.0);
  else
    out.compute_s.setZero();
  if (peak > 0 && hw.compute_units > 0)  // written as begin_timing does, so each layer rounds alike
    for (Eigen::Index i = 0; i < out.compute_s.size(); ++i)
      if (work.flops[i] > 0)
        out.compute_s[i] =
            work.flops[i] / (peak * gemm_wave_efficiency(work.flops[i], work.gemm_positions[i], work.gemm_reduction[i], hw, dtype));
  if ((work.link_bytes > 0).any()) require_link(hw);
  if (hw.link)
    out.link_s = (work.link_bytes > 0).select(work.link_bytes / hw.link->bandwidth_Bps, 0.0);
  else
    out.link_s.setZero();
  out.overhead_s = work.kernels * hw.per_kernel_s();
  out.dequant_s = work.dequant_weights * dequant_seconds_per_weight(hw, dtype);
  out.memory_s.setZero();
  out.bound_level.setConstant(-1);
}

TimingSums end_batch(LayerTimingArrays& out) {
  out.bound_level = (out.memory_s > out.compute_s).select(out.bound_level, -1);
  TimingSums s = finish_batch(out);
  s.level_bytes = out.level_bytes;
  return s;
}

}  // namespace ridge
