// The terms every hardware model shares, so a model only decides where each stream's
// bytes are served from: compute time, host link, launch overhead and required
// bandwidth (begin_timing), then per-level traffic time and the bound (finish_timing).
#pragma once

#include <vector>

#include "hw/attainable_rates.hpp"
#include "hw/hardware_model.hpp"

namespace ridge {

// compute_s = flops / (peak[dtype] x compute_efficiency), or calibrated
// (flops + n_half) / (peak x compute), i.e. flops / attainable_flops_per_s; link_s = link_bytes / link
// bandwidth (0 when the hardware has no link: data on a host is already in its DRAM);
// overhead_s = kernels x kernel_launch_s (a calibrated class's: the calibration's kernel_time
// where it has one); required bandwidth per stream = bytes /
// compute_s (infinite when bytes move but nothing is computed). `dtype` must be supported.
LayerTiming begin_timing(const LayerWork& work, const HardwareSpec& hw, DType dtype);

// Time to widen one weight-only quantised weight in the kernel: [efficiency] dequant_ops
// / the fp32 vector peak (the dtype's peak without one); 0 without dequant_ops. Added to the layer's time, not overlapped: fitted on gpt-fast's
// A100 int8 and int4 decode, whose extra time over the weights' streaming is the same
// (docs/accuracy-llm.md).
double dequant_seconds_per_weight(const HardwareSpec& hw, DType dtype);

// The cache rule of a calibration: the layer's whole working set (input + output +
// weights) is served by the nearest level whose capacity holds it, else by DRAM.
// Sets the streams' levels in `t`; returns the bytes per level.
std::vector<double> cache_rule_placement(const LayerWork& work, const HardwareSpec& hw, LayerTiming& t);

// level_bytes[i]: bytes served by hw.memory[i]. Sets level_s (bytes / attainable_level_Bps:
// bandwidth x the memory efficiency of the calibrated class `cal`, else the descriptor's),
// memory_s (the slowest level), bound_level (that level when it is slower than compute,
// else -1) and time_s = max(compute, memory) + link + overhead.
void finish_timing(LayerTiming& t, const std::vector<double>& level_bytes, const HardwareSpec& hw,
                   const ClassEfficiency* cal = nullptr);

// ---------------------------------------------------------------------------------
// The same terms over a whole model's layers at once (HardwareModel::time_layers
// overrides). Each is the per-layer expression above written as an Eigen array
// expression, so per-layer results round exactly as time_layer's do.

// compute_s, link_s, overhead_s of every layer; memory_s = 0 and bound_level = -1,
// ready for add_level_batch.
void begin_batch(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype, LayerTimingArrays& out);

// Folds level `level`'s traffic (`bytes` per layer) into out.memory_s and, for now,
// out.bound_level as the slowest level so far. Call for levels 0, 1, ... in order.
template <typename Bytes>
void add_level_batch(LayerTimingArrays& out, const Eigen::ArrayBase<Bytes>& bytes, const HardwareSpec& hw, int level) {
  const double rate = attainable_level_Bps(hw, level);
  // Byte counts are whole numbers below 2^53, so this sum is exact in any order.
  if (static_cast<size_t>(level) < out.level_bytes.size()) out.level_bytes[static_cast<size_t>(level)] += bytes.sum();
  const auto level_s = (bytes > 0).select(bytes / rate, 0.0);
  const auto slower = level_s > out.memory_s;
  out.bound_level = slower.select(level, out.bound_level);  // reads the old memory_s: update it second
  out.memory_s = slower.select(level_s, out.memory_s);
}

// After the last level: the bound (memory strictly slower than compute names the
// slowest level, else -1), time_s, and the sums.
TimingSums end_batch(LayerTimingArrays& out);

}  // namespace ridge
