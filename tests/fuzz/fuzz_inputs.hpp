// What each fuzz target does with one input, as plain functions, so that the normal
// test suite replays tests/fuzz/regressions/ through exactly the same code
// (tests/test_fuzz_regressions.cpp) that libFuzzer runs (tests/fuzz/fuzz_*.cpp).
//
// The reader runs on every input. The engine stage after it runs on every accepted input
// within the caps below, so that one execution stays well under a millisecond and a
// campaign reaches millions of them: the arithmetic per layer, point or row is the same in
// a large input as in a small one, and the readers' own limits (100,000 layers, 300,000
// sweep points, 16 MiB files) are tested by tests/test_limits.cpp, not here.
#pragma once

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hw/calibration.hpp"
#include "plots/plot_style.hpp"
#include "plots/sweep_plot.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "sim/base/units.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/engine/sweep_run.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"
#include "tests/fuzz/fuzz_engine.hpp"

namespace ridge_fuzz {

inline constexpr size_t kEngineMaxLayers = 256;      // model, onnx: layers of a model the engine runs
inline constexpr size_t kSweepMaxPoints = 64;        // sweep: points planned and run
inline constexpr size_t kSweepMaxPairs = 4;          // sweep: model x hardware pairs loaded
inline constexpr size_t kPlotMaxRows = 64;           // sweep_csv: rows drawn into a plot
inline constexpr size_t kMeasuredMaxRows = 64;       // measured: rows predicted
inline constexpr size_t kFitMaxRows = 12;            // measured: rows fitted (100 LM steps x 12 starts per class)
inline constexpr size_t kFitMaxGroups = 3;           // measured: cross-validation groups (one refit each)

// Model files (sim/workload/model_reader); an accepted model runs on the reference chip.
inline void model_input(const std::string& text) {
  guarded([&] {
    ridge::Model model = ridge::read_model_string(text, "fuzz.toml");
    if (model.layers.size() <= kEngineMaxLayers) exercise(model, reference_chip());
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

// Sweep files (sim/engine/sweep_file); an accepted file of at most kSweepMaxPoints points
// (and kSweepMaxPairs model x hardware pairs) is planned and run on one thread.
inline void sweep_input(const std::string& text) {
  guarded([&] {
    ridge::SweepFile file = ridge::parse_sweep(text, "fuzz.toml");
    if (file.point_count() > kSweepMaxPoints || file.models.size() * file.hardware.size() > kSweepMaxPairs) return;
    ridge::SweepPlan plan = ridge::plan_sweep(std::move(file));
    ridge::SweepResult result = ridge::run_sweep(plan, {1, false, nullptr, nullptr});
    for (const ridge::SweepPointResult& p : result.points)
      if (p.ok()) check_time(p.sums.time_s, "a sweep point's step time");
  });
}

// The sweep CSV reader of `ridge plot sweep` (plots/sweep_plot); an accepted table of at
// most kPlotMaxRows rows is drawn into its gnuplot script and data (gnuplot is not run).
inline void sweep_csv_input(const std::string& text) {
  guarded([&] {
    ridge::plots::SweepTable table = ridge::plots::parse_sweep_csv(text, "fuzz.csv");
    if (table.rows.size() > kPlotMaxRows) return;
    ridge::plots::sweep_plot(table, ridge::plots::PlotStyle{}, "fuzz");
  });
}

// ONNX protobufs (sim/workload/onnx/), unknown nodes allowed as zero-cost layers
// so that the rest of the graph is still read; an accepted graph runs on the reference chip.
inline void onnx_input(const std::string& bytes) {
  guarded([&] {
    ridge::OnnxOptions options;
    options.allow_unknown = true;
    ridge::Model model =
        ridge::read_model_table(ridge::onnx_model_table_from_bytes(bytes, "fuzz.onnx", options), "fuzz.onnx");
    if (model.layers.size() <= kEngineMaxLayers) exercise(model, reference_chip());
  });
}

// Every row the reference chip can run, timed by every hardware model on `hw`.
inline void time_measured_rows(const std::vector<ridge::MeasuredLayer>& rows, const ridge::HardwareSpec& hw) {
  for (const ridge::MeasuredLayer& r : rows) {
    if (!hw.peak(r.dtype)) continue;
    for (const ridge::HardwareModel* m : ridge::hardware_models())
      check_time(m->time_layer(r.work, hw, r.dtype).time_s, "a measured row's predicted time");
  }
}

// Measured layer times, `ridge calibrate`'s CSV (sim/engine/measured_layers). Every row of
// an accepted table of at most kMeasuredMaxRows rows is predicted on the reference chip.
// A table of at most kFitMaxRows rows in at most kFitMaxGroups models (the held-out
// groups) is then fitted: every fitted parameter must stay in its documented range, the
// [calibration] section ridge calibrate would write must read back as a descriptor (as the
// CLI checks before writing), and the rows are predicted again on the calibrated chip.
inline void measured_input(const std::string& text) {
  guarded([&] {
    std::vector<ridge::MeasuredLayer> rows = ridge::parse_measured_layers(text, "fuzz.csv");
    if (rows.size() > kMeasuredMaxRows) return;
    const ridge::HardwareSpec& hw = reference_chip();
    time_measured_rows(rows, hw);
    std::set<std::string> groups;
    for (const ridge::MeasuredLayer& r : rows) groups.insert(r.model);
    if (rows.size() > kFitMaxRows || groups.size() > kFitMaxGroups) return;
    ridge::CalibrationOptions options;
    options.data = "fuzz.csv";
    options.date = "2026-01-01";
    ridge::CalibrationResult fit = ridge::fit_calibration(rows, hw, ridge::select_hardware_model(hw, ""), options);
    auto fraction = [](double v) { return v > 0 && v <= 1; };
    for (const auto& [key, e] : fit.calibration.classes) {
      if (!(fraction(e.compute) && fraction(e.memory) && e.n_half_flops >= 0)) finding("a fitted efficiency out of range");
      for (const auto& [level, m] : e.memory_by_level)
        if (!fraction(m)) finding("a fitted memory efficiency of " + level + " out of range");
    }
    for (const ridge::RowPrediction& p : fit.rows) {
      check_time(p.pure_s, "a pure prediction");
      check_time(p.fitted_s, "a fitted prediction");
      check_time(p.held_out_s, "a held-out prediction");
    }
    ridge::HardwareSpec calibrated;
    try {
      calibrated = ridge::HardwareDescriptor::from_text(std::string(kReferenceChipToml) + ridge::calibration_toml(fit.calibration),
                                                        "calibrated.toml", "calibrated")
                       .spec({});
    } catch (const ridge::InputError& e) {
      finding(std::string("the fitted [calibration] does not read back: ") + e.what());
    }
    time_measured_rows(rows, calibrated);
  });
}

}  // namespace ridge_fuzz
