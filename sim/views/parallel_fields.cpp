// The parallel training schema (see parallel_fields.hpp).
#include "sim/views/parallel_fields.hpp"

#include <functional>
#include <string>
#include <type_traits>

namespace ridge {

namespace {

using P = const ParallelPlan&;
using R = const ParallelResult&;
using TE = const TrainingEstimate&;
using DE = const DataParallelEstimate&;

struct Neither {};  // the quantity is not one of this kind of estimate's

template <class Get, class Estimate>
FieldValue read_from(const Get& get, const Estimate& e) {
  if constexpr (std::is_same_v<Get, Neither>)
    return NotApplicable{};
  else
    return std::invoke(get, e);
}

// A total read by `t` from a transformer plan's estimate and by `d` from a data-parallel
// one (a member, a function of the estimate, or Neither).
template <class T, class D>
std::function<FieldValue(R)> from(T t, D d) {
  return [t, d](R r) -> FieldValue {
    if (r.training) return read_from(t, *r.training);
    if (r.data_parallel) return read_from(d, *r.data_parallel);
    return NotApplicable{};
  };
}

}  // namespace

std::vector<Field<ParallelPlan>> parallel_plan_fields() {
  return {
      {"tp", "tp", Unit::integer, [](P p) -> FieldValue { return p.tp; }, true},
      {"pp", "pp", Unit::integer, [](P p) -> FieldValue { return p.pp; }, true},
      {"dp", "dp", Unit::integer, [](P p) -> FieldValue { return p.dp; }, true},
      {"cp", "cp", Unit::integer, [](P p) -> FieldValue { return p.cp; }, true},
      {"ep", "ep", Unit::integer, [](P p) -> FieldValue { return p.ep; }, true},
      {"sequence_parallel", "sp", Unit::flag, [](P p) -> FieldValue { return p.sequence_parallel; }, true},
      {"microbatch", "mb", Unit::integer, [](P p) -> FieldValue { return p.microbatch; }, true},
      {"global_batch", "global batch", Unit::integer, [](P p) -> FieldValue { return p.batch(); }, true},
      {"zero", "zero", Unit::integer, [](P p) -> FieldValue { return int64_t{p.zero}; }, true},
      {"recompute", "recompute", Unit::text, [](P p) -> FieldValue { return std::string(recompute_name(p.recompute)); }, true},
      {"interleave", "interleave", Unit::integer, [](P p) -> FieldValue { return p.interleave; }, true},
      {"overlap", "overlap", Unit::flag, [](P p) -> FieldValue { return p.overlap; }, true},
      {"expert_imbalance", "imbalance", Unit::number, [](P p) -> FieldValue { return p.expert_imbalance; }, true},
  };
}

std::vector<Field<ParallelResult>> parallel_totals_fields() {
  const Neither n;
  return {
      // The compact ones: the totals (#24) and the throughput.
      {"iteration_time_s", "iteration", Unit::seconds,
       from(&TrainingEstimate::iteration_time_s, &DataParallelEstimate::iteration_time_s), true},
      {"tokens_per_s", "tokens/s", Unit::count, from(&TrainingEstimate::tokens_per_s, n), true},
      {"samples_per_s", "samples/s", Unit::count, from(&TrainingEstimate::samples_per_s, &DataParallelEstimate::samples_per_s), true},
      {"mfu", "MFU", Unit::fraction, from(&TrainingEstimate::mfu, &DataParallelEstimate::mfu), true},
      // A data-parallel replica recomputes nothing: its hardware FLOPs are its model FLOPs.
      {"hfu", "HFU", Unit::fraction, from(&TrainingEstimate::hfu, &DataParallelEstimate::mfu), true},
      {"bubble_share", "bubble", Unit::fraction, from(&TrainingEstimate::bubble_share, [](DE) { return 0.0; }), true},
      {"communication_time_s", "comm", Unit::seconds,
       from(&TrainingEstimate::communication_time_s, &DataParallelEstimate::exposed_s), true},
      {"memory_per_device_bytes", "memory", Unit::bytes,
       from([](TE e) { return e.memory.total(); }, &DataParallelEstimate::memory_bytes), true},
      {"fits", "fits", Unit::flag, from(&TrainingEstimate::fits, &DataParallelEstimate::fits), true},
      // The parts.
      {"devices", "devices", Unit::integer, from([](TE e) { return e.plan.devices(); }, &DataParallelEstimate::dp)},
      {"params", "parameters", Unit::count, from(n, &DataParallelEstimate::params)},
      {"microbatches", "microbatches", Unit::integer, from(&TrainingEstimate::microbatches, n)},
      {"layers_per_stage", "layers per stage", Unit::integer, from(&TrainingEstimate::layers_per_stage, n)},
      {"stage_forward_s", "stage forward", Unit::seconds, from(&TrainingEstimate::stage_forward_s, n)},
      {"stage_backward_s", "stage backward", Unit::seconds, from(&TrainingEstimate::stage_backward_s, n)},
      {"step_s", "device step", Unit::seconds, from(n, &DataParallelEstimate::step_s)},
      {"backward_s", "backward", Unit::seconds, from(n, &DataParallelEstimate::backward_s)},
      {"pipeline_s", "pipeline", Unit::seconds, from(&TrainingEstimate::pipeline_s, n)},
      {"bubble_s", "bubble time", Unit::seconds, from(&TrainingEstimate::bubble_s, n)},
      {"tp_communication_s", "tp communication", Unit::seconds, from(&TrainingEstimate::tp_comm_s, n)},
      {"cp_communication_s", "cp communication", Unit::seconds, from(&TrainingEstimate::cp_comm_s, n)},
      {"ep_communication_s", "ep communication", Unit::seconds, from(&TrainingEstimate::ep_comm_s, n)},
      {"pp_communication_s", "pp communication", Unit::seconds, from(&TrainingEstimate::pp_comm_s, n)},
      {"dp_communication_s", "dp communication", Unit::seconds,
       from(&TrainingEstimate::dp_comm_s,
            [](DE e) { return e.collectives.empty() ? 0.0 : e.collectives.front().total_s(); })},
      {"dp_exposed_s", "dp exposed", Unit::seconds, from(&TrainingEstimate::dp_exposed_s, &DataParallelEstimate::exposed_s)},
      {"gradient_bytes", "gradients", Unit::bytes, from(n, &DataParallelEstimate::gradient_bytes)},
      {"optimizer_s", "optimizer step", Unit::seconds, from(&TrainingEstimate::optimizer_s, n)},
      {"model_flops", "model FLOPs", Unit::count, from(&TrainingEstimate::model_flops, &DataParallelEstimate::model_flops)},
      {"hardware_flops", "hardware FLOPs", Unit::count, from(&TrainingEstimate::hardware_flops, n)},
      {"capacity_bytes", "usable memory", Unit::bytes,
       from(&TrainingEstimate::capacity_bytes, &DataParallelEstimate::capacity_bytes)},
  };
}

}  // namespace ridge
