// Timing one tensor-parallel rank's layers (see sharded_layers.hpp).
#include "sim/parallel/sharded_layers.hpp"

#include "sim/base/error.hpp"
#include "sim/parallel/rank_layers.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {

namespace {

constexpr const char* kNeeded[] = {"layers", "hidden", "heads", "seq", "tp"};

}  // namespace

std::pair<double, double> time_forward_backward(const Layer& layer, const LayerCost& c, const HardwareSpec& hw,
                                                const HardwareModel& hw_model, DType dtype) {
  auto [f, b] = time_passes(layer, c, hw, hw_model, dtype);
  return {f.time_s, b.time_s};
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
  Model m = load_model(name, rank_overrides(overrides, tp, cp, shape.seq));
  RunSettings settings = training_microbatch(microbatch, hw);
  CostAnalysis costs = analyze_costs(m, settings);
  ShardedLayers out;
  bool seen_block = false;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const Layer& layer = m.layers[i];
    const LayerCost& c = costs.layers[i];
    bool in_block = layer.name.rfind("layers.", 0) == 0;  // the block, instantiated once
    seen_block = seen_block || in_block;
    PassCost& group = in_block ? out.block : (seen_block ? out.last : out.first);
    auto [forward, backward] = time_passes(layer, c, hw, hw_model, settings.dtype);
    const double f = forward.time_s, b = backward.time_s;
    out.layers.push_back({layer.name, layer.op, std::move(forward), std::move(backward)});
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
    if (replicated_by_tp(layer.op)) {
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
