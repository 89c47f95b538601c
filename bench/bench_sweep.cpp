// Speed of the sweep engine. `layer_evals_per_s`: layers x hardware points timed per
// second on one thread, the zoo's layer work (built once) against 64 hardware points
// (v100 and a100 at 32 HBM bandwidths each). Run: build/ridge_bench --benchmark_filter=Sweep
#include <benchmark/benchmark.h>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/engine/sweep_run.hpp"

namespace ridge {
namespace {

struct Fixture {
  std::vector<LayerWorkArrays> work;  // every zoo model at batch 64, fp32, inference
  std::vector<HardwareSpec> hw;
  double layers = 0;

  Fixture() {
    RunSettings s;
    s.batch = 64;
    for (const std::string& name : zoo_names()) {
      Model m = load_model(name);
      work.push_back(to_arrays(layer_work(m, analyze_costs(m, s))));
      layers += static_cast<double>(work.back().size());
    }
    for (const char* name : {"v100", "a100"}) {
      HardwareDescriptor d = open_hardware(name);
      std::string dram = d.spec().dram().name;
      for (int i = 1; i <= 32; ++i)
        hw.push_back(d.spec({{"memory." + dram + ".bandwidth", std::to_string(250 * i) + " GB/s", {}}}));
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void time_zoo(benchmark::State& state, const HardwareModel& model, bool one_by_one) {
  const Fixture& f = fixture();
  LayerTimingArrays out;
  for (auto _ : state) {
    for (const LayerWorkArrays& w : f.work)
      for (const HardwareSpec& hw : f.hw) {
        TimingSums s = one_by_one ? time_layers_one_by_one(model, w, hw, DType::fp32, out)
                                  : model.time_layers(w, hw, DType::fp32, out);
        benchmark::DoNotOptimize(s);
      }
  }
  state.counters["layer_evals_per_s"] =
      benchmark::Counter(f.layers * static_cast<double>(f.hw.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void BM_SweepRoofline(benchmark::State& s) { time_zoo(s, find_hardware_model("roofline"), false); }
void BM_SweepHierarchical(benchmark::State& s) { time_zoo(s, find_hardware_model("hierarchical"), false); }
// The reference path (time_layer per layer), for comparison.
void BM_SweepRooflineOneByOne(benchmark::State& s) { time_zoo(s, find_hardware_model("roofline"), true); }
void BM_SweepHierarchicalOneByOne(benchmark::State& s) { time_zoo(s, find_hardware_model("hierarchical"), true); }

// The whole configs/sweeps/full-zoo.toml evaluation on one thread (planning excluded).
void BM_SweepFullZooRun(benchmark::State& state) {
  SweepPlan plan = plan_sweep(read_sweep_file(RIDGE_SOURCE_DIR "/configs/sweeps/full-zoo.toml"));
  for (auto _ : state) benchmark::DoNotOptimize(run_sweep(plan, {1, false, nullptr, nullptr}));
  state.counters["points_per_s"] = benchmark::Counter(static_cast<double>(plan.point_count() * state.iterations()),
                                                      benchmark::Counter::kIsRate);
}

BENCHMARK(BM_SweepRoofline);
BENCHMARK(BM_SweepHierarchical);
BENCHMARK(BM_SweepRooflineOneByOne);
BENCHMARK(BM_SweepHierarchicalOneByOne);
BENCHMARK(BM_SweepFullZooRun)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
