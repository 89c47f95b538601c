// The communication of generating tokens with a tensor- and pipeline-parallel plan, as
// Megatron-LM and vLLM serve a transformer: each layer all-reduces its tokens'
// activations twice over the tp group (after the attention's output projection and
// after the MLP), in the prefill over batch x prompt tokens and in every decode step
// over batch tokens; with pp > 1 each step also sends those activations from stage to
// stage, p - 1 times. One batch goes through the stages one after another (no
// microbatch pipelining), so pp splits the weights and the KV cache, not the latency.
// The KV cache splits tp ways by itself: the model is read with [params] tp set, so
// each rank holds heads/tp and kv_heads/tp.
#pragma once

#include <cstdint>

#include "sim/engine/generation.hpp"
#include "sim/parallel/collectives.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/parallel/system_spec.hpp"

namespace ridge {

struct ServingCommunication {
  double prefill_s = 0;      // the prefill's all-reduces and sends
  double decode_step_s = 0;  // one decode step's
  CollectiveCost decode_all_reduce;  // one of a decode step's all-reduces
};

// `element_bytes`: one activation value (2 for fp16).
ServingCommunication serving_communication(const SystemSpec& system, int64_t tp, int64_t pp, const TransformerParams& shape,
                                           int64_t batch, int64_t prompt, double element_bytes);

// Adds `c` to the run's times (time to first token, every decode step) and shares; the
// memory-bound time stays what it was. The KV cache becomes one device's (/ pp).
void add_serving_communication(GenerationResult& g, const ServingCommunication& c, int64_t tp, int64_t pp);

}  // namespace ridge
