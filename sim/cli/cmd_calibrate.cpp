// `ridge calibrate MEASURED.csv --hw HW [--output HW-calibrated.toml]`: fits per-class
// efficiencies to measured layer times, prints the error before / after (held out by
// cross-validation) and writes the descriptor with its [calibration] section; with --check
// it fits nothing and reports how the descriptor as it is predicts the measurements.
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/base/toml_text.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/calibration_check.hpp"
#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/measured_layers.hpp"
#include "sim/engine/measurement_conditions.hpp"
#include "sim/views/calibration_report.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge::cli {

namespace {

std::string today_utc() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// The descriptor's text without a [calibration] section (ridge writes it last).
std::string without_calibration(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("[calibration]", 0) == 0) break;
    lines.push_back(line);
  }
  // The comment an earlier calibration wrote above its section goes with it, and the blank lines.
  while (!lines.empty() && (lines.back().empty() || lines.back().rfind("# Written by ridge calibrate", 0) == 0))
    lines.pop_back();
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

const CommandHelp kHelp = {
    "ridge calibrate MEASURED.csv --hw HW [--output HW-calibrated.toml] [options]",
    "Fits, per op class and dtype in the CSV of measured layer times, a compute efficiency, a half-performance\n"
    "size and a memory efficiency (least squares on log time, Huber-weighted), prints the median |error| of the\n"
    "pure roofline, of the fit and held out (each --cv-by value left out in turn), and with --output writes the\n"
    "descriptor with a [calibration] section. CSV columns: docs/guide/calibrate.md.",
    {"ridge calibrate configs/calibration/data/deepbench-v100.csv --hw v100 --cv-by fold --output v100-cal.toml",
     "ridge calibrate configs/calibration/data/deepbench-v100-backward.csv --hw v100-calibrated --check",
     "ridge calibrate layers.csv --hw host.toml --output host-calibrated.toml --predictions pred.csv"}};

}  // namespace

int run_calibrate(const Args& args) {
  std::string csv, hw_name, hw_model, output, predictions, data, cv_by = "model", time_column = "seconds", overhead;
  bool quiet = false, fit_peaks = false, shared = false, check = false;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("measured", po::value(&csv), "CSV of measured layer times (columns: docs/guide/calibrate.md)")(
      "hw", po::value(&hw_name), "the descriptor to calibrate: shipped name or file")(
      "hw-model", po::value(&hw_model), "hardware model to fit through (default: the descriptor's)")(
      "output,o", po::value(&output), "write the calibrated descriptor here (the report goes to stdout)")(
      "predictions", po::value(&predictions), "write each row's measured, pure, fitted and held-out time as CSV")(
      "data", po::value(&data), "the data set's name recorded in [calibration] (default: the CSV's file name)")(
      "cv-by", po::value(&cv_by)->default_value(cv_by), "CSV column whose values are held out in turn")(
      "time-column", po::value(&time_column)->default_value(time_column),
      "CSV column of measured seconds to fit (e.g. min_seconds, the fastest repetition, on a loaded host)")(
      "fit-peaks", po::bool_switch(&fit_peaks),
      "raise a peak or bandwidth the measured layers beat to the best rate a layer attained (held out per fold)")(
      "shared", po::bool_switch(&shared),
      "fit every class at once: one fixed time per kernel, a bandwidth fraction (per dtype and weight layout) and a "
      "half size per dtype shared across classes, a compute fraction per kernel family and dtype "
      "(docs/guide/calibrate.md)")(
      "check", po::bool_switch(&check),
      "fit nothing: predict every row with the descriptor as it is (its [calibration] applied) and by the datasheet "
      "roofline, and report the errors (data the calibration never saw)")(
      "overhead", po::value(&overhead),
      "with --check: kernel (each row pays its kernels' launch time, the default) | none (no launch time: the "
      "roofline alone, the bound for kernels launched back to back or from a CUDA graph)");
  add_quiet_option(visible, quiet);
  po::positional_options_description pos;
  pos.add("measured", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (csv.empty()) throw InputError({}, "calibrate: which measurements? (MEASURED.csv)", "scripts/measure-layers writes one");
  if (hw_name.empty()) throw InputError({}, "calibrate: which hardware? (--hw)", "ridge list hardware");

  HardwareDescriptor desc = open_hardware(hw_name);
  HardwareSpec hw = desc.spec();
  const HardwareModel& model = select_hardware_model(hw, hw_model);
  std::vector<MeasuredLayer> rows = read_measured_layers(csv, time_column);
  if (check) {
    if (!output.empty() || fit_peaks || shared)
      throw InputError({}, "calibrate --check fits nothing, so it takes no --output, --fit-peaks or --shared",
                       "drop them to check the descriptor, or drop --check to fit one");
    if (!overhead.empty()) {
      std::optional<LaunchOverhead> launches = parse_launch_overhead(overhead);
      if (!launches || *launches == LaunchOverhead::per_step)
        throw InputError({}, "calibrate --check: unknown --overhead '" + overhead + "'", "use kernel or none");
      if (*launches == LaunchOverhead::none) {
        for (MeasuredLayer& r : rows) r.work.kernels = 0;
        data = (data.empty() ? std::filesystem::path(csv).filename().string() : data) + " (--overhead none: no launch time)";
      }
    }
    const std::vector<CheckedRow> checked = check_descriptor(rows, hw, model);
    if (!predictions.empty()) write_file_atomically(predictions, calibration_check_csv(rows, checked, time_column));
    std::cout << calibration_check_report(hw, rows, checked, data.empty() ? std::filesystem::path(csv).filename().string() : data);
    return 0;
  }
  if (!overhead.empty())
    throw InputError({}, "calibrate: --overhead goes with --check", "a fit keeps each row's launches: its fixed time per kernel is fitted");
  CalibrationOptions options;
  options.cv_column = cv_by;
  options.data = data.empty() ? std::filesystem::path(csv).filename().string() : data;
  options.date = today_utc();
  options.fit_peaks = fit_peaks;
  options.shared = shared;
  options.conditions = read_measurement_conditions(csv);
  CalibrationResult result;
  {
    ProgressLine progress(std::cerr, progress_wanted(quiet),
                          "calibrate: fitting " + std::to_string(rows.size()) + " measured layers, each --cv-by value held out in turn");
    result = fit_calibration(rows, hw, model, options);
  }

  if (!predictions.empty()) write_file_atomically(predictions, calibration_predictions_csv(hw, rows, result));
  if (!output.empty()) {
    std::ifstream in(desc.file(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string calibrated = without_calibration(text.str()) + "\n# Written by ridge calibrate from " + toml_comment_text(options.data) +
                             (result.calibration.peaks.empty() && result.calibration.bandwidths.empty()
                                 ? "; the pure peaks above are unchanged.\n"
                                 : "; roofs the measurements beat are raised in [calibration.peaks] / [calibration.bandwidths].\n") + calibration_toml(result.calibration);
    HardwareDescriptor::from_text(calibrated, output, "check").spec();  // what we write must read back
    write_file_atomically(output, calibrated);
  }
  std::cout << calibration_report(hw, rows, result, cv_by);
  return 0;
}

}  // namespace ridge::cli
