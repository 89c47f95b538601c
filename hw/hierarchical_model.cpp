// `hierarchical`: each stream is served by the nearest memory level that holds it.
// The fit is judged per layer, nearest level first (the last in the descriptor's list):
//   1. weights: the whole step's weights (LayerWork::step_weight_bytes, every layer's)
//      against a level's capacity; weights that all fit are resident there (loaded
//      before the step, as a serving system keeps them), so they never touch DRAM. A
//      level that holds one layer's weights but not the step's keeps none of them from
//      one step to the next: each layer's weights evict the last's, and come from DRAM;
//   2. the step's KV cache (every layer's), against what the weights left free (a cache
//      that fits on chip stays there between steps);
//   3. activations: the layer's input and output (LayerWork::activation_footprint: one
//      buffer for an in-place layer) against what is left of each level's capacity
//      after the weights and the KV cache placed in it (they pass from one layer to the
//      next within the step). Each level, nearest first, holds as much of them as it has
//      room for and serves that share of their traffic; what no level holds comes from
//      DRAM (memory[0]). So activations that fit a cache only in part are served from
//      it in part: the most any replacement policy can keep there (Belady's optimal one
//      keeps exactly that), which a policy that resists thrashing approaches, and so the
//      least DRAM traffic, as a bound needs. Weights and the KV cache are not split:
//      across steps nothing stays in a level they do not fit (1, 2).
// Memory time is the slowest level's traffic over its bandwidth, and a memory-bound
// layer names that level. A calibration's per-class efficiencies apply as in the
// roofline model; placement stays this model's own.
#include <algorithm>

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
    return "each stream from the nearest level that holds it (the step's weights, then its KV cache, then input+output, split over levels where they fit in part); the slowest level binds";
  }
  LayerTiming time_layer(const LayerWork& work, const HardwareSpec& hw, DType dtype) const override {
    LayerTiming t = begin_timing(work, hw, dtype);
    std::vector<double> free_bytes;
    for (const MemoryLevel& m : hw.memory) free_bytes.push_back(m.capacity_bytes);
    std::vector<double> level_bytes(hw.memory.size(), 0.0);
    if (!hw.memory.empty()) {
      const double resident_weights = std::max(work.weight_bytes, work.step_weight_bytes);
      const double resident_kv = std::max(work.kv_bytes, work.step_kv_bytes);
      t.weight_level = nearest_fit(resident_weights, free_bytes);
      free_bytes[t.weight_level] -= resident_weights;
      t.kv_level = nearest_fit(resident_kv, free_bytes);
      free_bytes[t.kv_level] -= resident_kv;
      level_bytes[t.weight_level] += work.weight_bytes;
      level_bytes[t.kv_level] += work.kv_bytes;
      const double footprint = work.activation_footprint(), traffic = work.input_bytes + work.output_bytes;
      double left = footprint, traffic_left = traffic, largest = -1;
      for (size_t i = free_bytes.size(); i-- > 1;) {
        const double held = std::min(left, std::max(0.0, free_bytes[i]));
        const double share = held >= left ? traffic_left : traffic * held / footprint;
        level_bytes[i] += share;
        traffic_left -= share;
        left -= held;
        if (share > largest) largest = share, t.input_level = static_cast<int>(i);
      }
      level_bytes[0] += traffic_left;
      if (traffic_left > largest) t.input_level = 0;  // the level serving most of them names them
      t.output_level = t.input_level;
    }
    finish_timing(t, level_bytes, hw, calibrated(work, hw, dtype));
    return t;
  }
  // time_layer over all layers as array expressions: the nearest fitting level is the
  // highest index that fits, so levels are tried in ascending order, the last fit winning.
  TimingSums time_layers(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype,
                         LayerTimingArrays& out) const override {
    if (hw.calibration || hw.conv_algorithms) return time_layers_one_by_one(*this, work, hw, dtype, out);  // per-class efficiencies
    begin_batch(work, hw, dtype, out);
    if (hw.memory.empty()) return end_batch(out);
    thread_local Eigen::ArrayXi weight_level, kv_level;  // scratch, reused across calls
    thread_local Eigen::ArrayXd traffic, footprint, left, traffic_left;
    thread_local std::vector<Eigen::ArrayXd> io_at;
    traffic = work.input_bytes + work.output_bytes;
    footprint = (work.in_place != 0).select(work.input_bytes.max(work.output_bytes), traffic);
    const Eigen::ArrayXd resident_weights = work.weight_bytes.max(work.step_weight_bytes);
    const Eigen::ArrayXd resident_kv = work.kv_bytes.max(work.step_kv_bytes);
    weight_level.setZero(work.size());
    kv_level.setZero(work.size());
    const int levels = static_cast<int>(hw.memory.size());
    for (int i = 1; i < levels; ++i)
      weight_level = (resident_weights <= hw.memory[static_cast<size_t>(i)].capacity_bytes).select(i, weight_level);
    for (int i = 1; i < levels; ++i) {
      const double capacity = hw.memory[static_cast<size_t>(i)].capacity_bytes;
      const auto free_bytes = (weight_level == i).select(capacity - resident_weights, capacity);
      kv_level = (resident_kv <= free_bytes).select(i, kv_level);
    }
    io_at.resize(static_cast<size_t>(levels));
    left = footprint;
    traffic_left = traffic;
    for (int i = levels - 1; i >= 1; --i) {
      const double capacity = hw.memory[static_cast<size_t>(i)].capacity_bytes;
      const Eigen::ArrayXd free_bytes = ((weight_level == i).select(capacity - resident_weights, capacity) -
                                         (kv_level == i).select(resident_kv, 0.0))
                                            .max(0.0);
      const Eigen::ArrayXd held = left.min(free_bytes);
      io_at[static_cast<size_t>(i)] = (held >= left).select(traffic_left, traffic * held / footprint);
      traffic_left -= io_at[static_cast<size_t>(i)];
      left -= held;
    }
    io_at[0] = traffic_left;
    for (int i = 0; i < levels; ++i)
      add_level_batch(out,
                      (weight_level == i).select(work.weight_bytes, 0.0) + (kv_level == i).select(work.kv_bytes, 0.0) +
                          io_at[static_cast<size_t>(i)],
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
