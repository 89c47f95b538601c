// Views of a finished sweep: CSV (one row per point, or per point and layer), JSON,
// and the short text summary (fastest hardware per model, where the bound flips).
// They only format SweepResult; nothing here recomputes a timing.
#pragma once

#include <ostream>
#include <string>

#include "sim/engine/sweep_run.hpp"
#include "sim/views/json.hpp"

namespace ridge {

// The point's bound as the sweep reports it: "memory" when memory-bound layers take
// more than half the step time, else "compute"; empty when the point did not run.
std::string point_bound(const SweepPointResult& r);

void write_sweep_csv(const SweepPlan& plan, const SweepResult& result, bool per_layer, std::ostream& out);
Json sweep_json(const SweepPlan& plan, const SweepResult& result, bool per_layer);

// A few lines for people: per model, the fastest hardware point, and the batch (or
// varied value) at which the bound flips, per hardware, dtype and phase.
std::string sweep_summary(const SweepPlan& plan, const SweepResult& result);

}  // namespace ridge
