// Exhaustive plan search (see plan_search.hpp).
#include "sim/parallel/plan_search.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"
#include "sim/parallel/plan_check.hpp"

namespace ridge {

namespace {

// The search tries context parallelism only where each rank keeps at least this many
// tokens of a sequence (GPT-3's 2048: cp 1 or 2; 128K tokens: up to 128): shorter chunks
// leave too little attention per ring step to hide its K/V transfers, and every cp
// multiplies the (tp, cp, microbatch) timings the search needs. `--parallel cp=C` takes any.
constexpr int64_t kMinContextChunk = 1024;

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t i = 1; i * i <= n; ++i)
    if (n % i == 0) {
      out.push_back(i);
      if (i != n / i) out.push_back(n / i);
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

SearchResult search_plans(const SearchRequest& r, const SystemSpec& sys, const HardwareModel& hw_model) {
  SearchResult out;
  TransformerParams shape = transformer_params(r.model, r.overrides);
  if (!(r.expert_imbalance >= 1))  // NaN fails too
    throw InputError({}, "plan: --expert-imbalance must be at least 1, the busiest expert rank's load over the mean (got " +
                             format_raw(r.expert_imbalance) + ")",
                     "1 is uniform routing");
  if (r.expert_imbalance > 1 && !shape.mixture_of_experts())
    throw InputError({}, "plan: --expert-imbalance applies to a mixture of experts; model '" + r.model + "' has no experts",
                     "leave it out for a dense model");
  // The engine's timing per (tp, cp, microbatch); empty where the model's shapes do not
  // split tp ways (a tp that divides the heads but not, say, the key/value heads).
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::optional<ShardedLayers>> timed;
  auto layers_at = [&](int64_t tp, int64_t cp, int64_t mb) -> const std::optional<ShardedLayers>& {
    auto key = std::make_tuple(tp, cp, mb);
    auto it = timed.find(key);
    if (it == timed.end()) {
      std::optional<ShardedLayers> t;
      try {
        t = time_sharded_layers(r.model, r.overrides, shape, tp, cp, mb, sys.device, hw_model);
      } catch (const InputError&) {
        t.reset();
      }
      it = timed.emplace(key, std::move(t)).first;
    }
    return it->second;
  };
  // Expert-parallel degrees to try with dp x cp = `replicas`: every divisor for a
  // mixture of experts (plan_problem rejects those that do not divide the experts), 1 for a dense model.
  auto expert_degrees = [&](int64_t replicas) {
    return shape.mixture_of_experts() ? divisors(replicas) : std::vector<int64_t>{1};
  };
  std::vector<TrainingEstimate> fits;
  int64_t index = 0;
  for (int64_t tp : divisors(r.devices))
    for (int64_t pp : divisors(r.devices / tp))
      for (int64_t cp : divisors(r.devices / (tp * pp))) {
        if (cp > 1 && shape.seq / cp < kMinContextChunk) continue;  // not numbered: outside the search
        int64_t dp = r.devices / (tp * pp * cp);
        std::vector<int64_t> mbs = r.global_batch % dp == 0 ? divisors(r.global_batch / dp) : std::vector<int64_t>{1};
        std::vector<int64_t> vs = shape.layers % pp == 0 ? divisors(shape.layers / pp) : std::vector<int64_t>{1};
        for (int64_t ep : expert_degrees(dp * cp))
          for (int64_t mb : mbs)
            for (int sp = 0; sp <= (tp > 1 ? 1 : 0); ++sp)
              for (int zero = 0; zero <= (dp * cp > 1 ? 3 : 0); ++zero)
                for (Recompute rc : {Recompute::none, Recompute::selective, Recompute::full})
                  for (int64_t v : vs) {
                    if (v > 1 && pp == 1) continue;  // no interleaving without a pipeline
                    int64_t number = index++;
                    if (number % r.shards != r.shard - 1) continue;
                    ++out.considered;
                    ParallelPlan p;
                    p.tp = tp;
                    p.pp = pp;
                    p.dp = dp;
                    p.cp = cp;
                    p.ep = ep;
                    p.global_batch = r.global_batch;
                    p.microbatch = mb;
                    p.sequence_parallel = sp == 1;
                    p.zero = zero;
                    p.recompute = rc;
                    p.interleave = v;
                    if (ep > 1) p.expert_imbalance = r.expert_imbalance;
                    PlanProblem problem = plan_problem(p, shape, sys);
                    if (!problem.ok()) {
                      ++out.rejected[problem.reason];
                      continue;
                    }
                    const std::optional<ShardedLayers>& sharded = layers_at(tp, cp, mb);
                    const std::optional<ShardedLayers>& whole = layers_at(1, 1, mb);
                    if (!sharded || !whole) {
                      ++out.rejected["tp does not divide the model's layer shapes"];
                      continue;
                    }
                    TrainingEstimate e = estimate_training(r.model, sys, p, shape, *sharded, *whole);
                    if (!e.fits) {
                      ++out.too_large;
                      continue;
                    }
                    fits.push_back(std::move(e));
                  }
      }
  out.fitting = static_cast<int64_t>(fits.size());
  auto faster = [](const TrainingEstimate& a, const TrainingEstimate& b) {
    if (a.iteration_time_s != b.iteration_time_s) return a.iteration_time_s < b.iteration_time_s;
    return plan_label(a.plan) < plan_label(b.plan);
  };
  size_t keep = std::min(r.top, fits.size());
  std::partial_sort(fits.begin(), fits.begin() + static_cast<std::ptrdiff_t>(keep), fits.end(), faster);
  fits.resize(keep);
  out.best = std::move(fits);
  return out;
}

}  // namespace ridge
