// A parallel sweep (a sweep file with `system`, docs/guide/sweep-hardware.md): every
// point of models x systems x gpus x [parallel] values, each a training plan run as
// `ridge analyze MODEL --system S --parallel ...` runs it (check_plan, the sharded
// layers, estimate_training). The sweep file layer (sim/engine/sweep_file) keeps the plan
// keys as written; they are parsed here, a bad value an InputError where it was written.
// A plan that does not divide the model or the device count is a row whose status says
// why, as a single-device sweep does for a point that cannot run.
// A model without the [params] a plan shards by (a CNN: is_transformer is false) runs
// data parallel only, as `ridge analyze MODEL --system S --parallel dp=D --global-batch B`
// runs it (data_parallel.hpp: fp32, Adam); a point of it with any other plan key away
// from its default (tp, pp, microbatch, zero, recompute, interleave, sequence
// parallelism, expert imbalance) is a row whose status says that only dp applies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/sweep_file.hpp"
#include "sim/parallel/data_parallel.hpp"
#include "sim/parallel/training_estimate.hpp"

namespace ridge {

struct ParallelSweepPoint {
  std::string model;
  std::string system;
  int64_t gpus = 0;  // 0: the file gives no gpus
  ParallelPlan plan;
  std::string status;  // "ok", or "invalid plan: WHY" (no estimate)
  std::optional<TrainingEstimate> estimate;           // a transformer's plan
  std::optional<DataParallelEstimate> data_parallel;  // a model that runs data parallel only
  bool ok() const { return estimate || data_parallel; }
  double iteration_time_s() const { return estimate ? estimate->iteration_time_s : data_parallel->iteration_time_s; }
  bool fits() const { return estimate ? estimate->fits : data_parallel && data_parallel->fits; }
};

struct ParallelSweep {
  std::string path;
  std::vector<ParallelSweepPoint> points;  // models, systems, gpus, then the plan keys; the last fastest
};

// `file` must be a parallel sweep (file.parallel_sweep()).
ParallelSweep run_parallel_sweep(const SweepFile& file);

}  // namespace ridge
