// The terms every hardware model shares, so a model only decides where each stream's
// bytes are served from: compute time, host link, launch overhead and required
// bandwidth (begin_timing), then per-level traffic time and the bound (finish_timing).
#pragma once

#include <vector>

#include "hw/hardware_model.hpp"

namespace ridge {

// compute_s = flops / (peak[dtype] x compute_efficiency); link_s = link_bytes / link
// bandwidth (0 when the hardware has no link: data on a host is already in its DRAM);
// overhead_s = kernels x kernel_launch_s; required bandwidth per stream = bytes /
// compute_s (infinite when bytes move but nothing is computed). `dtype` must be supported.
LayerTiming begin_timing(const LayerWork& work, const HardwareSpec& hw, DType dtype);

// level_bytes[i]: bytes served by hw.memory[i]. Sets level_s (bytes / (bandwidth x
// memory_efficiency)), memory_s (the slowest level), bound_level (that level when it is
// slower than compute, else -1) and time_s = max(compute, memory) + link + overhead.
void finish_timing(LayerTiming& t, const std::vector<double>& level_bytes, const HardwareSpec& hw);

}  // namespace ridge
