// Views of a parallel training estimate (`analyze` / `memory` with --parallel; a
// data-parallel one for models that are not transformers) and of
// a plan search (`ridge plan`): text, CSV and JSON. They format finished numbers only.
#pragma once

#include <ostream>

#include "sim/parallel/data_parallel.hpp"
#include "sim/parallel/plan_search.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "sim/views/json.hpp"
#include "sim/views/output_format.hpp"
#include "sim/views/parallel_fields.hpp"

namespace ridge {

// The JSON of a plan (its degrees and choices) and of an estimate's totals, as
// `analyze --parallel --format json` writes them under "plan" and "totals"
// (parallel_fields.hpp: a data-parallel estimate's totals give samples_per_s, not tokens).
Json plan_json(const ParallelPlan& p);
Json totals_json(const ParallelResult& r);
// A data-parallel estimate's plan: dp, the global and per-device batch, dtype, overlap.
Json data_parallel_plan_json(const DataParallelEstimate& e);

void write_training_estimate(const TrainingEstimate& e, OutputFormat format, std::ostream& out);
// Text or JSON (the keys of write_training_estimate's totals where they apply).
void write_data_parallel_estimate(const DataParallelEstimate& e, OutputFormat format, std::ostream& out);
void write_plan_search(const SearchResult& r, OutputFormat format, std::ostream& out);

}  // namespace ridge
