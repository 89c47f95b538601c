// Speed of `ridge generate`'s decode sum: Llama-3-8B, prompt 512, 4096 generated tokens,
// batch 8, fp16 on an A100, both hardware models (the models are read once, outside the
// timed loop). Run: build/ridge_bench --benchmark_filter=Generate
#include <benchmark/benchmark.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/generation.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

void BM_GenerateLlama3_4096(benchmark::State& state) {
  static const Model prefill = load_model("llama-3-8b", 512);
  static const Model decode = load_model("llama-3-8b", 1);
  static const HardwareSpec hw = load_hardware("a100");
  const HardwareModel& hm = *hardware_models()[static_cast<size_t>(state.range(0))];
  RunSettings s;
  s.dtype = DType::fp16;
  s.batch = 8;
  for (auto _ : state) benchmark::DoNotOptimize(simulate_generation(prefill, decode, s, {512, 4096}, hw, hm).total_s);
  state.SetLabel(std::string(hm.name()));
}
BENCHMARK(BM_GenerateLlama3_4096)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
