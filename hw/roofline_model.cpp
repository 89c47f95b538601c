// `roofline`: every stream comes from device DRAM (memory[0]);
// time = max(flops / achievable peak, bytes / achievable DRAM bandwidth) + link + launch.
// With a calibration (hw/calibration.hpp) the achievable values are the layer's op
// class's, and under its cache rule the working set of a calibrated class streams
// from the nearest level that holds it.
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
    const ClassEfficiency* cal = calibrated(work, hw, dtype);
    if (cal && hw.calibration->cache_rule) {
      finish_timing(t, cache_rule_placement(work, hw, t), hw, cal);
      return t;
    }
    std::vector<double> level_bytes(hw.memory.size(), 0.0);
    if (!level_bytes.empty()) level_bytes[0] = work.bytes();
    finish_timing(t, level_bytes, hw, cal);
    return t;
  }
  // time_layer over all layers as array expressions (same arithmetic, same rounding);
  // calibrated hardware is timed layer by layer.
  TimingSums time_layers(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype,
                         LayerTimingArrays& out) const override {
    if (hw.calibration || hw.conv_algorithms) return time_layers_one_by_one(*this, work, hw, dtype, out);
    begin_batch(work, hw, dtype, out);
    if (!hw.memory.empty()) add_level_batch(out, work.input_bytes + work.output_bytes + work.weight_bytes + work.kv_bytes, hw, 0);
    return end_batch(out);
  }
};
}  // namespace

const HardwareModel& roofline_model() {
  static const RooflineModel m;
  return m;
}

}  // namespace ridge
