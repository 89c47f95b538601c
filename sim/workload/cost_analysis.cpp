// Scaling per-sample counts to a run (see cost_analysis.hpp).
#include "sim/workload/cost_analysis.hpp"

#include <cmath>
#include <limits>

#include "sim/base/checked_math.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge {

double LayerCost::arithmetic_intensity() const {
  double b = static_cast<double>(bytes()) + static_cast<double>(backward_bytes()) + static_cast<double>(update_bytes);
  double f = static_cast<double>(flops) + static_cast<double>(backward_flops) + static_cast<double>(update_flops);
  return b > 0 ? f / b : 0.0;
}

bool reads_only_model_input(const Layer& layer) {
  for (int in : layer.inputs)
    if (in != kModelInput) return false;
  return true;
}

namespace {

// Backward and update costs of one layer (see LayerCost for the traffic rules).
void add_training(LayerCost& r, const Layer& layer, const RunSettings& s) {
  const LayerCounts& c = layer.counts;
  ByteSizes sizes = byte_sizes(s);
  int64_t b = s.batch;
  bool input_grad = !reads_only_model_input(layer);
  bool weight_grad = c.weight_elems > 0;
  int64_t in_macs = input_grad ? c.bwd_input_macs : 0;
  int64_t other = checked_add(input_grad ? c.bwd_input_other_flops : 0, c.bwd_weight_other_flops);
  r.backward_input_macs = checked_mul(in_macs, b);
  r.backward_weight_macs = checked_mul(c.bwd_weight_macs, b);
  r.backward_macs = checked_add(r.backward_input_macs, r.backward_weight_macs);
  r.backward_flops = checked_mul(checked_add(checked_mul(2, checked_add(in_macs, c.bwd_weight_macs)), other), b);
  if (input_grad || weight_grad) {
    int64_t act = sizes.activation;
    int64_t read = c.output_elems;  // the output gradient
    if (c.saves_input) read = checked_add(read, c.input_elems - c.unread_input_elems);  // the weight gradient's reads
    if (c.saves_output) read = checked_add(read, c.output_elems);
    read = checked_add(read, c.saved_aux_elems);
    r.backward_input_bytes = checked_add(checked_add(checked_product({read, b, act}), checked_mul(c.saved_aux_bytes, b)),
                                         c.saved_step_bytes);
    r.backward_output_bytes = input_grad ? checked_product({c.input_elems, b, act}) : 0;
    r.backward_weight_bytes = checked_add(input_grad ? checked_mul(c.weight_elems, sizes.weight) : 0,
                                          checked_mul(c.weight_elems, sizes.gradient));
  }
  r.update_flops = checked_mul(c.params, optimizer_flops_per_param(s.optimizer));
  r.update_bytes = checked_mul(c.params, sizes.update_bytes_per_param());
}

// The sums reports and hardware models take of one cost (every FLOP, every byte of the
// step) must fit 64 bits too: an input of 2^60 elements followed by a ReLU has input and
// output bytes that each fit but do not add.
void check_sums(const LayerCost& r) {
  checked_add(checked_add(r.bytes(), r.backward_bytes()), r.update_bytes);
  checked_add(checked_add(r.flops, r.backward_flops), r.update_flops);
}

// A linear layer's counts for the last of its rows only (the logits of the last token).
LayerCounts last_row_only(const LayerCounts& all) {
  LayerCounts c = all;
  const int64_t rows = all.gemm_positions;
  if (rows <= 1) return c;
  for (int64_t* n : {&c.macs, &c.flops, &c.epilogue_flops, &c.input_elems, &c.output_elems})
    *n /= rows;  // each is rows x the work of one row
  c.gemm_positions = 1;
  return c;
}

LayerCost layer_cost(const Layer& layer, const RunSettings& s, bool narrow, bool last_row) {
  const bool attends_cache = s.phase == Phase::decode && layer.counts.attention.heads > 0;
  // Decode: the layer's one query token per sequence attends to `context` cached ones too.
  const LayerCounts& c = attends_cache ? ops::attention_counts(layer.counts.attention, s.context)
                         : last_row    ? last_row_only(layer.counts)
                                       : layer.counts;
  LayerCost r;
  r.params = c.params;
  const ExpertShape& e = c.experts;
  r.active_params = c.active_params();
  bool skipped = s.phase != Phase::training && c.identity_at_inference;
  if (skipped || c.is_view) return r;  // no arithmetic and no data moved
  int64_t b = s.batch;
  int64_t size = dtype_bytes(s.dtype);
  r.macs = checked_mul(c.macs, b);
  r.flops = checked_mul(c.flops, b);
  r.epilogue_flops = checked_mul(c.epilogue_flops, b);
  r.input_bytes = checked_product({c.input_elems - c.unread_input_elems, b, size});
  r.output_bytes = checked_product({c.output_elems, b, size});
  // Dense weights are read once per pass; gathered rows (embeddings) once per sample; out
  // of training (whose weights follow --dtype and --precision), in the layer's own weight
  // type when the file gives one.
  const bool own_type = layer.weight_dtype && s.phase != Phase::training;
  r.weight_bytes = checked_mul(checked_add(c.weight_elems, checked_mul(c.gathered_weight_elems, b)),
                               own_type ? dtype_bytes(*layer.weight_dtype) : size);
  if (narrow) {
    r.weight_bytes = quantized_weight_bytes(c.weight_elems, s.weight_format, s.dtype, s.weight_group);
    r.dequant_weights = c.weight_elems;
  }
  if (e.experts > 0 && s.phase != Phase::training) {
    // The step's tokens touch some experts; each touched one's weights are read once.
    // With expert parallelism the rank's E / ranks experts see the tokens of every rank.
    double touched = ops::expected_experts_touched(e.experts, e.top_k, checked_product({e.tokens, b, e.ranks})) /
                     static_cast<double>(e.ranks);
    int64_t one = narrow ? quantized_weight_bytes(e.expert_weight_elems, s.weight_format, s.dtype, s.weight_group)
                         : checked_mul(e.expert_weight_elems, size);
    r.weight_bytes = std::llround(touched * static_cast<double>(one));
    if (narrow) r.dequant_weights = std::llround(touched * static_cast<double>(e.expert_weight_elems));
  }
  if (s.uses_kv_cache() && c.kv_elems_per_token > 0) {
    // Written + read: the new tokens' keys and values, and the cached ones they see.
    int64_t tokens = checked_add(c.attention.queries, attends_cache ? c.attention.visible(s.context) : 0);
    r.kv_bytes = checked_product({tokens, c.kv_elems_per_token, b, dtype_bytes(s.cache_dtype())});
  }
  r.forward_kernels = c.kernels;
  r.gemm_rows = layer.op_class == OpClass::linear ? checked_mul(c.gemm_positions, b) : c.gemm_positions;
  if (s.phase == Phase::training) add_training(r, layer, s);
  check_sums(r);
  return r;
}

void accumulate(LayerCost& total, const LayerCost& l) {
  for (auto field : {&LayerCost::params, &LayerCost::active_params, &LayerCost::macs, &LayerCost::flops, &LayerCost::input_bytes,
                     &LayerCost::output_bytes, &LayerCost::weight_bytes, &LayerCost::kv_bytes, &LayerCost::backward_macs,
                     &LayerCost::backward_flops, &LayerCost::backward_input_macs, &LayerCost::backward_weight_macs,
                     &LayerCost::backward_input_bytes, &LayerCost::backward_output_bytes,
                     &LayerCost::backward_weight_bytes, &LayerCost::update_flops, &LayerCost::update_bytes})
    total.*field = checked_add(total.*field, l.*field);
  check_sums(total);
}

}  // namespace

void check_kv_cache_phase(const Model& model, const RunSettings& s) {
  if (!s.uses_kv_cache()) return;
  if (!model.has_attention())
    throw InputError({model.file}, "--phase " + std::string(phase_name(s.phase)) + " needs a model with attention (got '" +
                                       model.name + "', which has no attention layer)",
                     "prefill and decode model a KV cache; use --phase inference for this model");
  // Compared as context >= max_positions: context + 1 overflows at INT64_MAX.
  const bool too_long = s.phase == Phase::decode ? s.context >= model.max_positions : model.input[0] > model.max_positions;
  if (model.max_positions > 0 && too_long) {
    const std::string longest = s.phase != Phase::decode ? std::to_string(model.input[0])
                                : s.context < std::numeric_limits<int64_t>::max() ? std::to_string(s.context + 1)
                                                                                 : std::to_string(s.context) + " + 1";
    throw InputError(model.max_positions_loc,
                     std::string(s.phase == Phase::decode ? "--context " + std::to_string(s.context) + " + the new token"
                                                          : "the prompt of " + longest + " tokens") +
                         " is longer than " + model.name + "'s max_positions = " + std::to_string(model.max_positions) +
                         " (got " + longest + ")",
                     "use a shorter --context or --seq");
  }
  for (const Layer& layer : model.layers)
    if (s.phase == Phase::decode && layer.counts.attention.heads > 0 && layer.counts.attention.queries != 1)
      throw RunError("decode needs the model read at one token per sequence (layer '" + layer.name + "' has " +
                                    std::to_string(layer.counts.attention.queries) + ")");
}

bool stores_weights_narrow(const Model& model, size_t i, const RunSettings& s) {
  return s.weight_format != WeightFormat::same && model.layers[i].counts.quantizable &&
         (s.quantize_lm_head || static_cast<int>(i) != model.logits_layer());
}

CostAnalysis analyze_costs(const Model& model, const RunSettings& settings) {
  check_kv_cache_phase(model, settings);
  CostAnalysis a;
  a.settings = settings;
  if (settings.phase == Phase::prefill && settings.seq == 0) a.settings.seq = model.input[0];  // the file's length
  a.layers.reserve(model.layers.size());
  const int logits = settings.phase == Phase::prefill && !settings.all_logits ? model.logits_layer() : -1;
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& layer = model.layers[i];
    try {
      a.layers.push_back(layer_cost(layer, settings, stores_weights_narrow(model, i, settings), static_cast<int>(i) == logits));
      accumulate(a.totals, a.layers.back());
    } catch (const CountOverflow&) {
      throw InputError(layer.loc, "layer '" + layer.name + "': at batch " + std::to_string(settings.batch) +
                                      " its counts overflow 64 bits",
                       settings.batch > 1 ? "use a smaller --batch"
                                          : "even one sample is too large: check the model's input and layer shapes");
    }
  }
  return a;
}

}  // namespace ridge
