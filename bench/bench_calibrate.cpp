// Speed of `ridge calibrate`'s fit: 1,000 measured layers (the DeepBench V100 rows,
// repeated with their times jittered) fitted on the shipped v100 descriptor, with
// leave-one-out cross-validation over 10 groups. Run: build/ridge_bench --benchmark_filter=Calibrate
#include <benchmark/benchmark.h>

#include <cmath>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"

namespace ridge {
namespace {

void BM_Calibrate1000Rows(benchmark::State& state) {
  std::vector<MeasuredLayer> data = read_measured_layers(RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100.csv");
  std::vector<MeasuredLayer> rows;
  for (size_t i = 0; rows.size() < 1000; ++i) {
    MeasuredLayer m = data[i % data.size()];
    m.seconds *= std::exp(0.05 * std::sin(static_cast<double>(i)));  // a deterministic +-5 % jitter
    m.extra["group"] = std::to_string(i % 10);
    rows.push_back(m);
  }
  HardwareSpec hw = load_hardware("v100");
  CalibrationOptions options;
  options.cv_column = "group";
  for (auto _ : state) benchmark::DoNotOptimize(fit_calibration(rows, hw, find_hardware_model("roofline"), options));
  state.counters["rows"] = static_cast<double>(rows.size());
}
BENCHMARK(BM_Calibrate1000Rows)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
