// The interface every hardware model implements: turn a layer's work on a piece of
// hardware into a timing. One file per model in hw/, one row per model in
// hw/model_registry.cpp.
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

#include "hw/hardware_spec.hpp"
#include "hw/layer_batch.hpp"
#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

// A kernel's own time from its compute and memory time: the larger where they overlap
// (the roofline), their sum where they do not (a calibrated class with overlap = false).
// The timing and the calibration fit both use it, so fitted and predicted times agree.
inline double kernel_time_s(double compute_s, double memory_s, bool overlapped) {
  return overlapped ? std::max(compute_s, memory_s) : compute_s + memory_s;
}

struct LayerTiming {
  double compute_s = 0;         // flops / (peak x efficiency)
  std::vector<double> level_s;  // traffic time per memory level (parallel to HardwareSpec::memory; 0 = unused)
  std::vector<double> level_bytes;  // bytes each level serves (a stream may be split over levels)
  double memory_s = 0;          // the slowest level's time
  double link_s = 0;            // host transfer, added
  double overhead_s = 0;        // kernel launch, added
  double dequant_s = 0;         // widening weight-only quantised weights ([efficiency] dequant_ops), added
  double time_s = 0;            // roof_s() + link + overhead + dequant
  // Compute and memory overlap (the roofline: the slower one sets the time); false for a
  // calibrated class whose kernel waits on its loads, where they add.
  bool overlapped = true;
  int bound_level = -1;         // -1: compute-bound; else the index of the binding memory level
  // The memory level each stream was placed in (index into HardwareSpec::memory): a stream
  // split over levels (hierarchical, activations that fit a cache only in part) is named
  // by the level serving most of it; level_bytes has the split.
  int input_level = 0;
  int output_level = 0;
  int weight_level = 0;
  int kv_level = 0;
  // Bandwidth each stream needs for the layer to stay compute-bound: bytes / compute time.
  double required_input_Bps = 0;
  double required_output_Bps = 0;
  double required_weight_Bps = 0;
  double required_kv_Bps = 0;

  double required_Bps() const {
    return required_input_Bps + required_output_Bps + required_weight_Bps + required_kv_Bps;
  }
  // Memory strictly slower than compute (the roofline's verdict, launches and link aside).
  bool memory_bound() const { return bound_level >= 0; }
  // Most of the layer's time is kernel launches: more than compute, memory and link
  // together. Such a layer is bound `overhead`, whatever its roofline says.
  bool overhead_dominates() const { return overhead_s > roof_s() + link_s; }
  // Most of its time is the host link.
  bool link_dominates() const { return link_s > roof_s() + overhead_s; }
  // The kernel's own time: max(compute, memory), or their sum where they do not overlap.
  double roof_s() const { return kernel_time_s(compute_s, memory_s, overlapped); }
};

class HardwareModel {
 public:
  virtual ~HardwareModel() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view summary() const = 0;
  // `dtype` must be supported by `hw` (callers check first and report unsupported runs).
  virtual LayerTiming time_layer(const LayerWork& work, const HardwareSpec& hw, DType dtype) const = 0;
  // A whole model's layers at once (sweeps): fills `out` per layer, returns the sums.
  // The default calls time_layer per layer; a model may override it with array
  // expressions (hw/layer_batch.hpp) that must give the same numbers (tests check 1e-12).
  virtual TimingSums time_layers(const LayerWorkArrays& work, const HardwareSpec& hw, DType dtype,
                                 LayerTimingArrays& out) const {
    return time_layers_one_by_one(*this, work, hw, dtype, out);
  }
};

}  // namespace ridge
