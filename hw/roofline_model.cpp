// `roofline`: every stream comes from device DRAM (memory[0]);
// time = max(flops / achievable peak, bytes / achievable DRAM bandwidth) + link + launch.
#include "hw/timing_terms.hpp"

namespace ridge {

namespace {
class RooflineModel final : public HardwareModel {
 public:
  std::string_view name() const override { return "roofline"; }
  std::string_view summary() const override {
    return "max(compute, all bytes over DRAM bandwidth) + host link + kernel launch";
  }
  LayerTiming time_layer(const LayerWork& work, const HardwareSpec& hw, DType dtype) const override {
    LayerTiming t = begin_timing(work, hw, dtype);
    std::vector<double> level_bytes(hw.memory.size(), 0.0);
    if (!level_bytes.empty()) level_bytes[0] = work.bytes();
    finish_timing(t, level_bytes, hw);
    return t;
  }
};
}  // namespace

const HardwareModel& roofline_model() {
  static const RooflineModel m;
  return m;
}

}  // namespace ridge
