// A whole model's layer work as struct-of-arrays, and what a hardware model returns
// when it times all of it at once (HardwareModel::time_layers). A sweep builds the
// arrays once per (model, batch, dtype, phase) and times them against many hardware
// points; models override time_layers with Eigen array expressions, and the default
// loops over time_layer, so every model works in a sweep and the two paths must agree.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "hw/hardware_spec.hpp"
#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

class HardwareModel;

// LayerWork, one array per field, one entry per layer (parallel to Model::layers).
struct LayerWorkArrays {
  Eigen::ArrayXd flops;
  Eigen::ArrayXd input_bytes;
  Eigen::ArrayXd output_bytes;
  Eigen::ArrayXd weight_bytes;
  Eigen::ArrayXd kv_bytes;
  Eigen::ArrayXd dequant_weights;
  Eigen::ArrayXd link_bytes;
  Eigen::ArrayXd kernels;  // launches, as doubles so they multiply without conversion
  Eigen::ArrayXi op_class;  // OpClass values
  Eigen::ArrayXd gemm_positions;
  Eigen::ArrayXd gemm_reduction;
  Eigen::ArrayXd step_weight_bytes;
  Eigen::ArrayXd step_kv_bytes;
  Eigen::ArrayXd batch;
  Eigen::ArrayXd input_elements;
  Eigen::ArrayXd in_place;  // 1: LayerWork::in_place
  std::vector<ConvShape> conv;  // only the kernel-library rule reads it, layer by layer

  Eigen::Index size() const { return flops.size(); }
  LayerWork layer(Eigen::Index i) const;
};

LayerWorkArrays to_arrays(const std::vector<LayerWork>& work);

// Per-layer results of a batch timing, the LayerTiming fields a sweep reports.
// Reused across hardware points: sized once, overwritten by every call.
struct LayerTimingArrays {
  Eigen::ArrayXd compute_s;
  Eigen::ArrayXd memory_s;
  Eigen::ArrayXd link_s;
  Eigen::ArrayXd overhead_s;
  Eigen::ArrayXd dequant_s;
  Eigen::ArrayXd time_s;
  Eigen::ArrayXi bound_level;  // -1 compute-bound, else the binding memory level
  std::vector<double> level_bytes;  // bytes per memory level over all layers (add_level_batch sums them)

  void resize(Eigen::Index n);
};

// Sums over the layers of one batch timing.
struct TimingSums {
  double compute_s = 0;
  double memory_s = 0;
  double link_s = 0;
  double overhead_s = 0;
  double time_s = 0;
  double memory_bound_s = 0;  // time of the layers bound by memory (not those bound by launches or the link)
  std::vector<double> level_bytes;  // bytes each memory level serves, over the layers (the energy model's input)
};

// The reference path: time_layer on every layer, in order. HardwareModel's default
// time_layers; tests compare every vectorised override against it.
TimingSums time_layers_one_by_one(const HardwareModel& model, const LayerWorkArrays& work, const HardwareSpec& hw,
                                  DType dtype, LayerTimingArrays& out);

// A sum taken layer by layer in order, so that it rounds exactly as the per-layer
// path's running sums do (Eigen's sum() reorders the additions): a sweep point and
// `analyze` of the same run report the same doubles.
double sum_in_layer_order(const Eigen::ArrayXd& a);

// Fills out.time_s / bound_level from the other arrays and sums everything (shared by
// the vectorised overrides): time = max(compute, memory) + link + overhead.
TimingSums finish_batch(LayerTimingArrays& out);

}  // namespace ridge
