// Speed of `analyze --format json`: every zoo model at batch 64 on a v100 (roofline),
// all columns, built into a JSON tree and written out. The models are read and
// analysed once, outside the timed loop, so this times the view alone.
// Run: build/ridge_bench --benchmark_filter=Json
#include <benchmark/benchmark.h>

#include <sstream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/result.hpp"
#include "sim/views/analyze_report.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

const std::vector<RunResult>& zoo_runs() {
  static const std::vector<RunResult> runs = [] {
    std::vector<RunResult> out;
    RunSettings s;
    s.batch = 64;
    HardwareSpec hw = load_hardware("v100");
    const HardwareModel& hm = select_hardware_model(hw, "roofline");
    for (const std::string& name : zoo_names()) {
      Model m = load_model(name);
      out.push_back(derive(m, analyze_costs(m, s), hw, hm));
    }
    return out;
  }();
  return runs;
}

void BM_AnalyzeJsonZoo(benchmark::State& state) {
  const std::vector<RunResult>& runs = zoo_runs();
  ColumnChoice all{ColumnChoice::Kind::all, {}};
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const RunResult& r : runs) {
      std::ostringstream os;
      write_analyze(r, OutputFormat::json, all, os);
      bytes += os.str().size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
}
BENCHMARK(BM_AnalyzeJsonZoo)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
