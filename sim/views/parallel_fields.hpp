// The schema of a parallel training result, each quantity declared once (key = JSON and
// CSV name): a plan's degrees and choices, and the totals of one iteration, either of a
// transformer's plan (TrainingEstimate) or of a model that runs data parallel only
// (DataParallelEstimate), where a key that does not apply is left out. `analyze` and
// `memory --parallel` (JSON "plan" and "totals", CSV), `ridge plan` (table, CSV, JSON)
// and a parallel sweep (table, CSV, JSON) all read these, so a quantity has one name and
// one value in every command and format. The compact totals are the columns of the
// tables and CSVs; JSON gets them all.
#pragma once

#include <vector>

#include "sim/parallel/data_parallel.hpp"
#include "sim/parallel/parallel_plan.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "sim/views/field.hpp"

namespace ridge {

// One iteration's estimate: exactly one of the two is set.
struct ParallelResult {
  const TrainingEstimate* training = nullptr;
  const DataParallelEstimate* data_parallel = nullptr;
};

std::vector<Field<ParallelPlan>> parallel_plan_fields();
std::vector<Field<ParallelResult>> parallel_totals_fields();

}  // namespace ridge
