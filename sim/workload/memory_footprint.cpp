// The memory timeline of one step (rules in memory_footprint.hpp and docs/guide/size-training.md).
#include "sim/workload/memory_footprint.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "sim/base/checked_math.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"

namespace ridge {

std::optional<CheckpointPolicy> parse_checkpoint(std::string_view s) {
  CheckpointPolicy p;
  if (s == "none") return p;
  if (s == "sqrt") {
    p.kind = CheckpointPolicy::Kind::sqrt;
    return p;
  }
  constexpr std::string_view prefix = "every=";
  if (s.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string_view n = s.substr(prefix.size());
  int64_t v = 0;
  auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
  if (ec != std::errc() || end != n.data() + n.size() || v < 1) return std::nullopt;
  p.kind = CheckpointPolicy::Kind::every;
  p.every = v;
  return p;
}

std::string checkpoint_name(const CheckpointPolicy& p) {
  switch (p.kind) {
    case CheckpointPolicy::Kind::none: return "none";
    case CheckpointPolicy::Kind::sqrt: return "sqrt";
    case CheckpointPolicy::Kind::every: return "every=" + std::to_string(p.every);
  }
  return "?";
}

std::string_view event_kind_name(MemoryEvent::Kind k) {
  switch (k) {
    case MemoryEvent::Kind::forward: return "forward";
    case MemoryEvent::Kind::recompute: return "recompute";
    case MemoryEvent::Kind::backward: return "backward";
  }
  return "?";
}

int64_t MemoryFootprint::workspace_bytes() const { return (peak().transient + peak().gradients) * settings.batch; }

namespace {

enum class Category { kept, recomputed, transient, gradient };

// Per-sample byte intervals over the event sequence, summed per category.
class Timeline {
 public:
  explicit Timeline(size_t events) : diff_(4, std::vector<int64_t>(events + 1, 0)) {}
  void add(int64_t bytes, size_t from, size_t to, Category c) {
    auto& d = diff_[static_cast<int>(c)];
    d[from] = checked_add(d[from], bytes);
    d[to + 1] = checked_add(d[to + 1], -bytes);
  }
  // Every running sum and every event's total live bytes is checked, so no count wraps negative.
  void fill(std::vector<MemoryEvent>& events) const {
    std::vector<int64_t> run(4, 0);
    for (size_t e = 0; e < events.size(); ++e) {
      for (int c = 0; c < 4; ++c) run[c] = checked_add(run[c], diff_[c][e]);
      events[e].kept = run[0];
      events[e].recomputed = run[1];
      events[e].transient = run[2];
      events[e].gradients = run[3];
      events[e].live();
    }
  }

 private:
  std::vector<std::vector<int64_t>> diff_;
};

int64_t ceil_sqrt(int64_t n) {
  int64_t r = 0;
  while (r * r < n) ++r;
  return r;
}

struct Plan {
  std::vector<int> segment;       // per layer, -1 when not checkpointing
  std::vector<bool> checkpointed; // per segment
  std::vector<MemoryEvent> events;
  std::vector<size_t> fwd, rec, bwd;  // event index per layer (rec only in checkpointed segments)
  size_t loss = 0;                    // the event that uses the model's outputs last
};

Plan plan_events(size_t n, bool training, const CheckpointPolicy& cp) {
  Plan p;
  p.segment.assign(n, -1);
  p.fwd.assign(n, 0);
  p.rec.assign(n, 0);
  p.bwd.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    p.fwd[i] = p.events.size();
    p.events.push_back({MemoryEvent::Kind::forward, static_cast<int>(i)});
  }
  p.loss = training ? n : n - 1;
  if (!training) return p;
  int64_t len = static_cast<int64_t>(n);
  if (cp.kind == CheckpointPolicy::Kind::sqrt) len = ceil_sqrt(static_cast<int64_t>(n));
  if (cp.kind == CheckpointPolicy::Kind::every) len = std::min<int64_t>(cp.every, static_cast<int64_t>(n));
  size_t segments = (n + len - 1) / len;
  bool checkpointing = cp.kind != CheckpointPolicy::Kind::none;
  for (size_t i = 0; i < n; ++i) p.segment[i] = checkpointing ? static_cast<int>(i / len) : -1;
  p.checkpointed.assign(segments, false);
  for (size_t s = 0; checkpointing && s + 1 < segments; ++s) p.checkpointed[s] = true;  // never the last
  for (size_t s = segments; s-- > 0;) {
    size_t a = s * len, b = std::min(n, a + len);
    if (p.checkpointed[s])
      for (size_t i = a; i < b; ++i) {
        p.rec[i] = p.events.size();
        p.events.push_back({MemoryEvent::Kind::recompute, static_cast<int>(i)});
      }
    for (size_t i = b; i-- > a;) {
      p.bwd[i] = p.events.size();
      p.events.push_back({MemoryEvent::Kind::backward, static_cast<int>(i)});
    }
  }
  return p;
}

// Parameters, master weights, gradients and optimizer state: the part independent of the batch.
void add_model_part(MemoryFootprint& f, const Model& model, bool training) {
  const ByteSizes& sizes = f.sizes;
  const RunSettings& s = f.settings;
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    f.params = checked_add(f.params, l.counts.params);
    f.active_params += l.counts.active_params();
    // --weight-dtype stores the weights of linear layers narrower (with their group scales);
    // a layer the file stores in its own type keeps that at inference.
    const int64_t per_param = !training && l.weight_dtype ? dtype_bytes(*l.weight_dtype) : sizes.weight;
    f.parameters_bytes = checked_add(f.parameters_bytes, stores_weights_narrow(model, i, s)
                                                             ? quantized_weight_bytes(l.counts.params, s.weight_format, s.dtype, s.weight_group)
                                                             : checked_mul(l.counts.params, per_param));
  }
  if (!training) return;
  f.master_weights_bytes = checked_mul(f.params, sizes.master);
  f.gradients_bytes = checked_mul(f.params, sizes.gradient);
  f.optimizer_bytes = checked_product({f.params, sizes.state, sizes.state_slots});
}

// Activation storages: storage 0 is the model's input; in-place layers, views and
// layers skipped at inference write into their input's storage.
struct Storages {
  std::vector<int> of_layer;          // per layer: the storage its output lives in
  std::vector<int> producer;          // per storage: the layer that makes it (-1: the model input)
  std::vector<int64_t> bytes;         // per storage, per sample
  std::vector<bool> consumed;         // per layer: some later layer reads its output
  int of_input(int input) const { return input == kModelInput ? 0 : of_layer[static_cast<size_t>(input)]; }
};

// `last_row_logits`: the logits layer writes the last token's row only (prefill without
// RunSettings::all_logits, as analyze_costs counts it).
Storages assign_storages(const Model& model, bool training, int activation_bytes, bool last_row_logits) {
  const int logits = last_row_logits ? model.logits_layer() : -1;
  const size_t n = model.layers.size();
  Storages st{std::vector<int>(n), {-1}, {checked_mul(element_count(model.input), activation_bytes)},
              std::vector<bool>(n, false)};
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = model.layers[i];
    for (int in : l.inputs)
      if (in != kModelInput) st.consumed[static_cast<size_t>(in)] = true;
    bool skipped = !training && l.counts.identity_at_inference;
    if ((l.counts.is_view || skipped || l.counts.inplace) && !l.inputs.empty()) {
      st.of_layer[i] = st.of_input(l.inputs[0]);
    } else {
      st.of_layer[i] = static_cast<int>(st.bytes.size());
      st.producer.push_back(static_cast<int>(i));
      int64_t elems = element_count(l.output);
      if (static_cast<int>(i) == logits && l.counts.gemm_positions > 1) elems /= l.counts.gemm_positions;
      st.bytes.push_back(checked_mul(elems, activation_bytes));
    }
  }
  return st;
}

// Per storage, the last event that needs its forward instance, and the last that needs
// its recomputed instance (checkpointed segments only).
struct LastUses {
  std::vector<size_t> forward;
  std::vector<size_t> recompute;
};

LastUses find_last_uses(const Model& model, const Plan& plan, const Storages& st, bool training) {
  const size_t n = model.layers.size();
  auto checkpointed = [&](int segment) { return segment >= 0 && plan.checkpointed[static_cast<size_t>(segment)]; };
  auto segment_of = [&](int layer) { return layer < 0 ? -1 : plan.segment[static_cast<size_t>(layer)]; };
  LastUses last{std::vector<size_t>(st.bytes.size(), 0), std::vector<size_t>(st.bytes.size(), 0)};
  for (size_t k = 0; k < st.bytes.size(); ++k) {
    int producer = st.producer[k];
    if (producer < 0) continue;
    last.forward[k] = plan.fwd[static_cast<size_t>(producer)];
    if (checkpointed(segment_of(producer))) last.recompute[k] = plan.rec[static_cast<size_t>(producer)];
  }
  // A use inside the producer's own checkpointed segment, after its forward, falls on the recompute.
  auto use = [&](int storage, size_t layer, size_t event) {
    const size_t k = static_cast<size_t>(storage);
    bool own_segment = checkpointed(plan.segment[layer]) && plan.segment[layer] == segment_of(st.producer[k]);
    size_t& slot = (own_segment && event != plan.fwd[layer]) ? last.recompute[k] : last.forward[k];
    slot = std::max(slot, event);
  };
  for (size_t j = 0; j < n; ++j) {
    const LayerCounts& c = model.layers[j].counts;
    bool saves = training && !c.is_view;
    for (int in : model.layers[j].inputs) {
      int storage = st.of_input(in);
      use(storage, j, plan.fwd[j]);
      if (checkpointed(plan.segment[j])) use(storage, j, plan.rec[j]);  // a segment input is kept for the recompute
      // An in-place layer overwrites its input: what backward reads is the copy add_saved_aux keeps.
      if (saves && c.saves_input && !c.inplace) use(storage, j, plan.bwd[j]);
    }
    if (saves && c.saves_output) use(st.of_layer[j], j, plan.bwd[j]);
    size_t& out = last.forward[static_cast<size_t>(st.of_layer[j])];
    if (!st.consumed[j]) out = std::max(out, plan.loss);  // a model output: the loss reads it
  }
  return last;
}

// Every storage's lifetime on the timeline; what lives past forward is kept for backward.
void add_activations(MemoryFootprint& f, Timeline& timeline, const Plan& plan, const Storages& st,
                     const LastUses& last, bool training) {
  const size_t n = f.layers.size();
  for (size_t k = 0; k < st.bytes.size(); ++k) {
    const int producer = st.producer[k];
    size_t from = producer < 0 ? 0 : plan.fwd[static_cast<size_t>(producer)];
    bool kept = training && last.forward[k] >= n;
    timeline.add(st.bytes[k], from, last.forward[k], kept ? Category::kept : Category::transient);
    if (kept) {
      int64_t& owner = producer < 0 ? f.input_kept_per_sample : f.layers[static_cast<size_t>(producer)].kept_per_sample;
      owner += st.bytes[k];
    }
    if (producer >= 0 && f.layers[static_cast<size_t>(producer)].recomputed)
      timeline.add(st.bytes[k], plan.rec[static_cast<size_t>(producer)], last.recompute[k], Category::recomputed);
  }
}

// What a layer saves beside its input and output storages: masks, pooling indices,
// per-row statistics, intermediate tensors, and the copy of the input an in-place layer
// keeps when its backward reads the input (PyTorch's autograd saves self.clone() before
// an in-place op overwrites it).
int64_t saved_aux_per_sample(const Layer& l, const Storages& st, int activation_bytes) {
  const LayerCounts& c = l.counts;
  int64_t bytes = checked_add(c.saved_aux_bytes, checked_mul(c.saved_aux_elems, activation_bytes));
  if (c.inplace && c.saves_input && !l.inputs.empty()) bytes = checked_add(bytes, st.bytes[st.of_input(l.inputs[0])]);
  return bytes;
}

// The saved extras of every layer, from forward (or the recompute) to backward; the
// batch-independent statistics are summed apart (held through the step).
void add_saved_aux(MemoryFootprint& f, Timeline& timeline, const Model& model, const Plan& plan, const Storages& st) {
  for (size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    if (l.counts.is_view) continue;
    f.statistics_bytes = checked_add(f.statistics_bytes, l.counts.saved_step_bytes);
    const int64_t aux = saved_aux_per_sample(l, st, f.sizes.activation);
    if (aux == 0) continue;
    if (f.layers[i].recomputed) {
      timeline.add(aux, plan.fwd[i], plan.fwd[i], Category::transient);  // made, then dropped
      timeline.add(aux, plan.rec[i], plan.bwd[i], Category::recomputed);
    } else {
      timeline.add(aux, plan.fwd[i], plan.bwd[i], Category::kept);
      f.layers[i].kept_per_sample += aux;
    }
  }
}

// Gradients of activations: allocated by the first (in reverse) consumer that computes
// an input gradient, or by the loss, and freed after the layer's own backward. A view's
// output gradient is its input's, reshaped.
void add_activation_gradients(Timeline& timeline, const Model& model, const Plan& plan, const Storages& st,
                              int activation_bytes) {
  const size_t n = model.layers.size();
  std::vector<int> gradient_of(n);  // the layer whose output gradient a layer's gradient is (-1: the input's)
  const size_t never = std::numeric_limits<size_t>::max();
  std::vector<size_t> allocated(n, never);
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = model.layers[i];
    gradient_of[i] = (l.counts.is_view && !l.inputs.empty())
                         ? (l.inputs[0] == kModelInput ? -1 : gradient_of[static_cast<size_t>(l.inputs[0])])
                         : static_cast<int>(i);
  }
  for (size_t j = 0; j < n; ++j) {
    const Layer& l = model.layers[j];
    if (!st.consumed[j] && gradient_of[j] >= 0) {
      size_t& at = allocated[static_cast<size_t>(gradient_of[j])];
      at = std::min(at, plan.loss);
    }
    if (l.counts.is_view || reads_only_model_input(l)) continue;
    for (int in : l.inputs) {
      if (in == kModelInput || gradient_of[static_cast<size_t>(in)] < 0) continue;
      size_t& at = allocated[static_cast<size_t>(gradient_of[static_cast<size_t>(in)])];
      at = std::min(at, plan.bwd[j]);
    }
  }
  for (size_t g = 0; g < n; ++g)
    if (allocated[g] != never)
      timeline.add(checked_mul(element_count(model.layers[g].output), activation_bytes), allocated[g], plan.bwd[g],
                   Category::gradient);
}

// The peak event, and the activations reported beside it.
void find_peak(MemoryFootprint& f, bool training) {
  for (size_t e = 0; e < f.timeline.size(); ++e)
    if (f.timeline[e].live() > f.timeline[f.peak_event].live()) f.peak_event = e;
  f.peak_per_sample = f.peak().live();
  if (!training) {
    f.activations_per_sample = f.peak_per_sample;
    return;
  }
  f.activations_per_sample = f.input_kept_per_sample;
  for (const LayerMemory& l : f.layers) f.activations_per_sample += l.kept_per_sample;
}

// Prefill and decode: the KV cache, held through the step, joins the per-sample part.
void add_kv_cache(MemoryFootprint& f, const Model& model) {
  const RunSettings& s = f.settings;
  if (!s.uses_kv_cache()) return;
  const int64_t tokens = s.phase == Phase::decode ? checked_add(s.context, 1) : model.input[0];
  for (const Layer& l : model.layers) {
    if (l.counts.kv_elems_per_token == 0) continue;
    const int64_t per_token = checked_mul(l.counts.kv_elems_per_token, dtype_bytes(s.cache_dtype()));
    const int64_t held = l.counts.attention.held(tokens);  // a sliding window keeps its last `window` only
    f.kv_bytes_per_token = checked_add(f.kv_bytes_per_token, per_token);
    f.kv_cache_tokens = std::max(f.kv_cache_tokens, held);
    f.kv_cache_per_sample = checked_add(f.kv_cache_per_sample, checked_mul(per_token, held));
  }
  f.peak_per_sample = checked_add(f.peak_per_sample, f.kv_cache_per_sample);
}

// The checkpointed segments' forward, run again in backward.
void add_recompute_cost(MemoryFootprint& f, const Model& model) {
  CostAnalysis costs = analyze_costs(model, f.settings);
  for (size_t i = 0; i < model.layers.size(); ++i)
    if (f.layers[i].recomputed) {
      f.recompute_flops = checked_add(f.recompute_flops, costs.layers[i].flops);
      f.recompute_bytes = checked_add(f.recompute_bytes, costs.layers[i].bytes());
    }
}

MemoryFootprint build(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint) {
  MemoryFootprint f;
  f.settings = settings;
  const bool training = settings.phase == Phase::training;
  f.checkpoint = training ? checkpoint : CheckpointPolicy{};
  f.sizes = byte_sizes(settings);
  const size_t n = model.layers.size();
  f.layers.assign(n, {});
  if (n == 0) return f;

  add_model_part(f, model, training);
  Plan plan = plan_events(n, training, f.checkpoint);
  for (size_t i = 0; i < n; ++i) {
    f.layers[i].segment = plan.segment[i];
    f.layers[i].recomputed = plan.segment[i] >= 0 && plan.checkpointed[static_cast<size_t>(plan.segment[i])];
  }
  Storages storages = assign_storages(model, training, f.sizes.activation,
                                      settings.phase == Phase::prefill && !settings.all_logits);
  LastUses last = find_last_uses(model, plan, storages, training);
  Timeline timeline(plan.events.size());
  add_activations(f, timeline, plan, storages, last, training);
  if (training) {
    add_saved_aux(f, timeline, model, plan, storages);
    add_activation_gradients(timeline, model, plan, storages, f.sizes.activation);
  }
  f.timeline = std::move(plan.events);
  timeline.fill(f.timeline);
  find_peak(f, training);
  add_kv_cache(f, model);
  if (training && f.checkpoint.kind != CheckpointPolicy::Kind::none) add_recompute_cost(f, model);
  checked_add(f.fixed_bytes(), checked_mul(f.peak_per_sample, settings.batch));  // every reported byte count fits
  return f;
}

}  // namespace

MemoryFootprint memory_footprint(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint) {
  check_kv_cache_phase(model, settings);  // `memory --context` past max_positions fitted while `analyze` refused it
  try {
    return build(model, settings, checkpoint);
  } catch (const CountOverflow&) {
    throw InputError({}, "memory of model '" + model.name + "' at batch " + std::to_string(settings.batch) +
                             " overflows 64 bits",
                     settings.batch > 1 ? "use a smaller --batch"
                                        : "even one sample is too large: check the model's input and layer shapes");
  }
}

}  // namespace ridge
