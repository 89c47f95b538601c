// Plan validation (see plan_check.hpp).
#include "sim/parallel/plan_check.hpp"

#include <algorithm>

#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"

namespace ridge {

namespace {

std::string n(int64_t v) { return std::to_string(v); }

// A problem whose `reason` is `what` without its numbers, so plans that fail the same
// way group under one line of `ridge plan`'s summary.
PlanProblem problem(const std::string& reason, const std::string& what, const std::string& hint = {}) {
  return {what, hint, reason};
}

}  // namespace

PlanProblem plan_problem(const ParallelPlan& p, const TransformerParams& s, const SystemSpec& sys) {
  if (s.heads % p.tp != 0)
    return problem("tp does not divide the attention heads",
                   "tp=" + n(p.tp) + " does not divide the " + n(s.heads) + " attention heads",
                   "tp must divide the heads (and hidden)");
  if (s.hidden % p.tp != 0)
    return problem("tp does not divide hidden", "tp=" + n(p.tp) + " does not divide hidden " + n(s.hidden));
  if (p.pp > s.layers)
    return problem("pp is more than the layers", "pp=" + n(p.pp) + " is more than the " + n(s.layers) + " layers",
                   "at most one stage per layer");
  if (s.layers % p.pp != 0)
    return problem("pp does not divide the layers", "pp=" + n(p.pp) + " does not divide the " + n(s.layers) + " layers",
                   "every stage holds layers / pp layers");
  if (p.interleave < 1)
    return problem("interleave below 1", "--interleave must be at least 1 (got " + n(p.interleave) + ")");
  if (p.interleave > 1 && p.pp == 1)
    return problem("interleave without a pipeline", "--interleave " + n(p.interleave) + " needs pp > 1",
                   "interleaving splits pipeline stages");
  if ((s.layers / p.pp) % p.interleave != 0)
    return problem("interleave does not divide a stage's layers",
                   "--interleave " + n(p.interleave) + " does not divide the " + n(s.layers / p.pp) +
                       " layers of a stage",
                   "each stage's layers split into interleave chunks");
  if (p.ep > 1 && !s.mixture_of_experts())
    return problem("ep on a dense model", "ep=" + n(p.ep) + " needs a mixture-of-experts model",
                   "use ep=1 for a dense model");
  if (p.ep > 1 && s.experts % p.ep != 0)
    return problem("ep does not divide the experts",
                   "ep=" + n(p.ep) + " does not divide the " + n(s.experts) + " experts",
                   "every expert-parallel rank holds experts / ep whole experts");
  if ((p.dp * p.cp) % p.ep != 0)
    return problem("ep does not divide dp x cp",
                   "ep=" + n(p.ep) + " does not divide dp x cp = " + n(p.dp * p.cp),
                   "the experts spread over the data- and context-parallel ranks (Megatron-LM: ep divides dp x cp)");
  if (!(p.expert_imbalance >= 1))  // NaN fails too
    return problem("expert imbalance below 1",
                   "--expert-imbalance must be at least 1, the busiest expert rank's load over the mean (got " +
                       format_fixed(p.expert_imbalance, 2) + ")",
                   "1 is uniform routing");
  if (p.expert_imbalance > 1 && p.ep == 1)
    return problem("expert imbalance without ep", "--expert-imbalance needs ep > 1",
                   "with ep=1 every rank holds every expert, so routing cannot load one rank more than another");
  if (p.ep > 1) {
    // The busiest rank receives each token at most once per expert it holds: tokens x
    // min(top_k, experts / ep) pairs, against the mean's tokens x top_k / ep.
    const double most = static_cast<double>(p.ep * std::min(s.top_k, s.experts / p.ep)) / static_cast<double>(s.top_k);
    if (p.expert_imbalance > most)
      return problem("expert imbalance above what routing allows",
                     "--expert-imbalance " + format_fixed(p.expert_imbalance, 2) + " is more than routing allows at ep=" +
                         n(p.ep) + ": ep x min(top_k, experts / ep) / top_k = " + format_fixed(most, 2),
                     "a rank receives each token at most once per expert it holds");
  }
  if (p.ep > 1 && p.tp > 1 && !p.sequence_parallel)
    return problem("tp with ep needs sequence parallelism", "ep=" + n(p.ep) + " with tp=" + n(p.tp) + " needs --sequence-parallel",
                   "Megatron-LM requires sequence parallelism when it combines tensor and expert parallelism");
  if (p.cp > 1 && s.seq % (2 * p.cp) != 0)
    return problem("cp does not divide the sequence into 2 cp chunks",
                   "cp=" + n(p.cp) + " does not split the sequence of " + n(s.seq) + " into 2 x cp = " + n(2 * p.cp) +
                       " equal chunks",
                   "context parallelism gives each rank two of 2 x cp chunks (Megatron-LM's causal load balancing)");
  if (p.microbatch < 1)
    return problem("microbatch below 1", "--microbatch must be at least 1 (got " + n(p.microbatch) + ")");
  if (p.global_batch < 0)
    return problem("global batch below 1", "--global-batch must be positive (got " + n(p.global_batch) + ")");
  if (p.batch() % (p.microbatch * p.dp) != 0)
    return problem("global batch not divisible by microbatch x dp",
                   "global batch " + n(p.batch()) + " is not divisible by microbatch " + n(p.microbatch) + " x dp " +
                       n(p.dp),
                   "choose --global-batch a multiple of microbatch x dp");
  if (p.interleave > 1 && p.microbatches() % p.pp != 0)
    return problem("interleaving needs microbatches a multiple of pp",
                   "interleaving needs the " + n(p.microbatches()) + " microbatches to be a multiple of pp=" + n(p.pp),
                   "Megatron-LM's interleaved schedule requires it");
  if (p.zero < 0 || p.zero > 3)
    return problem("ZeRO stage out of range", "--zero must be 0, 1, 2 or 3 (got " + n(p.zero) + ")");
  if (p.sequence_parallel && p.tp == 1)
    return problem("sequence parallelism without tp", "--sequence-parallel needs tp > 1",
                   "sequence parallelism splits what tp replicates");
  if (p.devices() > sys.total_devices())
    return problem("more devices than the system",
                   "the plan takes " + n(p.devices()) + " devices, more than the " + n(sys.total_devices()) +
                       " of system '" + sys.id + "'",
                   "lower tp x pp x dp x cp, or use a larger system (ridge list systems)");
  return {};
}

void check_plan(const ParallelPlan& p, const TransformerParams& s, const SystemSpec& sys, const std::string& model) {
  PlanProblem found = plan_problem(p, s, sys);
  if (!found.ok()) throw InputError({}, "plan for '" + model + "': " + found.what, found.hint);
}

}  // namespace ridge
