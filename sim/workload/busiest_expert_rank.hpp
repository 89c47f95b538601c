// The busiest rank of an expert-parallel mixture of experts under a routing imbalance F
// (generate --expert-imbalance; ParallelPlan::expert_imbalance): its experts receive F
// times the mean rank's token-expert pairs. analyze_costs counts the mean rank (uniform
// routing, ops/moe.cpp); this turns its MoE layers' costs into the busiest rank's:
//   - F x the MACs, FLOPs and activation traffic (the expert GEMMs' work is per pair; the
//     router's softmax and top-k over the rank's own tokens, 5E - 2 + k(E - 1) + 2k - 1
//     FLOPs and E + 4k elements a token, under 1e-6 of Mixtral's layer, are scaled too);
//   - the weights read: each of the rank's E / N experts is read unless every one of the
//     step's N x T tokens misses it, a token choosing it with probability F k / E (k / E
//     uniform), so (E / N)(1 - (1 - F k/E)^(N T)) experts' weights (and their dequantised
//     weights) where uniform routing reads (E / N)(1 - (1 - k/E)^(N T)).
// The totals change by the same amounts. Training costs are left as they are (the
// training estimate scales the MoE layers' time itself, training_estimate.cpp).
#pragma once

#include "sim/workload/cost_analysis.hpp"

namespace ridge {

CostAnalysis busiest_expert_rank(CostAnalysis costs, const Model& model, const RunSettings& settings, double load);

}  // namespace ridge
