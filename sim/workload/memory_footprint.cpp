// The memory timeline of one step (rules in memory_footprint.hpp and README "Memory model").
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
    d[to + 1] -= bytes;
  }
  void fill(std::vector<MemoryEvent>& events) const {
    std::vector<int64_t> run(4, 0);
    for (size_t e = 0; e < events.size(); ++e) {
      for (int c = 0; c < 4; ++c) run[c] += diff_[c][e];
      events[e].kept = run[0];
      events[e].recomputed = run[1];
      events[e].transient = run[2];
      events[e].gradients = run[3];
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

MemoryFootprint build(const Model& model, const RunSettings& s, const CheckpointPolicy& cp) {
  MemoryFootprint f;
  f.settings = s;
  bool training = s.phase == Phase::training;
  f.checkpoint = training ? cp : CheckpointPolicy{};
  f.sizes = byte_sizes(s);
  const ByteSizes& z = f.sizes;
  const size_t n = model.layers.size();
  f.layers.assign(n, {});
  if (n == 0) return f;

  // Model part.
  for (const Layer& l : model.layers) {
    f.params = checked_add(f.params, l.counts.params);
    bool narrow = l.counts.quantizable && s.weight_format != WeightFormat::same;
    f.parameters_bytes = checked_add(f.parameters_bytes, narrow ? quantized_weight_bytes(l.counts.params, s.weight_format, s.dtype)
                                                                : checked_mul(l.counts.params, z.weight));
  }
  if (training) {
    f.master_weights_bytes = checked_mul(f.params, z.master);
    f.gradients_bytes = checked_mul(f.params, z.gradient);
    f.optimizer_bytes = checked_product({f.params, z.state, z.state_slots});
  }

  Plan p = plan_events(n, training, f.checkpoint);
  for (size_t i = 0; i < n; ++i) f.layers[i].segment = p.segment[i];
  auto ckpt = [&](int seg) { return seg >= 0 && p.checkpointed[seg]; };
  auto seg_of = [&](int layer) { return layer < 0 ? -1 : p.segment[layer]; };

  // Storages: 0 is the model's input; in-place layers and views reuse their input's.
  auto skipped = [&](const Layer& l) { return !training && l.counts.identity_at_inference; };
  std::vector<int> stor(n);
  std::vector<int> producer = {-1};
  std::vector<int64_t> size = {checked_mul(element_count(model.input), z.activation)};
  auto storage_of = [&](int input) { return input == kModelInput ? 0 : stor[input]; };
  std::vector<bool> consumed(n, false);
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = model.layers[i];
    for (int in : l.inputs)
      if (in != kModelInput) consumed[in] = true;
    bool alias = (l.counts.is_view || skipped(l) || l.counts.inplace) && !l.inputs.empty();
    if (alias) {
      stor[i] = storage_of(l.inputs[0]);
    } else {
      stor[i] = static_cast<int>(size.size());
      producer.push_back(static_cast<int>(i));
      size.push_back(checked_mul(element_count(l.output), z.activation));
    }
    f.layers[i].recomputed = ckpt(p.segment[i]);
  }

  // Last uses of each storage's forward instance (1) and of its recompute (2).
  std::vector<size_t> last1(size.size(), 0), last2(size.size(), 0);
  for (size_t st = 0; st < size.size(); ++st) last1[st] = producer[st] < 0 ? 0 : p.fwd[producer[st]];
  for (size_t st = 0; st < size.size(); ++st)
    if (producer[st] >= 0 && ckpt(seg_of(producer[st]))) last2[st] = p.rec[producer[st]];
  // A use inside the producer's own checkpointed segment, after its forward, falls on the recompute.
  auto use = [&](int st, size_t j, size_t event) {
    bool own_segment = ckpt(p.segment[j]) && p.segment[j] == seg_of(producer[st]);
    size_t& last = (own_segment && event != p.fwd[j]) ? last2[st] : last1[st];
    last = std::max(last, event);
  };
  for (size_t j = 0; j < n; ++j) {
    const Layer& l = model.layers[j];
    const LayerCounts& c = l.counts;
    bool saves = training && !c.is_view;
    for (int in : l.inputs) {
      int st = storage_of(in);
      use(st, j, p.fwd[j]);
      if (ckpt(p.segment[j])) use(st, j, p.rec[j]);  // a segment input is kept for the recompute
      if (saves && c.saves_input) use(st, j, p.bwd[j]);
    }
    if (saves && c.saves_output) use(stor[j], j, p.bwd[j]);
    if (!consumed[j]) last1[stor[j]] = std::max(last1[stor[j]], p.loss);  // a model output: the loss reads it
  }

  Timeline t(p.events.size());
  for (size_t st = 0; st < size.size(); ++st) {
    size_t from = producer[st] < 0 ? 0 : p.fwd[producer[st]];
    bool kept = training && last1[st] >= n;
    t.add(size[st], from, last1[st], kept ? Category::kept : Category::transient);
    if (kept) {
      if (producer[st] < 0)
        f.input_kept_per_sample += size[st];
      else
        f.layers[producer[st]].kept_per_sample += size[st];
    }
    if (producer[st] >= 0 && ckpt(seg_of(producer[st])))
      t.add(size[st], p.rec[producer[st]], last2[st], Category::recomputed);
  }

  if (training) {
    for (size_t i = 0; i < n; ++i) {
      const LayerCounts& c = model.layers[i].counts;
      if (c.saved_aux_bytes == 0 || c.is_view) continue;
      if (ckpt(p.segment[i])) {
        t.add(c.saved_aux_bytes, p.fwd[i], p.fwd[i], Category::transient);  // made, then dropped
        t.add(c.saved_aux_bytes, p.rec[i], p.bwd[i], Category::recomputed);
      } else {
        t.add(c.saved_aux_bytes, p.fwd[i], p.bwd[i], Category::kept);
        f.layers[i].kept_per_sample += c.saved_aux_bytes;
      }
    }
    // Gradients of activations: a view's output gradient is its input's, reshaped.
    std::vector<int> gid(n);
    const size_t never = std::numeric_limits<size_t>::max();
    std::vector<size_t> alloc(n, never);
    for (size_t i = 0; i < n; ++i) {
      const Layer& l = model.layers[i];
      gid[i] = (l.counts.is_view && !l.inputs.empty())
                   ? (l.inputs[0] == kModelInput ? -1 : gid[l.inputs[0]])
                   : static_cast<int>(i);
    }
    for (size_t j = 0; j < n; ++j) {
      const Layer& l = model.layers[j];
      if (!consumed[j] && gid[j] >= 0) alloc[gid[j]] = std::min(alloc[gid[j]], p.loss);
      if (l.counts.is_view || reads_only_model_input(l)) continue;
      for (int in : l.inputs)
        if (in != kModelInput && gid[in] >= 0) alloc[gid[in]] = std::min(alloc[gid[in]], p.bwd[j]);
    }
    for (size_t g = 0; g < n; ++g)
      if (alloc[g] != never)
        t.add(checked_mul(element_count(model.layers[g].output), z.activation), alloc[g], p.bwd[g],
              Category::gradient);
  }

  f.timeline = std::move(p.events);
  t.fill(f.timeline);
  for (size_t e = 0; e < f.timeline.size(); ++e)
    if (f.timeline[e].live() > f.timeline[f.peak_event].live()) f.peak_event = e;
  f.peak_per_sample = f.peak().live();
  if (training) {
    f.activations_per_sample = f.input_kept_per_sample;
    for (const LayerMemory& l : f.layers) f.activations_per_sample += l.kept_per_sample;
  } else {
    f.activations_per_sample = f.peak_per_sample;
  }
  if (s.uses_kv_cache()) {
    for (const Layer& l : model.layers)
      f.kv_bytes_per_token = checked_add(f.kv_bytes_per_token, checked_mul(l.counts.kv_elems_per_token,
                                                                           dtype_bytes(s.cache_dtype())));
    f.kv_cache_tokens = s.phase == Phase::decode ? checked_add(s.context, 1) : model.input[0];
    f.kv_cache_per_sample = checked_mul(f.kv_bytes_per_token, f.kv_cache_tokens);
    f.peak_per_sample = checked_add(f.peak_per_sample, f.kv_cache_per_sample);
  }

  // The checkpointed segments' forward, run again in backward.
  if (training && f.checkpoint.kind != CheckpointPolicy::Kind::none) {
    CostAnalysis costs = analyze_costs(model, s);
    for (size_t i = 0; i < n; ++i)
      if (f.layers[i].recomputed) {
        f.recompute_flops = checked_add(f.recompute_flops, costs.layers[i].flops);
        f.recompute_bytes = checked_add(f.recompute_bytes, costs.layers[i].bytes());
      }
  }
  checked_add(f.model_bytes(), checked_mul(f.peak_per_sample, s.batch));  // every reported byte count fits
  return f;
}

}  // namespace

MemoryFootprint memory_footprint(const Model& model, const RunSettings& settings, const CheckpointPolicy& checkpoint) {
  try {
    return build(model, settings, checkpoint);
  } catch (const CountOverflow&) {
    throw InputError({}, "memory of model '" + model.name + "' at batch " + std::to_string(settings.batch) +
                             " overflows 64 bits",
                     "use a smaller --batch");
  }
}

}  // namespace ridge
