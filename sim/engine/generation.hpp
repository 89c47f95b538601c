// Generating text with a decoder LLM on one device (`ridge generate`): the prompt's
// prefill, which gives the first token, then one decode step per further token, each
// attending to a KV cache one token longer than the last. Decode steps are summed
// exactly without timing every step in full: a layer whose work does not depend on
// the context is timed once, and layers whose work grows linearly with the context
// (attention's KV stream, and every layer's view of the step's KV cache, which the
// hierarchical model places) are timed for all steps at once as arrays, identical
// layers once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

struct GenerationRequest {
  int64_t prompt = 0;  // tokens per sequence in the prompt
  int64_t gen = 0;     // tokens generated per sequence (the first by prefill)
  // An expert-parallel rank's routing imbalance: the rank timed is the busiest, its experts
  // receiving this many times the mean's token-expert pairs (sim/workload/busiest_expert_rank.hpp).
  double expert_load = 1.0;
};

struct GenerationResult {
  int64_t prompt = 0, gen = 0, batch = 0;
  int64_t decode_steps = 0;           // gen - 1: contexts prompt, prompt + 1, ..., prompt + gen - 2
  double ttft_s = 0;                  // time to first token: the prefill step
  double decode_s = 0;                // all decode steps
  double total_s = 0;                 // ttft + decode
  double tpot_s = 0;                  // time per output token after the first: decode_s / decode_steps
  int64_t mean_context = 0;           // prompt + (decode_steps - 1) / 2
  double step_at_mean_context_s = 0;  // one decode step at the mean context
  double tokens_per_s = 0;            // batch x gen / total_s
  double decode_tokens_per_s = 0;     // batch x decode_steps / decode_s
  double memory_bound_share = 0;      // of the total time, the part in memory-bound layers
  double prefill_memory_bound_share = 0;
  double decode_memory_bound_share = 0;
  int64_t kv_cache_bytes = 0;         // the cache at the end: (prompt + gen - 1) tokens x batch
  // With [power] (hw/energy_model): prefill's energy plus the decode steps' at the mean-context
  // step's average power over decode_s; per token over batch x gen.
  std::optional<double> energy_J;
  std::optional<double> joules_per_token;
  std::optional<double> average_power_w;
  std::string hardware_model;         // the hardware model's registry name
  RunResult prefill;                  // the prefill step, per layer
  RunResult mean_step;                // the decode step at the mean context, per layer
  // A tensor- / pipeline- / expert-parallel run (generate --parallel, sim/parallel/
  // serving_communication): the times above are one device's, communication included;
  // with ep > 1 the batch is one of the ep ranks' (each serves its own).
  int64_t tp = 1, pp = 1, ep = 1;
  double prefill_communication_s = 0;      // in ttft_s
  double decode_step_communication_s = 0;  // in every decode step
  double decode_all_to_all_bytes = 0;      // ep > 1: one dispatch (or combine) of a decode step, per device
  double decode_all_to_all_s = 0;          // its time; 2 x layers of them a step
  double expert_imbalance = 1;             // ep > 1: the busiest rank's token-expert pairs over the mean (the rank timed)
  bool parallel() const { return tp * pp * ep > 1; }
};

// `prefill_model` is the model read at `request.prompt` tokens, `decode_model` at one
// token (load_model's `tokens`). `base` gives batch, dtype and the KV cache dtype.
// Throws InputError when the prompt plus the generated tokens exceed max_positions
// (naming --prompt and --gen), a
// count overflows, or the hardware lacks the dtype.
GenerationResult simulate_generation(const Model& prefill_model, const Model& decode_model, const RunSettings& base,
                                     const GenerationRequest& request, const HardwareSpec& hw,
                                     const HardwareModel& hw_model);

}  // namespace ridge
