// `hierarchical`: each stream is served by the nearest memory level that holds it.
// The fit is judged per layer, nearest level first (the last in the descriptor's list):
//   1. weights: the layer's weight bytes alone against a level's capacity; weights that
//      fit are taken to be resident there (loaded before the step, as a serving system
//      keeps them), so they never touch DRAM;
//   2. activations: the layer's input and output bytes together against what is left of
//      a level's capacity after the weights placed in it;
// anything that fits nowhere nearer is served by DRAM (memory[0]). Memory time is the
// slowest level's traffic over its bandwidth, and a memory-bound layer names that level.
// A calibration's per-class efficiencies apply as in the roofline model; placement
// stays this model's own.
#include "hw/timing_terms.hpp"

namespace ridge {

namespace {

// The nearest level (highest index) whose free capacity holds `bytes`, else 0 (DRAM).
int nearest_fit(double bytes, const std::vector<double>& free_bytes) {
  for (size_t i = free_bytes.size(); i-- > 1;)
    if (bytes <= free_bytes[i]) return static_cast<int>(i);
  return 0;
}

class HierarchicalModel final : public HardwareModel {
 public:
  std::string_view name() const override { return "hierarchical"; }
  std::string_view summary() const override {
    return "each stream from the nearest level that holds it (weights first, then input+output); the slowest level binds";
  }
  LayerTiming time_layer(const LayerWork& work, const HardwareSpec& hw, DType dtype) const override {
    LayerTiming t = begin_timing(work, hw, dtype);
    std::vector<double> free_bytes;
    for (const MemoryLevel& m : hw.memory) free_bytes.push_back(m.capacity_bytes);
    std::vector<double> level_bytes(hw.memory.size(), 0.0);
    if (!hw.memory.empty()) {
      t.weight_level = nearest_fit(work.weight_bytes, free_bytes);
      free_bytes[t.weight_level] -= work.weight_bytes;
      t.input_level = t.output_level = nearest_fit(work.input_bytes + work.output_bytes, free_bytes);
      level_bytes[t.weight_level] += work.weight_bytes;
      level_bytes[t.input_level] += work.input_bytes + work.output_bytes;
    }
    finish_timing(t, level_bytes, hw, calibrated(work, hw, dtype));
    return t;
  }
  // time_layer over all layers as array expressions: the nearest fitting level is the
  // highest index that fits, so levels are tried in ascending order, the last fit winning.
  TimingSums time_layers(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype,
                         LayerTimingArrays& out) const override {
    if (hw.calibration) return time_layers_one_by_one(*this, work, hw, dtype, out);  // per-class efficiencies
    begin_batch(work, hw, dtype, out);
    if (hw.memory.empty()) return end_batch(out);
    thread_local Eigen::ArrayXi weight_level, io_level;  // scratch, reused across calls
    thread_local Eigen::ArrayXd io_bytes;
    io_bytes = work.input_bytes + work.output_bytes;
    weight_level.setZero(work.size());
    io_level.setZero(work.size());
    const int levels = static_cast<int>(hw.memory.size());
    for (int i = 1; i < levels; ++i)
      weight_level = (work.weight_bytes <= hw.memory[static_cast<size_t>(i)].capacity_bytes).select(i, weight_level);
    for (int i = 1; i < levels; ++i) {
      const double capacity = hw.memory[static_cast<size_t>(i)].capacity_bytes;
      const auto free_bytes = (weight_level == i).select(capacity - work.weight_bytes, capacity);
      io_level = (io_bytes <= free_bytes).select(i, io_level);
    }
    for (int i = 0; i < levels; ++i)
      add_level_batch(out, (weight_level == i).select(work.weight_bytes, 0.0) + (io_level == i).select(io_bytes, 0.0),
                      hw, i);
    return end_batch(out);
  }
};

}  // namespace

const HardwareModel& hierarchical_model() {
  static const HierarchicalModel m;
  return m;
}

}  // namespace ridge
