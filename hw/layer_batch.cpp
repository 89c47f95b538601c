// Struct-of-arrays layer work and the reference batch timing (see layer_batch.hpp).
#include "hw/layer_batch.hpp"

#include "hw/hardware_model.hpp"

namespace ridge {

LayerWork LayerWorkArrays::layer(Eigen::Index i) const {
  LayerWork w;
  w.flops = flops[i];
  w.input_bytes = input_bytes[i];
  w.output_bytes = output_bytes[i];
  w.weight_bytes = weight_bytes[i];
  w.kv_bytes = kv_bytes[i];
  w.dequant_weights = dequant_weights[i];
  w.link_bytes = link_bytes[i];
  w.kernels = static_cast<int>(kernels[i]);
  w.op_class = static_cast<OpClass>(op_class[i]);
  w.gemm_positions = gemm_positions[i];
  w.gemm_reduction = gemm_reduction[i];
  w.step_weight_bytes = step_weight_bytes[i];
  w.step_kv_bytes = step_kv_bytes[i];
  w.batch = batch[i];
  w.input_elements = input_elements[i];
  w.in_place = in_place[i] != 0;
  w.conv = conv[static_cast<size_t>(i)];
  return w;
}

LayerWorkArrays to_arrays(const std::vector<LayerWork>& work) {
  const auto n = static_cast<Eigen::Index>(work.size());
  LayerWorkArrays a;
  for (Eigen::ArrayXd* col : {&a.flops, &a.input_bytes, &a.output_bytes, &a.weight_bytes, &a.kv_bytes, &a.dequant_weights, &a.link_bytes,
                               &a.kernels, &a.gemm_positions, &a.gemm_reduction, &a.step_weight_bytes,
                               &a.step_kv_bytes, &a.batch, &a.input_elements, &a.in_place})
    col->resize(n);
  a.op_class.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const LayerWork& w = work[static_cast<size_t>(i)];
    a.flops[i] = w.flops;
    a.input_bytes[i] = w.input_bytes;
    a.output_bytes[i] = w.output_bytes;
    a.weight_bytes[i] = w.weight_bytes;
    a.kv_bytes[i] = w.kv_bytes;
    a.dequant_weights[i] = w.dequant_weights;
    a.link_bytes[i] = w.link_bytes;
    a.kernels[i] = w.kernels;
    a.op_class[i] = static_cast<int>(w.op_class);
    a.gemm_positions[i] = w.gemm_positions;
    a.gemm_reduction[i] = w.gemm_reduction;
    a.step_weight_bytes[i] = w.step_weight_bytes;
    a.step_kv_bytes[i] = w.step_kv_bytes;
    a.batch[i] = w.batch;
    a.input_elements[i] = w.input_elements;
    a.in_place[i] = w.in_place ? 1.0 : 0.0;
    a.conv.push_back(w.conv);
  }
  return a;
}

void LayerTimingArrays::resize(Eigen::Index n) {
  for (Eigen::ArrayXd* col : {&compute_s, &memory_s, &link_s, &overhead_s, &dequant_s, &time_s}) col->resize(n);
  bound_level.resize(n);
}

namespace {

// Adds a timed layer's bytes to the memory levels serving them (as RunResult counts them).
void add_level_bytes(std::vector<double>& level_bytes, const LayerTiming& t) {
  for (size_t k = 0; k < level_bytes.size() && k < t.level_bytes.size(); ++k) level_bytes[k] += t.level_bytes[k];
}

}  // namespace

TimingSums time_layers_one_by_one(const HardwareModel& model, const LayerWorkArrays& work, const HardwareSpec& hw,
                                  DType dtype, LayerTimingArrays& out) {
  out.resize(work.size());
  TimingSums s;
  s.level_bytes.assign(hw.memory.size(), 0.0);
  for (Eigen::Index i = 0; i < work.size(); ++i) {
    const LayerWork w = work.layer(i);
    LayerTiming t = model.time_layer(w, hw, dtype);
    add_level_bytes(s.level_bytes, t);
    out.compute_s[i] = t.compute_s;
    out.memory_s[i] = t.memory_s;
    out.link_s[i] = t.link_s;
    out.overhead_s[i] = t.overhead_s;
    out.time_s[i] = t.time_s;
    out.bound_level[i] = t.bound_level;
    s.compute_s += t.compute_s;
    s.memory_s += t.memory_s;
    s.link_s += t.link_s;
    s.overhead_s += t.overhead_s;
    s.time_s += t.time_s;
    if (t.memory_bound() && !t.overhead_dominates() && !t.link_dominates()) s.memory_bound_s += t.time_s;
  }
  out.level_bytes = s.level_bytes;
  return s;
}

double sum_in_layer_order(const Eigen::ArrayXd& a) {
  double s = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) s += a[i];
  return s;
}

TimingSums finish_batch(LayerTimingArrays& out) {
  // Same expression, and so the same rounding, as finish_timing per layer.
  out.time_s = out.compute_s.max(out.memory_s) + out.link_s + out.overhead_s + out.dequant_s;
  TimingSums s;
  s.compute_s = sum_in_layer_order(out.compute_s);
  s.memory_s = sum_in_layer_order(out.memory_s);
  s.link_s = sum_in_layer_order(out.link_s);
  s.overhead_s = sum_in_layer_order(out.overhead_s);
  s.time_s = sum_in_layer_order(out.time_s);
  // Memory-bound layers, less those bound by launches or the link (LayerTiming's rules).
  for (Eigen::Index i = 0; i < out.time_s.size(); ++i) {
    const double roof = std::max(out.compute_s[i], out.memory_s[i]);
    const bool by_launches = out.overhead_s[i] > roof + out.link_s[i];
    const bool by_link = out.link_s[i] > roof + out.overhead_s[i];
    if (out.bound_level[i] >= 0 && !by_launches && !by_link) s.memory_bound_s += out.time_s[i];
  }
  return s;
}

}  // namespace ridge
