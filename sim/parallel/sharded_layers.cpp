// Timing one tensor-parallel rank's layers (see sharded_layers.hpp).
#include "sim/parallel/sharded_layers.hpp"

#include "sim/base/error.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {

namespace {

constexpr const char* kNeeded[] = {"layers", "hidden", "heads", "seq", "tp"};

RunSettings training_settings(int64_t microbatch) {
  RunSettings s;
  s.batch = microbatch;
  s.dtype = DType::bf16;
  s.phase = Phase::training;
  s.precision = Precision::mixed;
  s.optimizer = Optimizer::adam;
  return s;
}

std::vector<ParamOverride> with(std::vector<ParamOverride> o, const std::string& name, int64_t v) {
  o.push_back({name, std::to_string(v), {}});
  return o;
}

bool replicated_op(const std::string& op) {
  return op == "layernorm" || op == "rmsnorm" || op == "dropout" || op == "add";
}

}  // namespace

std::pair<double, double> time_forward_backward(const Layer& layer, const LayerCost& c, const HardwareSpec& hw,
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
  return {hw_model.time_layer(fwd, hw, dtype).time_s, hw_model.time_layer(bwd, hw, dtype).time_s};
}

bool is_transformer(const Model& model) {
  for (const char* k : kNeeded)
    if (!model.params.count(k)) return false;
  return true;
}

TransformerParams transformer_params(const std::string& name, const std::vector<ParamOverride>& overrides) {
  Model full = load_model(name, overrides);
  if (!is_transformer(full))
    for (const char* k : kNeeded)
      if (!full.params.count(k))
          throw InputError({}, "model '" + name + "' has no [params] '" + k + "', which a parallel plan shards by",
                         "parallel plans need a transformer written with [params] layers, hidden, heads, seq and tp "
                         "(see models/gpt3.toml)");
  auto optional = [&](const char* key) { return full.params.count(key) ? full.params.at(key) : 0; };
  return {full.params.at("layers"), full.params.at("hidden"), full.params.at("heads"), full.params.at("seq"),
          optional("kv_heads"),     optional("experts"),     optional("top_k")};
}

ShardedLayers time_sharded_layers(const std::string& name, const std::vector<ParamOverride>& overrides,
                                  const TransformerParams& shape, int64_t tp, int64_t cp, int64_t microbatch,
                                  const HardwareSpec& hw, const HardwareModel& hw_model) {
  std::vector<ParamOverride> rank = with(with(overrides, "layers", 1), "tp", tp);
  if (cp > 1) rank = with(rank, "seq", shape.seq / cp);
  Model m = load_model(name, rank);
  RunSettings settings = training_settings(microbatch);
  CostAnalysis costs = analyze_costs(m, settings);
  ShardedLayers out;
  bool seen_block = false;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const Layer& layer = m.layers[i];
    const LayerCost& c = costs.layers[i];
    bool in_block = layer.name.rfind("layers.", 0) == 0;  // the block, instantiated once
    seen_block = seen_block || in_block;
    PassCost& group = in_block ? out.block : (seen_block ? out.last : out.first);
    auto [f, b] = time_forward_backward(layer, c, hw, hw_model, settings.dtype);
    group.forward_s += f;
    group.backward_s += b;
    group.forward_flops += static_cast<double>(c.flops);
    group.backward_flops += static_cast<double>(c.backward_flops);
    group.params += c.params;
    if (layer.op == "moe") {
      group.expert_params += c.params;
      group.expert_forward_s += f;
      group.expert_backward_s += b;
    }
    if (c.params == 0 && layer.op == "linear" && c.weight_bytes > 0)  // tied: reads another layer's weights
      group.tied_params += c.weight_bytes / dtype_bytes(settings.dtype);
    if (layer.op == "attention") {
      group.attention_forward_s += f;
      group.attention_forward_flops += static_cast<double>(c.flops);
      group.attention_backward_s += b;
    }
    if (replicated_op(layer.op)) {
      group.replicated_forward_s += f;
      group.replicated_backward_s += b;
    }
  }
  if (cp > 1) {
    // The weights are the whole sequence's: a table sized by `seq` (GPT's learned
    // positions) is replicated on every context-parallel rank, not split.
    ShardedLayers whole = time_sharded_layers(name, overrides, shape, tp, 1, microbatch, hw, hw_model);
    for (auto [part, full] : {std::pair{&out.block, &whole.block}, {&out.first, &whole.first}, {&out.last, &whole.last}}) {
      part->params = full->params;
      part->expert_params = full->expert_params;
      part->tied_params = full->tied_params;
    }
  }
  return out;
}

}  // namespace ridge
