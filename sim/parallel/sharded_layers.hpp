// One tensor- and context-parallel rank's share of a transformer, timed by ridge's
// per-layer engine: the model file is loaded with its [params] `tp` set (so its column-
// and row-parallel linears, heads and vocabulary hold one rank's shard), `seq` divided
// by cp (the rank's chunk of the sequence) and `layers` = 1, costed for one
// training microbatch (mixed precision, Adam), and each layer's forward and backward
// work is timed apart on the device's hardware model. Layers of the repeated block
// named `layers` (with layers = 1: `layers.*`) make one transformer layer; those before it belong to the first
// pipeline stage (embeddings), those after it to the last (final norm, lm_head). Each
// layer's two timings are kept, so a view of the iteration part by part reads them
// rather than timing the rank's model again.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {

// Times and counts of a group of layers for one microbatch on one device.
struct PassCost {
  double forward_s = 0;
  double backward_s = 0;
  double forward_flops = 0;
  double backward_flops = 0;
  double attention_forward_s = 0;  // the attention op's forward (what selective recomputation re-runs)
  double attention_forward_flops = 0;
  double attention_backward_s = 0;
  double replicated_forward_s = 0;  // norms, dropouts and residual adds: sharded by sequence parallelism
  double replicated_backward_s = 0;
  double expert_forward_s = 0;  // the mixture-of-experts op's (its expert GEMMs), at uniform routing
  double expert_backward_s = 0;
  int64_t params = 0;
  int64_t expert_params = 0;  // of `params`, the mixture-of-experts layers' (spread ep ways)
  // Weights read here but owned by a layer of another stage (a lm_head tied to the token
  // embedding), which Megatron-LM copies onto the last stage when pp > 1.
  int64_t tied_params = 0;
};

// One layer of the rank's model with its forward and backward work timed apart: what
// `ridge plot layers --parallel` draws a bar of (iteration_parts.hpp).
struct TimedLayer {
  std::string name;  // as in the rank's model; the block's (instantiated once) start "layers."
  std::string op;
  LayerTiming forward, backward;
};

struct ShardedLayers {
  PassCost block;  // one transformer layer
  PassCost first;  // before the block (embeddings)
  PassCost last;   // after the block (final norm, lm_head)
  std::vector<TimedLayer> layers;  // every layer of the rank's model, in order: the sums above are theirs
};

// The model's [params] the plan reads: layers, hidden, heads, seq (tp is set here), and
// where the model has them kv_heads (grouped-query attention), experts and top_k (a
// mixture of experts).
struct TransformerParams {
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t seq = 0;
  int64_t kv_heads = 0;  // 0: as many as heads
  int64_t experts = 0;   // 0: a dense model
  int64_t top_k = 0;
  bool mixture_of_experts() const { return experts > 0; }
  int64_t key_value_heads() const { return kv_heads > 0 ? kv_heads : heads; }
};

// Whether `model` has the [params] a tensor- and pipeline-parallel plan shards by.
bool is_transformer(const Model& model);

// Throws InputError when `model` has no [params] layers, hidden, heads, seq and tp.
TransformerParams transformer_params(const std::string& model, const std::vector<ParamOverride>& overrides);

// One layer's forward and backward work timed apart on `hw` (seconds): what a pipeline
// stage, or the backward pass a data-parallel all-reduce hides under, is made of.
std::pair<double, double> time_forward_backward(const Layer& layer, const LayerCost& cost, const HardwareSpec& hw,
                                                const HardwareModel& hw_model, DType dtype);

// One rank's layers at tensor-parallel `tp` and context-parallel `cp` (the model run at
// shape.seq / cp tokens per sequence; cp must divide shape.seq); the parameter counts
// are those of the whole sequence's model (a position table sized by seq is not split).
ShardedLayers time_sharded_layers(const std::string& model, const std::vector<ParamOverride>& overrides,
                                  const TransformerParams& shape, int64_t tp, int64_t cp, int64_t microbatch,
                                  const HardwareSpec& hw, const HardwareModel& hw_model);

}  // namespace ridge
