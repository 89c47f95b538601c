// Speed of analysing an ONNX export, as `ridge analyze FILE.onnx` does before it prints:
// the file parsed, the graph translated into ridge layers, every layer's costs counted.
// Issue #28's targets: torchvision's resnet50 eval-mode export (opset 17, BatchNorm folded;
// tests/data/onnx/resnet50-eval17-shapes.onnx, scripts/onnx-zoo's eval17 with its weights
// emptied) in under 100 ms; the training-mode export of the same model beside it. Larger
// exports that are not committed (vit_h_14, regnet_y_128gf: docs/guide/import-onnx.md)
// are timed too when RIDGE_BENCH_ONNX names them, comma-separated.
// Run: build/ridge_bench --benchmark_filter=OnnxAnalyze
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge {
namespace {

void analyze_file(benchmark::State& state, const std::string& path) {
  for (auto _ : state) {
    Model m = load_model(path);
    benchmark::DoNotOptimize(analyze_costs(m, RunSettings{}).totals.macs);
  }
}

const std::string kDir = std::string(RIDGE_SOURCE_DIR) + "/tests/data/onnx/";
BENCHMARK_CAPTURE(analyze_file, OnnxAnalyzeResnet50Eval17, kDir + "resnet50-eval17-shapes.onnx")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyze_file, OnnxAnalyzeResnet50Train17, kDir + "resnet50-shapes.onnx")->Unit(benchmark::kMillisecond);

// The files RIDGE_BENCH_ONNX names, one benchmark each, named after the file.
const bool kExtraFiles = [] {
  const char* list = std::getenv("RIDGE_BENCH_ONNX");
  std::stringstream ss(list ? list : "");
  for (std::string path; std::getline(ss, path, ',');)
    if (!path.empty())
      benchmark::RegisterBenchmark(("OnnxAnalyze/" + std::filesystem::path(path).stem().string()).c_str(),
                                   [path](benchmark::State& s) { analyze_file(s, path); })
          ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace ridge
