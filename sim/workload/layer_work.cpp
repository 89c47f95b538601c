// From hardware-independent costs to the work a hardware model times (see layer_work.hpp).
#include "sim/workload/layer_work.hpp"

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

std::vector<LayerWork> layer_work(const Model& model, const CostAnalysis& costs) {
  std::vector<LayerWork> out;
  out.reserve(model.layers.size());
  bool on_host = costs.settings.data_on == DataPlacement::host;
  bool input_sent = false;  // the input crosses once, charged to the first layer reading it
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& layer = model.layers[i];
    const LayerCost& c = costs.layers[i];
    LayerWork w;
    w.op_class = layer.op_class;
    w.gemm_positions = static_cast<double>(c.gemm_rows);
    w.gemm_reduction = static_cast<double>(layer.counts.gemm_reduction);
    w.batch = static_cast<double>(costs.settings.batch);
    w.input_elements = static_cast<double>(c.input_bytes) / dtype_bytes(costs.settings.dtype);
    w.conv = layer.counts.conv;
    // Training adds backward and the optimizer update to the same streams: activation
    // reads (output gradient, saved tensors), activation writes (input gradient), and
    // weight-side traffic (weights, weight gradients, master weights, optimizer state).
    w.flops = static_cast<double>(c.flops - c.epilogue_flops + c.backward_flops + c.update_flops);
    w.epilogue_flops = static_cast<double>(c.epilogue_flops);
    w.input_bytes = static_cast<double>(c.input_bytes + c.backward_input_bytes);
    w.output_bytes = static_cast<double>(c.output_bytes + c.backward_output_bytes);
    w.weight_bytes = static_cast<double>(c.weight_bytes + c.backward_weight_bytes + c.update_bytes);
    w.kv_bytes = static_cast<double>(c.kv_bytes);
    w.dequant_weights = static_cast<double>(c.dequant_weights);
    // The forward's kernels (one, or an unfused attention chain's three), one for backward
    // and one for the update; views and skipped layers launch nothing.
    w.kernels = (c.flops == 0 && c.bytes() == 0) ? 0 : c.forward_kernels;
    if (c.backward_flops > 0 || c.backward_bytes() > 0) ++w.kernels;
    // Backward's streams (gradients, saved tensors) are not the one buffer forward overwrites.
    w.in_place = layer.counts.inplace && c.backward_bytes() == 0 && c.backward_flops == 0;
    if (c.update_bytes > 0) ++w.kernels;
    if (on_host) {
      bool reads_input = false;
      for (int in : layer.inputs) reads_input |= in == kModelInput;
      if (reads_input && !input_sent) {
        input_sent = true;
        w.link_bytes += static_cast<double>(element_count(model.input)) * static_cast<double>(costs.settings.batch) *
                        dtype_bytes(costs.settings.dtype);
      }
      if (i + 1 == model.layers.size()) w.link_bytes += static_cast<double>(c.output_bytes);  // forward output only
    }
    out.push_back(w);
  }
  double step_weights = 0, step_kv = 0;
  for (const LayerWork& w : out) {
    step_weights += w.weight_bytes;
    step_kv += w.kv_bytes;
  }
  for (LayerWork& w : out) {
    w.step_weight_bytes = step_weights;
    w.step_kv_bytes = step_kv;
  }
  // --overhead graph: the step is one launch (a replayed CUDA graph), charged to the
  // first layer that launches anything; none: no launch overhead at all.
  LaunchOverhead launches = costs.settings.overhead;
  bool first = true;
  for (LayerWork& w : out)
    if (launches == LaunchOverhead::none || (launches == LaunchOverhead::per_step && w.kernels > 0 && !first)) {
      w.kernels = 0;
    } else if (launches == LaunchOverhead::per_step && w.kernels > 0) {
      w.kernels = 1;
      first = false;
    }
  return out;
}

}  // namespace ridge
