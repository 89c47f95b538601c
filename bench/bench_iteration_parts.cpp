// Speed of one parallel plan's iteration part by part, what `ridge plot layers --parallel`
// computes: the sharded layers timed by the engine (at the plan's tp and at tp 1 for the
// model FLOPs), the training estimate, and its iteration parts (every layer of the stage
// that sets the pace, the collectives, the bubble, the optimizer step). GPT-3 175B
// (models/gpt3.toml) at tp 8, pp 8, dp 2 on dgx-a100, global batch 64, and Llama-2-7B at
// tp 2 (a smaller model, where the engine's share is larger).
// Run: build/ridge_bench --benchmark_filter=IterationParts
#include <benchmark/benchmark.h>

#include "hw/model_registry.hpp"
#include "sim/parallel/iteration_parts.hpp"
#include "sim/parallel/system_reader.hpp"

namespace ridge {
namespace {

void iteration_parts_of(benchmark::State& state, const char* model, ParallelPlan plan) {
  SystemSpec system = load_system("dgx-a100");
  const HardwareModel& hw_model = select_hardware_model(system.device, "");
  TransformerParams shape = transformer_params(model, {});
  size_t parts = 0;
  for (auto _ : state) {
    ShardedLayers layers = time_sharded_layers(model, {}, shape, plan.tp, plan.cp, plan.microbatch, system.device, hw_model);
    ShardedLayers unsharded = time_sharded_layers(model, {}, shape, 1, 1, plan.microbatch, system.device, hw_model);
    TrainingEstimate e = estimate_training(model, system, plan, shape, layers, unsharded);
    std::vector<IterationPart> p = iteration_parts(e, layers, system);
    parts = p.size();
    benchmark::DoNotOptimize(p.data());
  }
  state.counters["parts"] = static_cast<double>(parts);
}

void BM_IterationPartsGpt3(benchmark::State& state) {
  ParallelPlan plan;
  plan.tp = 8;
  plan.pp = 8;
  plan.dp = 2;
  plan.global_batch = 64;
  iteration_parts_of(state, "gpt3", plan);
}
BENCHMARK(BM_IterationPartsGpt3)->Unit(benchmark::kMillisecond);

void BM_IterationPartsLlama2_7b(benchmark::State& state) {
  ParallelPlan plan;
  plan.tp = 2;
  plan.dp = 4;
  plan.global_batch = 32;
  iteration_parts_of(state, "llama-2-7b", plan);
}
BENCHMARK(BM_IterationPartsLlama2_7b)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
