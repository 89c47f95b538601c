// The parallel-plan options `analyze` and `memory` share (--parallel, --system, ...),
// and running one plan through the training estimate.
#pragma once

#include <cstdint>
#include <string>

#include "sim/cli/run_options.hpp"
#include "sim/parallel/training_estimate.hpp"

namespace ridge::cli {

struct ParallelOptionValues {
  std::string parallel;  // "tp=8,pp=8,dp=1"; empty: a single-device run
  std::string system;
  boost::optional<int64_t> gpus;  // not given: tp x pp x dp x cp
  bool sequence_parallel = false;
  boost::optional<int64_t> global_batch;  // not given: microbatch x dp
  int64_t microbatch = 1;
  int zero = 0;
  std::string recompute = "none";
  int64_t interleave = 1;
  bool no_overlap = false;
  double expert_imbalance = 1.0;
};

po::options_description parallel_option_group(ParallelOptionValues& v);
// Whether the command was asked for a parallel plan (--parallel or --system given).
bool wants_parallel(const ParallelOptionValues& v);
// Without a plan, a plan option given (--recompute, --zero, --microbatch, ...) is an
// InputError: one device's run would ignore it.
void refuse_plan_options(const po::variables_map& given);
// The plan --parallel and its companions describe (not yet checked against a model).
ParallelPlan to_parallel_plan(const ParallelOptionValues& v);
// The system --system names (default dgx-a100), after checking that the hardware options
// given are ones a plan reads (--set model.NAME=V, --efficiency).
SystemSpec plan_system(const ParallelOptionValues& v, const HardwareOptionValues& hw);
// The plan of a model that is not a transformer (data parallelism only): tp, pp or ep above
// 1, or an option only a transformer's plan or a single device reads, is an InputError.
ParallelPlan data_parallel_plan(const std::string& model, const ParallelOptionValues& v, const po::variables_map& given);
// One training iteration of a plan, and the rank's sharded layers it was estimated from
// (their per-layer timings are what iteration_parts draws).
struct ParallelPlanRun {
  TrainingEstimate estimate;
  ShardedLayers layers;
};
// Loads the system and model, checks the plan and estimates one training iteration;
// `--set model.NAME=V` of `hw` overrides the model's [params].
ParallelPlanRun run_parallel_plan(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw);
// A single-device run option given with --parallel (--batch, --dtype, --phase, ...),
// which a parallel plan does not read (it trains in bf16 mixed precision with Adam,
// --microbatch and --global-batch its batch), is an InputError rather than silently ignored.
void reject_single_device_options(const po::variables_map& given);
// run_parallel_plan written as --format (table, csv or json) and --output say; returns 0.
// A model that is not a transformer runs data parallel only (data_parallel.hpp): each
// replica's step takes --dtype, --precision and --optimizer from `run`.
// A single-device run option given with it (--batch, --dtype, --phase, ...), which a
// parallel plan does not read (it trains in bf16 mixed precision with Adam, --microbatch
// and --global-batch its batch), is an InputError (reject_single_device_options).
int write_parallel_plan(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw,
                        const RunOptionValues& run, const OutputOptionValues& out, const po::variables_map& given);

}  // namespace ridge::cli
