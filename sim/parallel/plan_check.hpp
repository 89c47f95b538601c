// Whether a parallel plan can run a model on a system: the degrees divide the model
// (tp the heads, pp the layers, pp x interleave the layers, ep the experts of a
// mixture of experts and dp x cp, cp the sequence into 2 cp chunks), the batch divides into
// microbatches across dp, the plan's devices exist, and the knobs are in range (an
// expert imbalance between 1 and what top-k routing allows at that ep).
#pragma once

#include <string>

#include "sim/parallel/parallel_plan.hpp"
#include "sim/parallel/sharded_layers.hpp"
#include "sim/parallel/system_spec.hpp"

namespace ridge {

// Why `plan` cannot run (one sentence), and a hint; both empty when it can.
struct PlanProblem {
  std::string what;
  std::string hint;
  std::string reason;  // `what` without its numbers: the class of plans that fail alike
  bool ok() const { return what.empty(); }
};
PlanProblem plan_problem(const ParallelPlan& plan, const TransformerParams& shape, const SystemSpec& system);
// The same as an InputError (exit 2) naming the model and system.
void check_plan(const ParallelPlan& plan, const TransformerParams& shape, const SystemSpec& system,
                const std::string& model);

}  // namespace ridge
