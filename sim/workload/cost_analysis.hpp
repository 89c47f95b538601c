// Hardware-independent costs of every layer at a run's batch and dtype: the counts of
// LayerCounts scaled by the batch, and bytes = elements x dtype size. Input, output and
// weight bytes stay apart because they may live in different memory levels.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/base/checked_math.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

struct LayerCost {
  int64_t params = 0;
  // Parameters one token uses: `params`, less the experts a mixture-of-experts layer
  // does not route the token to ((E - k) x one expert's weights).
  int64_t active_params = 0;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t epilogue_flops = 0;  // of `flops`, done in a fused epilogue (LayerCounts::epilogue_flops)
  int64_t input_bytes = 0;
  int64_t output_bytes = 0;
  // A mixture-of-experts layer reads the experts its step's tokens touch: the expected
  // number under uniform routing (ops::expected_experts_touched) x one expert's bytes.
  int64_t weight_bytes = 0;
  // Weight-only quantisation: the weights of `weight_bytes` stored narrow, which the
  // kernel widens to the compute dtype (the touched experts' only, for a MoE layer).
  int64_t dequant_weights = 0;
  // KV cache traffic of an attention layer in prefill and decode (its own stream, in the
  // cache's dtype): the new tokens' keys and values written, the cached ones read.
  int64_t kv_bytes = 0;
  int forward_kernels = 0;  // forward launches (0 for a view or a skipped layer)
  // The rows of the GEMM a conv or linear layer's kernel runs, which a calibration's
  // shape term reads; 0: no GEMM. A linear layer's batch x rows per sample
  // (LayerCounts::gemm_positions): one GEMM over every token, whichever of the two the
  // rows come from. A convolution's positions per image: its kernels tile each image's
  // output (fitted per image, DeepBench's cuDNN convolutions and PyTorch's CPU ones
  // are predicted better than on batch x positions: docs/accuracy.md's 1x1 classes
  // held out 8.6-12.4 % against 10.8-23.5 %).
  int64_t gemm_rows = 0;
  // Training only (zero at inference): gradient of inputs and weights.
  int64_t backward_macs = 0;         // backward_input_macs + backward_weight_macs
  int64_t backward_flops = 0;        // 2 x backward_macs + the other arithmetic of both gradients
  int64_t backward_input_macs = 0;   // input gradient (0 for a layer reading only the model input)
  int64_t backward_weight_macs = 0;  // weight gradient
  // Backward traffic (docs/guide/size-training.md, "Training costs"). A layer that computes neither
  // gradient moves nothing. Otherwise it reads the gradient of its output and what
  // forward saved for it (its input, its output, masks / indices / statistics);
  // writes the gradient of its input (when it computes one); reads its weights when
  // it computes an input gradient and writes the gradient of every weight it reads.
  int64_t backward_input_bytes = 0;   // activation side read: output gradient + saved tensors
  int64_t backward_output_bytes = 0;  // activation side written: input gradient
  int64_t backward_weight_bytes = 0;  // weights read + weight gradients written
  // The optimizer's update of the parameters this layer owns (ByteSizes::update_bytes_per_param,
  // optimizer_flops_per_param).
  int64_t update_flops = 0;
  int64_t update_bytes = 0;

  // Sums checked once by analyze_costs (a layer whose sums pass 2^63 is an input error),
  // so they cannot wrap afterwards.
  int64_t bytes() const {  // forward
    return checked_add(checked_add(checked_add(input_bytes, output_bytes), weight_bytes), kv_bytes);
  }
  int64_t backward_bytes() const {
    return checked_add(checked_add(backward_input_bytes, backward_output_bytes), backward_weight_bytes);
  }
  // FLOPs per byte moved over the whole step (0 when nothing moves): forward at
  // inference; forward + backward + update in training, as hardware models see it.
  double arithmetic_intensity() const;
};

struct CostAnalysis {
  RunSettings settings;
  std::vector<LayerCost> layers;  // parallel to Model::layers
  LayerCost totals;
};

// Whether --weight-dtype stores layer `i`'s weights narrower: a linear layer's, but not
// the logits layer's unless RunSettings::quantize_lm_head.
bool stores_weights_narrow(const Model& model, size_t i, const RunSettings& s);

// Prefill computes the logits of the last prompt token only (RunSettings::all_logits
// asks for every token's): the logits layer then reads one row per sequence and writes
// one row of logits.
// Throws InputError when a count at this batch overflows 64 bits, when a phase with a KV
// cache meets a model with no attention, or a sequence is longer than the model's
// max_positions. In decode, `model` must have been read at one token per sequence
// (RunSettings::tokens_per_step).
CostAnalysis analyze_costs(const Model& model, const RunSettings& settings);

// The checks a phase with a KV cache makes of its model (analyze_costs and
// memory_footprint make them): the model has attention, the sequence or the context plus
// the new token fits in max_positions, and decode reads one token per sequence.
void check_kv_cache_phase(const Model& model, const RunSettings& settings);

// True when every input of the layer is the model's input: such a layer computes no
// input gradient in backward.
bool reads_only_model_input(const Layer& layer);

}  // namespace ridge
