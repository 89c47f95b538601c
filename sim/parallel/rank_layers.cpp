// One rank's layers and their passes (see rank_layers.hpp).
#include "sim/parallel/rank_layers.hpp"

#include <string>

namespace ridge {

DType training_dtype(const HardwareSpec& hw) {
  return !hw.peak_flops.count(DType::bf16) && hw.peak_flops.count(DType::fp16) ? DType::fp16 : DType::bf16;
}

RunSettings training_microbatch(int64_t microbatch, const HardwareSpec& hw) {
  RunSettings s;
  s.batch = microbatch;
  s.dtype = training_dtype(hw);
  s.phase = Phase::training;
  s.precision = Precision::mixed;
  s.optimizer = Optimizer::adam;
  return s;
}

std::vector<ParamOverride> rank_overrides(std::vector<ParamOverride> o, int64_t tp, int64_t cp, int64_t seq) {
  o.push_back({"layers", "1", {}});
  o.push_back({"tp", std::to_string(tp), {}});
  if (cp > 1) o.push_back({"seq", std::to_string(seq / cp), {}});
  return o;
}

bool replicated_by_tp(const std::string& op) {
  return op == "layernorm" || op == "rmsnorm" || op == "dropout" || op == "add";
}

std::pair<LayerTiming, LayerTiming> time_passes(const Layer& layer, const LayerCost& c, const HardwareSpec& hw,
                                                const HardwareModel& hw_model, DType dtype) {
  LayerWork fwd;
  fwd.op_class = layer.op_class;
  fwd.gemm_positions = static_cast<double>(layer.counts.gemm_positions);
  fwd.gemm_reduction = static_cast<double>(layer.counts.gemm_reduction);
  fwd.kernels = (c.flops == 0 && c.bytes() == 0) ? 0 : c.forward_kernels;
  LayerWork bwd = fwd;
  fwd.flops = static_cast<double>(c.flops - c.epilogue_flops);
  fwd.input_bytes = static_cast<double>(c.input_bytes);
  fwd.output_bytes = static_cast<double>(c.output_bytes);
  fwd.weight_bytes = static_cast<double>(c.weight_bytes);
  bwd.flops = static_cast<double>(c.backward_flops);
  bwd.input_bytes = static_cast<double>(c.backward_input_bytes);
  bwd.output_bytes = static_cast<double>(c.backward_output_bytes);
  bwd.weight_bytes = static_cast<double>(c.backward_weight_bytes);
  bwd.kernels = (c.backward_flops > 0 || c.backward_bytes() > 0) ? 1 : 0;
  return {hw_model.time_layer(fwd, hw, dtype), hw_model.time_layer(bwd, hw, dtype)};
}

}  // namespace ridge
