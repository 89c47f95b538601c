// What `ridge calibrate` prints: per op class and dtype the fitted parameters and the
// |error| of predicted against measured time (pure roofline, fitted, held out), the
// same per network (sum over its layers, per model and batch), and a per-row CSV.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_spec.hpp"
#include "sim/engine/calibration_check.hpp"
#include "sim/engine/calibration_fit.hpp"

namespace ridge {

std::string calibration_report(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                               const CalibrationResult& result, const std::string& cv_column);

// One line per measured row: model, layer, op_class, dtype, batch, measured_s, pure_s,
// fitted_s, held_out_s, held_out_calibrated, class_kept (whether the written calibration
// keeps the row's class; the input of scripts/accuracy-report), and where `hw` has a
// [library] rule the library it places the row in.
std::string calibration_predictions_csv(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                                        const CalibrationResult& result);

// `ridge calibrate --check`: per op class and dtype, the |error| of the datasheet roofline
// and of the descriptor as it is (median, p90) and the share of rows measured at least as
// slow as the roofline (the bound holds), on rows the descriptor was not fitted on.
std::string calibration_check_report(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                                     const std::vector<CheckedRow>& checked, const std::string& data);

// One line per row: model, layer, op_class, dtype, batch, flops, measured_s, pure_s,
// predicted_s, then the row's CSV columns other than those of its work and its time
// (`time_column`), by name.
std::string calibration_check_csv(const std::vector<MeasuredLayer>& rows, const std::vector<CheckedRow>& checked,
                                  const std::string& time_column);

}  // namespace ridge
