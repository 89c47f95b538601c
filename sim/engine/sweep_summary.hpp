// What a finished sweep says for people, as data: how many points ran, the fastest
// point per model and phase, and every place the bound flips as the batch or a
// [[vary]] value grows. views/sweep_report words it; nothing there recomputes.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "sim/engine/sweep_run.hpp"

namespace ridge {

struct FastestPoint {
  size_t model = 0;
  Phase phase = Phase::inference;
  std::optional<size_t> point;  // highest samples/s among the points that ran; none when none ran
};

// Two neighbouring points of a series (all else equal, the batch or one [[vary]] value
// growing) whose bounds differ.
struct BoundFlip {
  size_t model = 0;
  size_t before = 0;    // point index
  size_t after = 0;     // point index
  int along_vary = -1;  // -1: along the batch; else the index of the [[vary]] table
};

// Per model, the point with the most samples per dollar and the one with the fewest joules
// per sample (none when no point of the model has the figure).
struct BestValuePoint {
  size_t model = 0;
  std::optional<size_t> per_usd;
  std::optional<size_t> per_joule;
};

struct SweepSummary {
  size_t points = 0;
  size_t ran = 0;
  std::vector<FastestPoint> fastest;  // per model, per phase in the file's order
  std::vector<BoundFlip> flips;       // per model in order
  std::vector<BestValuePoint> best_value;  // per model
};

SweepSummary summarize_sweep(const SweepPlan& plan, const SweepResult& result);

}  // namespace ridge
