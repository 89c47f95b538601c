// Speed of `ridge compare`: resnet50 training, batch 64, fp32, timed on 8 devices with
// energy, cost, memory fit and largest batch (models and descriptors are read once,
// outside the timed loop). The target is under 50 ms. Run:
// build/ridge_bench --benchmark_filter=Compare
#include <benchmark/benchmark.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/device_comparison.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

void BM_CompareResnet50On8Devices(benchmark::State& state) {
  static const Model model = load_model("resnet50");
  static const std::vector<HardwareSpec> specs = [] {
    std::vector<HardwareSpec> s;
    for (const char* name : {"gtx1080ti", "titan-x-pascal", "k80", "p100", "v100", "rtx3090", "a100", "h100"})
      s.push_back(load_hardware(name));
    return s;
  }();
  RunSettings settings;
  settings.batch = 64;
  settings.phase = Phase::training;
  std::vector<DeviceUnderTest> devices;
  for (const HardwareSpec& s : specs) devices.push_back({&s, &find_hardware_model(s.default_model)});
  for (auto _ : state) {
    CostAnalysis costs = analyze_costs(model, settings);
    benchmark::DoNotOptimize(compare_devices(model, costs, devices, CostBasis{}).devices.size());
  }
}
BENCHMARK(BM_CompareResnet50On8Devices)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
