// What each fuzz target does with one input, as plain functions, so that the normal
// test suite replays tests/fuzz/regressions/ through exactly the same code
// (tests/test_fuzz_regressions.cpp) that libFuzzer runs (tests/fuzz/fuzz_*.cpp).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "plots/plot_style.hpp"
#include "plots/sweep_plot.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "sim/base/units.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/engine/sweep_run.hpp"
#include "sim/workload/onnx_reader.hpp"
#include "tests/fuzz/fuzz_engine.hpp"

namespace ridge_fuzz {

// Model files (sim/workload/model_reader); an accepted model runs on the reference chip.
inline void model_input(const std::string& text) {
  guarded([&] {
    ridge::Model model = ridge::read_model_string(text, "fuzz.toml");
    if (model.layers.size() <= 2000) exercise(model, reference_chip());
  });
}

// Hardware descriptors (hw/descriptor_reader); an accepted one times the reference model.
inline void descriptor_input(const std::string& text) {
  guarded([&] {
    ridge::HardwareSpec hw = ridge::HardwareDescriptor::from_text(text, "fuzz.toml", "fuzz").spec({});
    ridge::select_hardware_model(hw, "");
    exercise(reference_model(), hw);
  });
}

// `--set KEY=VALUE` and the unit parser: the whole input as a quantity of every kind, and
// each line (up to 8) as an override of a small descriptor, timed with the reference model.
inline void set_input(const std::string& text) {
  for (ridge::Quantity kind : {ridge::Quantity::bandwidth, ridge::Quantity::flops, ridge::Quantity::ops, ridge::Quantity::size,
                               ridge::Quantity::transfer_rate, ridge::Quantity::frequency, ridge::Quantity::time}) {
    ridge::QuantityResult r = ridge::parse_quantity(text, kind, true);
    if (r.value && (!std::isfinite(*r.value) || *r.value < 0)) finding("parse_quantity gave " + std::to_string(*r.value));
  }
  guarded([&] {
    static const ridge::HardwareDescriptor chip = ridge::HardwareDescriptor::from_text(
        "name = \"chip\"\nkind = \"gpu\"\nsource = \"fuzz\"\n[compute]\nfp32 = \"120 TFLOPS\"\n"
        "[[memory]]\nname = \"HBM2\"\ncapacity = \"16 GiB\"\nbandwidth = \"900 GB/s\"\n",
        "chip.toml", "chip");
    std::vector<ridge::HardwareOverride> overrides;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line) && overrides.size() < 8;) overrides.push_back(ridge::parse_override(line));
    ridge::HardwareSpec hw = chip.spec(overrides);
    ridge::select_hardware_model(hw, "");
    exercise(reference_model(), hw);
  });
}

// Sweep files (sim/engine/sweep_file); an accepted file of at most 64 points (and 4
// model x hardware pairs) is planned and run on one thread.
inline void sweep_input(const std::string& text) {
  guarded([&] {
    ridge::SweepFile file = ridge::parse_sweep(text, "fuzz.toml");
    if (file.point_count() > 64 || file.models.size() * file.hardware.size() > 4) return;
    ridge::SweepPlan plan = ridge::plan_sweep(std::move(file));
    ridge::SweepResult result = ridge::run_sweep(plan, {1, false, nullptr, nullptr});
    for (const ridge::SweepPointResult& p : result.points)
      if (p.ok()) check_time(p.sums.time_s, "a sweep point's step time");
  });
}

// The sweep CSV reader of `ridge plot sweep` (plots/sweep_plot); an accepted table is
// drawn into its gnuplot script and data (gnuplot itself is not run).
inline void sweep_csv_input(const std::string& text) {
  guarded([&] {
    ridge::plots::SweepTable table = ridge::plots::parse_sweep_csv(text, "fuzz.csv");
    ridge::plots::sweep_plot(table, ridge::plots::PlotStyle{}, "fuzz");
  });
}

// ONNX protobufs (sim/workload/onnx_reader), unknown nodes allowed as zero-cost layers
// so that the rest of the graph is still read; an accepted graph runs on the reference chip.
inline void onnx_input(const std::string& bytes) {
  guarded([&] {
    ridge::OnnxOptions options;
    options.allow_unknown = true;
    ridge::Model model =
        ridge::read_model_table(ridge::onnx_model_table_from_bytes(bytes, "fuzz.onnx", options), "fuzz.onnx");
    if (model.layers.size() <= 2000) exercise(model, reference_chip());
  });
}

// Measured layer times, `ridge calibrate`'s CSV (sim/engine/measured_layers); an accepted
// table of at most 64 rows is fitted on the reference chip, and every fitted parameter
// must stay in its documented range.
inline void measured_input(const std::string& text) {
  guarded([&] {
    std::vector<ridge::MeasuredLayer> rows = ridge::parse_measured_layers(text, "fuzz.csv");
    if (rows.size() > 64) return;
    const ridge::HardwareSpec& hw = reference_chip();
    ridge::CalibrationResult fit = ridge::fit_calibration(rows, hw, ridge::select_hardware_model(hw, ""), {});
    for (const auto& [key, e] : fit.calibration.classes)
      if (!(e.compute > 0 && e.compute <= 1 && e.memory > 0 && e.memory <= 1 && e.n_half_flops >= 0))
        finding("a fitted efficiency out of range");
    for (const ridge::RowPrediction& p : fit.rows) {
      check_time(p.pure_s, "a pure prediction");
      check_time(p.fitted_s, "a fitted prediction");
      check_time(p.held_out_s, "a held-out prediction");
    }
  });
}

}  // namespace ridge_fuzz
