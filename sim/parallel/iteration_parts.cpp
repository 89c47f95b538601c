// One device's iteration, part by part (see iteration_parts.hpp for the rules).
#include "sim/parallel/iteration_parts.hpp"

#include <algorithm>

#include "sim/parallel/optimizer_step.hpp"
#include "sim/parallel/rank_layers.hpp"

namespace ridge {

namespace {

// `t` x `scale` added to a part's times (`memory_s`: its memory time, hidden or not).
void add_pass(IterationPart& p, double& memory_s, const LayerTiming& t, double scale) {
  p.compute_s += scale * t.compute_s;
  p.exposed_memory_s += scale * (t.overlapped ? std::max(0.0, t.memory_s - t.compute_s) : t.memory_s);
  p.link_s += scale * t.link_s;
  p.launch_s += scale * t.overhead_s;
  memory_s += scale * t.memory_s;
}

Bound bound_of_part(const IterationPart& p, double memory_s, const HardwareSpec& hw, int level) {
  if (p.time_s() <= 0) return Bound{};
  if (p.launch_s > p.compute_s + p.exposed_memory_s) return {Bound::Kind::overhead, -1, "overhead"};
  return memory_s > p.compute_s ? memory_bound_at(hw, level) : compute_bound();
}

}  // namespace

std::vector<IterationPart> iteration_parts(const TrainingEstimate& e, const ShardedLayers& timed, const SystemSpec& system) {
  const ParallelPlan& plan = e.plan;
  const HardwareSpec& hw = system.device;
  auto in_block = [](const TimedLayer& l) { return l.name.rfind("layers.", 0) == 0; };  // the block, instantiated once
  // The end stages' layers, forward + backward, as time_sharded_layers summed them.
  const double first_s = timed.first.forward_s + timed.first.backward_s, last_s = timed.last.forward_s + timed.last.backward_s;
  // The stage that sets the pace, as the estimate picks it, and its first layer's index.
  const bool whole = plan.pp == 1, first_stage = first_s >= last_s;
  const int64_t per_stage = e.layers_per_stage;
  const int64_t first_block = whole || first_stage ? 0 : e.shape.layers - per_stage;

  const double mbs = static_cast<double>(e.microbatches), c = static_cast<double>(plan.cp);
  const bool sp = plan.sequence_parallel && plan.tp > 1;
  const double cut = sp ? 1 - 1 / static_cast<double>(plan.tp) : 0;
  std::vector<IterationPart> parts;
  bool seen_block = false;
  for (const TimedLayer& l : timed.layers) {
    const bool block = in_block(l);
    seen_block = seen_block || block;
    if (!block && !whole && (seen_block == first_stage)) continue;  // the other end stage's
    const std::string& op = l.op;
    const bool attention = op == "attention";
    // The estimate's adjustments of a block layer (training_estimate.cpp); the end
    // stages' layers run as timed.
    double scale = !block                  ? 1
                   : attention              ? c
                   : replicated_by_tp(op)   ? 1 - cut
                   : op == "moe"            ? plan.expert_imbalance  // the busiest expert rank's (--expert-imbalance)
                                            : 1;
    double recompute = !block ? 0
                       : plan.recompute == Recompute::full ? scale
                       : plan.recompute == Recompute::selective && attention ? c
                                                                               : 0;
    const int level = std::max(0, l.forward.bound_level >= 0 ? l.forward.bound_level : l.backward.bound_level);
    for (int64_t k = 0; k < (block ? per_stage : 1); ++k) {
      IterationPart p;
      // The block instantiated once is named layers.NAME; the stage's K-th, layers.K.NAME.
      p.name = block ? "layers." + std::to_string(first_block + k) + "." + l.name.substr(7) : l.name;
      p.op = op;
      double memory_s = 0;
      add_pass(p, memory_s, l.forward, mbs * (scale + recompute));
      add_pass(p, memory_s, l.backward, mbs * scale);
      p.bound = bound_of_part(p, memory_s, hw, level);
      parts.push_back(p);
    }
  }

  // The collectives on the critical path; the data-parallel ones count as what is exposed.
  std::string dp_link;
  for (const CollectiveRow& r : e.collectives) {
    if (r.group == "dp" || r.group == "edp") {
      if (dp_link.empty()) dp_link = r.cost.link;
      continue;
    }
    IterationPart p;
    p.name = r.group + " " + std::string(collective_op_name(r.cost.op)) + " " + r.when + " (" + r.cost.link + ")";
    p.op = "collective";
    p.link_s = r.total_s();
    p.bound = {Bound::Kind::link, -1, "link:" + r.cost.link};
    parts.push_back(p);
  }
  if (e.dp_exposed_s > 0) {
    IterationPart p;
    p.name = "dp gradient reduction, exposed (" + dp_link + ")";
    p.op = "collective";
    p.link_s = e.dp_exposed_s;
    p.bound = {Bound::Kind::link, -1, "link:" + dp_link};
    parts.push_back(p);
  }
  if (e.bubble_s > 0) {
    IterationPart p;
    p.name = "pipeline bubble";
    p.op = "bubble";
    p.idle_s = e.bubble_s;
    p.bound = {Bound::Kind::none, -1, "idle"};
    parts.push_back(p);
  }
  if (e.optimizer_s > 0) {
    const OptimizerStepTime one = optimizer_step_time(1, hw);  // per parameter
    const double updated = e.optimizer_s / one.time_s();
    IterationPart p;
    p.name = "optimizer step";
    p.op = "optimizer";
    p.compute_s = updated * one.compute_s;
    p.exposed_memory_s = std::max(0.0, updated * one.memory_s - p.compute_s);
    p.bound = one.memory_s > one.compute_s ? memory_bound_at(hw, 0) : compute_bound();
    parts.push_back(p);
  }
  return parts;
}

}  // namespace ridge
