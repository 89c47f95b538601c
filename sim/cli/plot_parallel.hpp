// What `ridge plot layers` and `ridge plot roofline` draw with --parallel: one device's
// share of the model timed on the system's device, for one microbatch, and the plan's
// collectives per microbatch with the links they cross.
//   - A transformer (a [params] model): one tensor-parallel rank of a pipeline stage,
//     the model loaded with [params] tp = T and layers = L / P (so its embeddings and
//     lm_head, which pp > 1 puts on the first and last stage, are both in it), run as
//     one training microbatch in bf16 mixed precision with Adam, as the plan's estimate
//     times it (sharded_layers.hpp); the collectives of `analyze --parallel`
//     (training_estimate.hpp), each at count x time / microbatches (the roofline's
//     points); and the whole iteration part by part (iteration_parts.hpp: the layers plot).
//   - Any other model: one data-parallel replica's training step at global batch / dp
//     (data_parallel.hpp), and its gradient all-reduce.
#pragma once

#include <string>
#include <vector>

#include "plots/roofline_plot.hpp"
#include "sim/parallel/iteration_parts.hpp"
#include "sim/cli/parallel_options.hpp"

namespace ridge::cli {

struct ParallelPlot {
  Model model;                       // one device's share
  RunSettings settings;              // one microbatch
  plots::TimedHardware run;          // on the system's device
  std::string plan;                  // "tp8 pp1 dp1 mb1", "dp8"
  std::vector<plots::CollectiveWork> collectives;
  std::vector<plots::LinkRoof> link_roofs;  // each level a collective crosses, scale-up first
  // A transformer's plan: its iteration part by part (iteration_parts.hpp), which the
  // layers plot draws, adding up to `analyze --parallel`'s iteration time.
  std::vector<IterationPart> iteration;
  int64_t microbatches = 0;
};

// `given`: the options the command was given, for the checks `analyze --parallel` makes.
ParallelPlot parallel_plot(const std::string& model, const ParallelOptionValues& v, const HardwareOptionValues& hw,
                           const RunOptionValues& run, const po::variables_map& given);

}  // namespace ridge::cli
