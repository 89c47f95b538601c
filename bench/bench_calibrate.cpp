// Speed of `ridge calibrate`'s fit: 1,000 measured layers (the DeepBench V100 rows on
// the shipped v100 descriptor, or the development CPU's layers on its descriptor,
// repeated with their times jittered), with leave-one-out cross-validation over 10 groups. Run: build/ridge_bench --benchmark_filter=Calibrate
#include <benchmark/benchmark.h>

#include <cmath>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"

namespace ridge {
namespace {

// 1,000 rows cycled from `csv` (with a deterministic +-5 % jitter), in 10
// cross-validation groups, fitted against `hw`.
void calibrate_1000_rows(benchmark::State& state, const std::string& csv, const HardwareSpec& hw) {
  std::vector<MeasuredLayer> data = read_measured_layers(csv);
  std::vector<MeasuredLayer> rows;
  for (size_t i = 0; rows.size() < 1000; ++i) {
    MeasuredLayer m = data[i % data.size()];
    m.seconds *= std::exp(0.05 * std::sin(static_cast<double>(i)));
    m.extra["group"] = std::to_string(i % 10);
    rows.push_back(m);
  }
  CalibrationOptions options;
  options.cv_column = "group";
  for (auto _ : state) benchmark::DoNotOptimize(fit_calibration(rows, hw, find_hardware_model("roofline"), options));
  state.counters["rows"] = static_cast<double>(rows.size());
}

// DeepBench's V100 GEMMs and convolutions.
void BM_Calibrate1000Rows(benchmark::State& state) {
  calibrate_1000_rows(state, RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100.csv", load_hardware("v100"));
}
BENCHMARK(BM_Calibrate1000Rows)->Unit(benchmark::kMillisecond);

// The development CPU's torchvision layers: 8 op classes, GEMM shapes on the convolutions.
void BM_Calibrate1000HostRows(benchmark::State& state) {
  calibrate_1000_rows(state, RIDGE_SOURCE_DIR "/configs/calibration/data/dev-host-layers.csv",
                      load_hardware(RIDGE_SOURCE_DIR "/configs/calibration/dev-host-1core.toml"));
}
BENCHMARK(BM_Calibrate1000HostRows)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ridge
