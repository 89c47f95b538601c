// `query --parallel`: where one training iteration's time goes (compute, the pipeline
// bubble, each group's communication on the critical path, the optimizer step) and
// whether its costliest collective is link-limited (moving the bytes takes longer than
// the same collective of 0 bytes) or latency-limited, in sentences or JSON. Formats the
// finished estimate only.
#pragma once

#include <string>

#include "sim/parallel/training_estimate.hpp"
#include "sim/views/json.hpp"

namespace ridge {

std::string parallel_query_text(const TrainingEstimate& e);
Json parallel_query_json(const TrainingEstimate& e);

}  // namespace ridge
