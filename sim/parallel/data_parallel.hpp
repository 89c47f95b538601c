// Data-parallel training of any model (a CNN, an MLP: a model without the [params] a
// tensor- or pipeline-parallel plan shards by): dp replicas each run the single-device
// training step at batch global / dp, then all-reduce their gradients.
//
//   iteration = step(batch global / dp) + exposed,  exposed = max(0, t_all_reduce - backward)
//
// The step is what `ridge analyze MODEL --phase training --batch global/dp` times on the
// system's device (forward, backward and the optimizer update). The gradients (params x
// the run's gradient bytes: 4 in fp32, 2 in fp16 or mixed precision) are all-reduced
// over the dp group as collectives.hpp costs it (a ring moves 2 (n-1)/n of them over
// each device's link); the all-reduce overlaps the backward pass, as bucketed DDP does
// (PyTorch DistributedDataParallel, Horovod: buckets are reduced as their gradients
// are ready), unless --no-overlap; the backward pass is the step's layers' backward
// work timed apart (sharded_layers.hpp). Memory per device is the single-device
// footprint at batch global / dp: data parallelism replicates everything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/parallel/collectives.hpp"
#include "sim/parallel/training_estimate.hpp"
#include "sim/parallel/system_spec.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

struct DataParallelEstimate {
  std::string model;
  std::string system;
  int64_t dp = 1;
  int64_t global_batch = 0;
  RunSettings settings;       // one replica's step: training, batch global / dp
  bool overlap = true;
  int64_t params = 0;
  double step_s = 0;          // one replica's training step
  double backward_s = 0;      // of it, the backward pass (what hides the all-reduce)
  double gradient_bytes = 0;  // params x the run's gradient bytes
  std::vector<CollectiveRow> collectives;  // the gradient all-reduce over dp (none when dp = 1)
  double exposed_s = 0;
  double iteration_time_s = 0;
  double samples_per_s = 0;
  double model_flops = 0;     // per iteration, all replicas (forward + backward)
  double mfu = 0;             // model_flops / (iteration x devices x peak at the run's dtype)
  double memory_bytes = 0;    // per device, the step's peak
  double capacity_bytes = 0;  // usable: DRAM less the runtime reserve
  bool fits = false;
};

// `settings` carries the run's dtype, precision and optimizer; its phase and batch are set
// here. Throws InputError when global_batch is not a positive multiple of dp or dp
// exceeds the system's devices.
DataParallelEstimate estimate_data_parallel(const std::string& model, const std::vector<ParamOverride>& overrides,
                                            const SystemSpec& system, int64_t dp, int64_t global_batch,
                                            RunSettings settings, bool overlap);

}  // namespace ridge
