// The busiest expert-parallel rank's costs (see busiest_expert_rank.hpp).
#include "sim/workload/busiest_expert_rank.hpp"

#include <algorithm>
#include <cmath>

namespace ridge {

namespace {

// Expected distinct experts of E that `tokens` tokens touch when each chooses a given one
// with probability p: E (1 - (1 - p)^T), as -E expm1(T log1p(-p)) for precision at small p.
double touched(int64_t experts, double p, int64_t tokens) {
  return -static_cast<double>(experts) * std::expm1(static_cast<double>(tokens) * std::log1p(-std::min(p, 1.0)));
}

int64_t scaled(int64_t n, double factor) {
  const double x = std::round(static_cast<double>(n) * factor);
  if (!(x < 9.2e18)) throw CountOverflow();
  return static_cast<int64_t>(x);
}

}  // namespace

CostAnalysis busiest_expert_rank(CostAnalysis costs, const Model& model, const RunSettings& settings, double load) {
  if (load == 1 || settings.phase == Phase::training) return costs;
  for (size_t i = 0; i < model.layers.size() && i < costs.layers.size(); ++i) {
    const ExpertShape& e = model.layers[i].counts.experts;
    LayerCost& c = costs.layers[i];
    if (e.experts == 0 || c.macs == 0) continue;  // not a MoE layer, or skipped
    const LayerCost before = c;
    for (int64_t* n : {&c.macs, &c.flops, &c.input_bytes, &c.output_bytes}) *n = scaled(*n, load);
    const int64_t tokens = checked_product({e.tokens, settings.batch, e.ranks});
    const double k_over_e = static_cast<double>(e.top_k) / static_cast<double>(e.experts);
    const double uniform = touched(e.experts, k_over_e, tokens);
    if (uniform > 0) {
      const double more = touched(e.experts, load * k_over_e, tokens) / uniform;
      c.weight_bytes = scaled(c.weight_bytes, more);
      c.dequant_weights = scaled(c.dequant_weights, more);
    }
    for (auto field : {&LayerCost::macs, &LayerCost::flops, &LayerCost::input_bytes, &LayerCost::output_bytes,
                       &LayerCost::weight_bytes})  // the totals analyze_costs sums
      costs.totals.*field = checked_add(costs.totals.*field, c.*field - before.*field);
  }
  return costs;
}

}  // namespace ridge
