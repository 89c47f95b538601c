// `ridge plan`: every plan of a model on N devices of a system (tp, pp, cp, dp =
// N/(tp pp cp); cp only while a rank keeps at least 1024 tokens of the sequence), ep
// (a mixture of experts: each divisor of dp x cp; the request's routing imbalance where
// ep > 1), sequence
// parallelism, ZeRO stage, recomputation, microbatch, interleave), each
// checked (plan_check.hpp), estimated (training_estimate.hpp) and kept when it fits;
// the best by iteration time first. The engine times each (tp, cp, microbatch) of
// sharded layers once and every plan reuses them. Plans are numbered in a fixed order,
// so `shard K/N` (the plans whose number is K-1 modulo N) splits a search into N
// disjoint parts whose union is the whole.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {

struct SearchRequest {
  std::string model;
  std::vector<ParamOverride> overrides;
  int64_t devices = 0;
  int64_t global_batch = 0;
  size_t top = 10;
  int64_t shard = 1;   // 1-based
  int64_t shards = 1;
  // Routing imbalance of every plan with ep > 1 (ParallelPlan::expert_imbalance); a plan
  // whose ep cannot reach it is rejected as plan_check says. Above 1 only for a mixture of
  // experts, and never below 1 (search_plans throws InputError).
  double expert_imbalance = 1.0;
};

struct SearchResult {
  std::vector<TrainingEstimate> best;  // fitting plans, fastest first (at most `top`)
  int64_t considered = 0;              // plans of this shard
  int64_t fitting = 0;
  int64_t too_large = 0;               // divide the model but do not fit in memory
  std::map<std::string, int64_t> rejected;  // why the others do not divide: reason -> plans
};

SearchResult search_plans(const SearchRequest& request, const SystemSpec& system, const HardwareModel& hw_model);

}  // namespace ridge
