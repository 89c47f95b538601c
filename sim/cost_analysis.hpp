// Hardware-independent costs of every layer at a run's batch and dtype: the counts of
// LayerCounts scaled by the batch, and bytes = elements x dtype size. Input, output and
// weight bytes stay apart because they may live in different memory levels.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model.hpp"
#include "sim/run_settings.hpp"

namespace ridge {

struct LayerCost {
  int64_t params = 0;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t input_bytes = 0;
  int64_t output_bytes = 0;
  int64_t weight_bytes = 0;
  // Training only (zero at inference): gradient of inputs and weights.
  int64_t backward_macs = 0;
  int64_t backward_flops = 0;

  int64_t bytes() const { return input_bytes + output_bytes + weight_bytes; }
  // FLOPs per byte moved (0 when nothing moves).
  double arithmetic_intensity() const;
};

struct CostAnalysis {
  RunSettings settings;
  std::vector<LayerCost> layers;  // parallel to Model::layers
  LayerCost totals;
};

// Throws InputError when a count at this batch overflows 64 bits.
CostAnalysis analyze_costs(const Model& model, const RunSettings& settings);

// True when every input of the layer is the model's input: such a layer computes no
// input gradient in backward.
bool reads_only_model_input(const Layer& layer);

}  // namespace ridge
