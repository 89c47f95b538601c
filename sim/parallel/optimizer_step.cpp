// Mixed-precision Adam's step (see optimizer_step.hpp).
#include "sim/parallel/optimizer_step.hpp"

namespace ridge {

namespace {
constexpr double kUpdateBytes = 28;  // grad 2 + fp32 master read+write 8 + bf16 weight write 2 + m, v read+write 16
constexpr double kUpdateFlops = 12;  // Adam (run_settings.hpp)
}  // namespace

OptimizerStepTime optimizer_step_time(double params, const HardwareSpec& device) {
  double hbm = device.memory.empty() ? 1 : device.memory.front().bandwidth_Bps;
  double fp32 = device.peak_flops.count(DType::fp32) ? device.peak_flops.at(DType::fp32) : 1;
  return {params * kUpdateFlops / fp32, params * kUpdateBytes / hbm};
}

}  // namespace ridge
