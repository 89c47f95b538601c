// Summarising a sweep (see sweep_summary.hpp).
#include "sim/engine/sweep_summary.hpp"

#include <algorithm>
#include <numeric>

namespace ridge {

namespace {

// Appends a flip for every change of bound along `series` (point indices in order),
// skipping points that did not run.
void add_flips(const SweepResult& result, size_t model, const std::vector<size_t>& series, int along_vary,
               std::vector<BoundFlip>& out) {
  size_t prev = series.size();
  for (size_t j = 0; j < series.size(); ++j) {
    const SweepPointResult& r = result.points[series[j]];
    if (!r.ok()) continue;
    if (prev < series.size() && result.points[series[prev]].bound != r.bound)
      out.push_back({model, series[prev], series[j], along_vary});
    prev = j;
  }
}

}  // namespace

SweepSummary summarize_sweep(const SweepPlan& plan, const SweepResult& result) {
  const SweepFile& f = plan.file;
  SweepSummary s;
  s.points = result.points.size();
  for (const SweepPointResult& r : result.points) s.ran += r.ok();
  // Batch order ascending, whatever the file's order.
  std::vector<size_t> batch_order(f.batches.size());
  std::iota(batch_order.begin(), batch_order.end(), 0);
  std::stable_sort(batch_order.begin(), batch_order.end(), [&](size_t a, size_t b) { return f.batches[a] < f.batches[b]; });
  const size_t per_model = result.points.size() / std::max<size_t>(f.models.size(), 1);
  for (size_t m = 0; m < f.models.size(); ++m) {
    const size_t begin = m * per_model, end = begin + per_model;
    for (Phase phase : f.phases) {
      FastestPoint best{m, phase, std::nullopt};
      for (size_t i = begin; i < end; ++i) {
        const SweepPointResult& r = result.points[i];
        if (!r.ok() || plan.coords(i).phase != phase) continue;
        if (!best.point || r.samples_per_s > result.points[*best.point].samples_per_s) best.point = i;
      }
      s.fastest.push_back(best);
    }
    BestValuePoint value{m, std::nullopt, std::nullopt};
    for (size_t i = begin; i < end; ++i) {
      const SweepPointResult& r = result.points[i];
      if (!r.ok()) continue;
      if (r.samples_per_usd && (!value.per_usd || *r.samples_per_usd > *result.points[*value.per_usd].samples_per_usd))
        value.per_usd = i;
      if (r.joules_per_sample &&
          (!value.per_joule || *r.joules_per_sample < *result.points[*value.per_joule].joules_per_sample))
        value.per_joule = i;
    }
    s.best_value.push_back(value);
    // As batch grows: batch is the fastest-varying coordinate, so a series is contiguous.
    const size_t nb = f.batches.size();
    for (size_t i = begin; nb > 1 && i < end; i += nb) {
      std::vector<size_t> series;
      for (size_t b : batch_order) series.push_back(i + b);
      add_flips(result, m, series, -1, s.flips);
    }
    // As each varied value grows (in the file's order).
    const size_t block = group_block(f);
    for (size_t k = 0; k < f.vary.size(); ++k) {
      size_t stride = block;
      for (size_t k2 = k + 1; k2 < f.vary.size(); ++k2) stride *= f.vary[k2].values.size();
      const size_t count = f.vary[k].values.size();
      if (count < 2) continue;
      for (size_t i = begin; i < end; ++i) {
        if (plan.hw_points[plan.coords(i).hw_point].value[k] != 0) continue;
        std::vector<size_t> series;
        for (size_t j = 0; j < count; ++j) series.push_back(i + j * stride);
        add_flips(result, m, series, static_cast<int>(k), s.flips);
      }
    }
  }
  return s;
}

}  // namespace ridge
