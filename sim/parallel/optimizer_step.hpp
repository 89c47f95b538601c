// The optimizer step of mixed-precision Adam, per parameter a device updates, as
// Megatron-LM runs it: it reads and writes 28 B (the bf16 gradient 2, the fp32 master
// weight read and written 8, the bf16 weight written 2, Adam's m and v read and written
// 16) and does 12 fp32 FLOPs (Adam's, as run_settings.hpp counts them), at the device's
// memory bandwidth and fp32 peak: time = max(bytes / bandwidth, FLOPs / peak).
#pragma once

#include "hw/hardware_spec.hpp"

namespace ridge {

struct OptimizerStepTime {
  double compute_s = 0;
  double memory_s = 0;
  double time_s() const { return compute_s > memory_s ? compute_s : memory_s; }
};

OptimizerStepTime optimizer_step_time(double params, const HardwareSpec& device);

}  // namespace ridge
