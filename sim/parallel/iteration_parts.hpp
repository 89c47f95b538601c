// One device's training iteration under a transformer's parallel plan, part by part, as
// the training estimate (training_estimate.hpp) times it: what `ridge plot layers
// --parallel` draws. The parts add up to the estimate's iteration time:
//   - every layer of the pipeline stage that sets the pace (the whole model when pp = 1;
//     else the slower end stage: the first, with the embeddings, or the last, with the
//     final norm and lm_head), named as in the whole model (the stage's block K is
//     layers.K), over the iteration's m microbatches: forward + backward + the forward
//     recomputation re-runs (full: the layer's; selective: its attention), each pass
//     adjusted as the estimate adjusts the stage: a context-parallel rank's attention is
//     cp times that of its s/cp tokens alone; sequence parallelism divides the norms,
//     dropouts and residual adds by tp; a routing imbalance F multiplies the mixture-of-
//     experts op by F. Its parts: compute, exposed memory, launch.
//   - each tensor-, context- and expert-parallel collective and the pipeline's sends
//     (count x time per iteration: they are on the critical path), link time;
//   - the pipeline bubble, (p-1)/V microbatch slots of the stage's work, idle;
//   - the data-parallel gradient reduction the backward pass does not hide (exposed);
//   - the optimizer step (optimizer_step.hpp).
#pragma once

#include <string>
#include <vector>

#include "sim/engine/result.hpp"
#include "sim/parallel/training_estimate.hpp"

namespace ridge {

struct IterationPart {
  std::string name;  // "layers.0.attn", "tp all_reduce forward", "pipeline bubble", "optimizer step"
  std::string op;    // the layer's op; for the rest "collective", "bubble", "optimizer"
  double compute_s = 0;
  double exposed_memory_s = 0;  // memory time compute does not hide
  double link_s = 0;            // collectives
  double launch_s = 0;
  double idle_s = 0;            // the pipeline bubble
  Bound bound;                  // a collective's label is "link:" + its level
  double time_s() const { return compute_s + exposed_memory_s + link_s + launch_s + idle_s; }
};

// `layers`: the rank's sharded layers the estimate was made from (time_sharded_layers at
// the plan's tp, cp and microbatch), whose per-layer timings the parts reuse; `system`:
// the estimate's system.
std::vector<IterationPart> iteration_parts(const TrainingEstimate& e, const ShardedLayers& layers, const SystemSpec& system);

}  // namespace ridge
