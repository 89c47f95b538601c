// What one layer costs, independent of hardware: counted per sample (activations,
// MACs, FLOPs) or per model (parameters, weights). RunSettings scale them by batch
// and dtype. Conventions (docs/reference/counting-conventions.md):
//   macs  = multiply-accumulates of conv / linear / matmul-type ops only;
//   flops = 2 x macs + every other arithmetic op (bias add, activation, normalisation,
//           pooling comparison, softmax, elementwise add), each counted as 1.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ridge {

// The shape of an attention layer (sim/workload/ops/attention.cpp), kept so that a run
// can count it again for a number of cached tokens (decode attends to a KV cache that
// the model file does not know the length of). heads == 0: not an attention layer.
struct AttentionShape {
  int64_t heads = 0;
  int64_t kv_heads = 0;
  int64_t head_dim = 0;
  int64_t queries = 0;       // query tokens per sample (the sequence the layer sees)
  bool causal = true;
  bool fused = false;        // one kernel, no score matrix in memory (FlashAttention-style)
  bool skip_masked = false;  // causal pairs above the diagonal are neither computed nor counted
  // Sliding-window attention (Mistral): each query attends to at most `window` keys, its
  // own included, and the KV cache keeps the last `window` tokens (a rolling buffer).
  // 0: the whole context.
  int64_t window = 0;
  // Cached tokens a new token reads: all `cached`, or the window's worth before it.
  int64_t visible(int64_t cached) const { return window > 0 ? std::min(cached, window - 1) : cached; }
  // Tokens the cache holds after `tokens` have passed through it.
  int64_t held(int64_t tokens) const { return window > 0 ? std::min(tokens, window) : tokens; }
};

// The shape of a mixture-of-experts layer (sim/workload/ops/moe.cpp), kept so that a
// run can count the weights its tokens read: how many distinct experts a step touches
// depends on the step's tokens (batch x tokens per sample), not on one sample.
// experts == 0: not a mixture-of-experts layer.
struct ExpertShape {
  int64_t experts = 0;              // E
  int64_t top_k = 0;                // k experts per token
  int64_t expert_weight_elems = 0;  // weights of one expert
  int64_t tokens = 0;               // tokens per sample (the sequence the layer sees)
  int64_t ranks = 1;                // expert-parallel ranks: this layer holds experts / ranks of them
};

// The geometry of a convolution that decides which kernel library a framework runs it in
// (hw/kernel_library.hpp: PyTorch sends small, unstrided ones to its im2col + BLAS path).
// groups == 0: not a convolution.
struct ConvShape {
  int64_t stride = 0;       // the largest stride or dilation over the spatial axes (1: unstrided)
  int64_t kernel_side = 0;  // the smallest kernel side
  int64_t groups = 0;
  // What a GPU library's choice of algorithm reads (hw/conv_algorithms.hpp); 0: unknown.
  int64_t kernel_side_max = 0;  // the largest kernel side
  int64_t in_channels = 0;      // input channels (all groups)
  int64_t out_channels = 0;     // output channels
  int64_t spatial_dims = 0;     // 1, 2 or 3
};

struct LayerCounts {
  // Per model (independent of batch).
  int64_t params = 0;        // trainable parameters this layer owns
  int64_t weight_elems = 0;  // weight elements read per pass (a tied weight reads elements it does not own)
  // The layer's weight matrix [rows, cols] where it has one (linear [out, in], embedding
  // [V, D]); 0 x 0 otherwise. A `tied_to` weight must have the shape of its target's.
  int64_t weight_rows = 0;
  int64_t weight_cols = 0;

  // Per sample: weight elements a layer reads by gathering only some rows of its table
  // (an embedding lookup reads the S rows its ids select, not the V x D table). Weight
  // bytes = (weight_elems + batch x gathered_weight_elems) x dtype size. A row looked
  // up twice is read twice: no cache reuse is assumed.
  int64_t gathered_weight_elems = 0;

  // Per sample, forward.
  int64_t macs = 0;
  int64_t flops = 0;
  // Part of `flops` a conv / linear / matmul kernel does in its fused epilogue (the bias
  // add), on other units while the MACs run: counted as FLOPs, not timed (DESIGN.md's
  // worked example times conv1 by its 2 x MACs alone).
  int64_t epilogue_flops = 0;
  int64_t input_elems = 0;   // all inputs together
  int64_t output_elems = 0;
  // Input elements no window reads: a convolution whose windows are narrower than its
  // stride (a strided 1 x 1) steps over them, so its forward pass and its weight
  // gradient do not read them. The input, and its gradient, are still whole tensors.
  int64_t unread_input_elems = 0;

  // Per sample, backward. The gradient of the inputs and of the weights are apart
  // because the first layer of a network computes no input gradient.
  int64_t bwd_input_macs = 0;
  int64_t bwd_weight_macs = 0;
  int64_t bwd_input_other_flops = 0;   // non-MAC arithmetic of the input gradient (activation derivative, ...)
  int64_t bwd_weight_other_flops = 0;  // non-MAC arithmetic of the weight gradient (bias gradient sums, ...)

  // What backward needs kept from the forward pass (per sample, except saved_step_bytes).
  // These follow what PyTorch's autograd saves (docs/guide/size-training.md); an
  // in-place layer that saves its input keeps a copy of it (memory_footprint.cpp).
  bool saves_input = false;      // e.g. conv / linear keep their input
  bool saves_output = false;     // e.g. relu keeps its output
  int64_t saved_aux_bytes = 0;   // masks, pooling indices, per-row statistics: bytes whatever the dtype
  int64_t saved_aux_elems = 0;   // intermediate tensors in the activation dtype (LRN's squares and powers)
  int64_t saved_step_bytes = 0;  // per step, independent of the batch: batchnorm's mean and 1/std (fp32)

  // Layer kinds whose cost depends on the phase.
  bool identity_at_inference = false;  // dropout: does nothing in eval mode
  bool inplace = false;                // output overwrites the (single) input's storage
  bool is_view = false;                // flatten / reshape: no data moved, output aliases input

  // Convolution and linear layers only: the GEMM their kernel runs for one sample, which
  // a calibration's shape terms read (hw/calibration.hpp). Positions: the GEMM's rows
  // per sample (a conv's H_out x W_out, a transposed conv's H_in x W_in, the tokens a
  // linear layer sees); reduction: the length of each dot product (input channels per
  // group x kernel area, or in_features). 0: not a GEMM, no shape term.
  int64_t gemm_positions = 0;
  int64_t gemm_reduction = 0;

  bool quantizable = false;  // a linear layer's dense weights: --weight-dtype stores them narrower
  int kernels = 1;  // forward kernel launches (an unfused attention chain launches 3)

  // Attention layers only. kv_elems_per_token: K and V elements one token keeps in the KV
  // cache (2 x kv_heads x head_dim); a run with a cache (prefill, decode) writes them
  // for each new token and reads them for each cached one, as its own `kv` stream.
  AttentionShape attention;

  // Convolutions only (ConvShape above).
  ConvShape conv;
  int64_t kv_elems_per_token = 0;

  // Mixture-of-experts layers only: `params` and `weight_elems` hold every expert.
  ExpertShape experts;

  // Parameters one token uses: `params` less the E - k experts it is not routed to.
  int64_t active_params() const { return params - (experts.experts - experts.top_k) * experts.expert_weight_elems; }
};

}  // namespace ridge
