// `ridge query MODEL` without --layer: is the step bandwidth-limited for the model as a
// whole, and the numbers behind the answer: the share of the step each kind of bound
// takes, the bytes per token by stream (weights, KV cache, activations), the bandwidth
// each memory level delivers over the step against its peak, and the batch at which the
// largest linear layer (op class linear: a linear or the grouped GEMMs of a moe layer)
// turns compute-bound. Every number comes from the derived
// RunResult and the layer query; views/model_query_report only words them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/engine/layer_query.hpp"
#include "sim/engine/result.hpp"

namespace ridge {

// One memory level's traffic over the whole step.
struct LevelTraffic {
  std::string name;
  double bytes = 0;        // served by this level over the step
  double time_s = 0;       // its traffic time, summed over the layers
  double achieved_Bps = 0; // bytes / step time
  double peak_Bps = 0;     // the descriptor's bandwidth
};

struct ModelQuery {
  RunResult run;  // the step, derived (run.totals holds the sums)
  // Shares of the step time, 0..1, by what bounds each layer (they sum to 1 with
  // `none`-bound layers, which take no time).
  double memory_share = 0, compute_share = 0, overhead_share = 0, link_share = 0;
  // The step is bandwidth-limited when its memory-bound layers take the largest share.
  bool bandwidth_limited = false;
  // Tokens the step processes (batch x tokens per sequence in prefill, the batch in
  // decode and in other phases, where "token" reads "sample") and the bytes per token.
  double tokens = 0;
  double weight_bytes_per_token = 0, kv_bytes_per_token = 0, activation_bytes_per_token = 0;
  std::vector<LevelTraffic> levels;  // parallel to HardwareSpec::memory
  int busiest_level = 0;             // the level with the longest traffic time
  // The layer of op class linear (linear, moe) reading the most weights, and its own
  // query (flip batch); empty when the model has none.
  std::optional<LayerQuery> biggest_linear;
};

// Throws InputError as query_layer does (unsupported dtype).
ModelQuery query_model(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                       const HardwareModel& hw_model);

}  // namespace ridge
