// Plan validation (see plan_check.hpp).
#include "sim/parallel/plan_check.hpp"

#include "sim/base/error.hpp"

namespace ridge {

namespace {

std::string n(int64_t v) { return std::to_string(v); }

// A problem whose `reason` is `what` without its numbers, so plans that fail the same
// way group under one line of `ridge plan`'s summary.
PlanProblem problem(const std::string& reason, const std::string& what, const std::string& hint = {}) {
  return {what, hint, reason};
}

}  // namespace

PlanProblem plan_problem(const ParallelPlan& p, const TransformerParams& s, const SystemSpec& sys, bool moe) {
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
  if (p.ep > 1 && !moe)
    return problem("ep on a dense model", "ep=" + n(p.ep) + " needs a mixture-of-experts model",
                   "use ep=1 for a dense model");
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
                   "lower tp x pp x dp, or use a larger system (ridge list systems)");
  return {};
}

void check_plan(const ParallelPlan& p, const TransformerParams& s, const SystemSpec& sys, bool moe, const std::string& model) {
  PlanProblem found = plan_problem(p, s, sys, moe);
  if (!found.ok()) throw InputError({}, "plan for '" + model + "': " + found.what, found.hint);
}

}  // namespace ridge
