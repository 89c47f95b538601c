// How much device memory one step needs (docs/guide/size-training.md), independent of the
// hardware; engine/device_fit judges it against a device's DRAM.
//
// memory = model part (independent of the batch) + batch x per-sample part:
//   model part: parameters (weights as forward reads them), fp32 master weights (mixed
//     precision), weight gradients, optimizer state. In training all four are held for
//     the whole step (an upper bound where a framework frees gradients between steps).
//   per-sample part: activations and activation gradients, followed through the step
//     as a timeline of events (forward of each layer, recompute of a checkpointed
//     segment, backward in reverse). A tensor lives from the event that makes it to
//     the last event that needs it: its last forward consumer, the backward of every
//     layer that saved it (LayerCounts saves_input / saves_output), the loss (a model
//     output), or a checkpointed segment's recompute. In-place layers and views write
//     into their input's storage, so a storage saved by several layers counts once;
//     an in-place layer whose backward reads its input keeps a copy of it (PyTorch saves
//     self.clone()). Masks, pooling indices, per-row statistics and intermediate tensors
//     (saved_aux_bytes, saved_aux_elems) live from forward to the layer's backward. The gradient of a layer's output lives from the
//     backward of its first (in reverse) consumer that computes an input gradient, or
//     from the loss, to the backward of the layer. Every tensor of the timeline scales
//     with the batch, so the peak event is the same at every batch.
//   saved statistics (training): batchnorm's per-channel mean and 1/std of the batch
//     (saved_step_bytes), independent of the batch, held through the step (an upper
//     bound: each lives from its layer's forward to its backward).
//   workspace (transient): activations not kept for backward and activation gradients
//     live at the peak. Library scratch space (cuDNN workspace) is not modelled.
// Inference: the weights plus the activations live at the worst point of the graph.
// Prefill and decode add the KV cache, held for the whole step, to the per-sample part:
// every attention layer's 2 x kv_heads x head_dim elements (in the cache's dtype) per
// token in the cache (prefill: the prompt; decode: the context and the new token).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/checked_math.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

// Activation checkpointing (Chen et al., "Training Deep Nets with Sublinear Memory
// Cost", 2016; PyTorch checkpoint_sequential): the layers, in order, are cut into
// segments of `every` layers (sqrt: ceil(sqrt(layers))). Every segment but the last
// keeps only its inputs through forward and runs its forward again just before its
// backward.
struct CheckpointPolicy {
  enum class Kind { none, sqrt, every } kind = Kind::none;
  int64_t every = 0;  // segment length for Kind::every
};
std::optional<CheckpointPolicy> parse_checkpoint(std::string_view s);  // none | sqrt | every=N (N >= 1)
std::string checkpoint_name(const CheckpointPolicy& p);

// One point of the step's timeline. Bytes are per sample (x batch for the run).
struct MemoryEvent {
  enum class Kind { forward, recompute, backward } kind;
  int layer;
  int64_t kept = 0;       // activations held for backward (saved tensors, checkpoints, model outputs)
  int64_t recomputed = 0; // activations a checkpointed segment's recompute holds for its backward
  int64_t transient = 0;  // activations awaiting a forward consumer, not kept
  int64_t gradients = 0;  // gradients of activations
  int64_t live() const { return checked_add(checked_add(kept, recomputed), checked_add(transient, gradients)); }
};
std::string_view event_kind_name(MemoryEvent::Kind k);

struct LayerMemory {
  int64_t kept_per_sample = 0;  // bytes this layer's output (and its masks / statistics) keeps for backward
  int segment = -1;             // checkpoint segment (-1 without checkpointing)
  bool recomputed = false;      // in a checkpointed segment: forward runs again in backward
};

struct MemoryFootprint {
  RunSettings settings;
  CheckpointPolicy checkpoint;
  ByteSizes sizes;

  // Model part (batch-independent), bytes.
  int64_t params = 0;         // all resident, every expert of a mixture of experts included
  int64_t active_params = 0;  // of them, those one token uses (fewer only with experts)
  int64_t parameters_bytes = 0;
  int64_t master_weights_bytes = 0;
  int64_t gradients_bytes = 0;
  int64_t optimizer_bytes = 0;
  // Training: statistics forward keeps for backward once per step, whatever the batch.
  int64_t statistics_bytes = 0;

  // Per-sample part, bytes per sample.
  int64_t input_kept_per_sample = 0;  // the model's input, kept while a layer or a segment needs it
  std::vector<LayerMemory> layers;    // parallel to Model::layers
  std::vector<MemoryEvent> timeline;
  size_t peak_event = 0;              // index into timeline
  int64_t activations_per_sample = 0; // training: kept at the end of forward; inference: live at the peak
  int64_t peak_per_sample = 0;        // timeline[peak_event].live() + kv_cache_per_sample

  // Prefill and decode: the KV cache (bytes per sample), held through the step.
  int64_t kv_bytes_per_token = 0;     // all attention layers together
  int64_t kv_cache_tokens = 0;        // tokens per sequence in the cache at the end of the step
  int64_t kv_cache_per_sample = 0;    // kv_bytes_per_token x kv_cache_tokens

  // Checkpointing: the forward run again in backward, at the run's batch.
  int64_t recompute_flops = 0;
  int64_t recompute_bytes = 0;  // forward input + output + weight bytes of the recomputed layers

  int64_t model_bytes() const { return parameters_bytes + master_weights_bytes + gradients_bytes + optimizer_bytes; }
  int64_t fixed_bytes() const { return model_bytes() + statistics_bytes; }  // all that does not scale with the batch
  int64_t activations_bytes() const { return activations_per_sample * settings.batch + statistics_bytes; }
  int64_t kv_cache_bytes() const { return kv_cache_per_sample * settings.batch; }
  int64_t peak_bytes() const { return fixed_bytes() + peak_per_sample * settings.batch; }
  int64_t workspace_bytes() const;  // transient activations + activation gradients at the peak
  int64_t live_bytes(const MemoryEvent& e) const {
    return fixed_bytes() + (e.live() + kv_cache_per_sample) * settings.batch;
  }
  const MemoryEvent& peak() const { return timeline[peak_event]; }
};

// Throws InputError when a byte count at this batch overflows 64 bits.
MemoryFootprint memory_footprint(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint);

}  // namespace ridge
