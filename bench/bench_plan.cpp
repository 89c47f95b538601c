// Speed of `ridge plan`: the exhaustive search of GPT-3 175B (models/gpt3.toml) on
// 4,096 H100s of dgx-h100 at global batch 2048, sequence 2048 (the target: under
// one second on the 2-core machine). `plans_per_s` counts every plan considered (those
// that do not divide the model are counted too; each that does is estimated in full),
// engine timing of the sharded layers included. Run: build/ridge_bench --benchmark_filter=Plan
#include <benchmark/benchmark.h>

#include "hw/model_registry.hpp"
#include "sim/parallel/plan_search.hpp"
#include "sim/parallel/system_reader.hpp"

namespace ridge {
namespace {

void BM_PlanGpt3On4096(benchmark::State& state) {
  SystemSpec system = load_system("dgx-h100");
  const HardwareModel& model = select_hardware_model(system.device, "");
  SearchRequest r;
  r.model = "gpt3";
  r.devices = 4096;
  r.global_batch = 2048;
  int64_t plans = 0;
  for (auto _ : state) {
    SearchResult result = search_plans(r, system, model);
    plans += result.considered;
    benchmark::DoNotOptimize(result.best.data());
  }
  state.counters["plans_per_s"] = benchmark::Counter(static_cast<double>(plans), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PlanGpt3On4096)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
