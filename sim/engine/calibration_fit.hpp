// Fitting a descriptor's calibration to measured layer times (`ridge calibrate`).
// Per op class and dtype: compute efficiency e, half-performance size n_half, the
// GEMM-shape halves P_half and K_half where the class's rows have GEMMs that vary in
// that dimension (at least kParametersPerClass distinct values), and a memory efficiency
// m_L for each memory level L that serves at least kParametersPerClass of its rows (the
// most used level when none does), so that a layer is predicted to take
//   compute = (flops + n_half) / (peak x e) x (1 + P_half / positions) x (1 + K_half / reduction)
//   memory  = bytes at its level / attained bandwidth
//   max(compute, memory) + link + launch, or compute + memory + link + launch
// (the serving level by the cache rule; attained bandwidth = level bandwidth x m_L, or
// for a level without its own m, the nearest fitted level's, capped by its own
// bandwidth; max or sum: both are fitted, the lower cost is kept). They are fitted by Levenberg-Marquardt on
// log(predicted / measured) with Huber weights (robust to outliers), e and m kept in
// (0, 1]. Error is reported before (pure roofline), in-sample and held out: each value
// of the cross-validation column (default the model) is left out in turn, its rows
// predicted from a fit on the others. A class whose held-out median error is not below
// the pure roofline's is left out of the calibration (it stays pure) and listed apart.
// With fit_peaks, a roof the measurements beat is raised first: a dtype's peak to the
// best FLOP/s a row attained (its fixed time taken off), a level's bandwidth to the best
// B/s a row it serves attained; held out, each fold's roofs come from its training rows.
// With shared, the classes are fitted together instead, with terms shared across them
// (shared_calibration_fit.hpp); the cross-validation, the report and the keep-or-drop
// rule are the same.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/measured_layers.hpp"

namespace ridge {

// The fewest rows a class needs, and a level needs for a memory efficiency of its own.
inline constexpr int kParametersPerClass = 3;

struct CalibrationOptions {
  std::string cv_column = "model";  // rows sharing a value are held out together
  std::string data;                 // the data set's name, recorded in the descriptor
  std::string date;                 // YYYY-MM-DD
  bool fit_peaks = false;           // raise roofs the measured layers beat (see above)
  bool shared = false;              // the shared-term fit instead (shared_calibration_fit.hpp)
  std::map<std::string, std::string> conditions;  // recorded in the calibration (measurement_conditions.hpp)
};

// One measured row's predictions.
struct RowPrediction {
  double pure_s = 0;      // today's roofline (no calibration)
  double fitted_s = 0;    // the fit on all rows
  double held_out_s = 0;  // the fit without this row's cross-validation group (pure where that fit lacks its class)
  bool held_out_calibrated = false;
  // The pure roofline against the roofs that fit's rows attained (fit_peaks; else pure_s):
  // a bound taken from other models' layers, which this row's time checks.
  double held_out_roofline_s = 0;
};

struct CalibrationResult {
  Calibration calibration;
  // Classes fitted but not kept: held out, they were no better than the pure roofline.
  std::map<ClassKey, ClassEfficiency> dropped;
  std::vector<RowPrediction> rows;  // parallel to the measured rows
};

// The class a measured row is fitted in: its op class, dtype and, where `hw` has a
// [library] rule, the kernel library that rule places it in (hw/kernel_library.hpp).
ClassKey row_class(const MeasuredLayer& row, const HardwareSpec& hw);

// Fits every (op class, dtype, library) in `rows`. A class with fewer than kParametersPerClass
// rows, or a row whose dtype `hw` cannot run, is an InputError at that row.
CalibrationResult fit_calibration(const std::vector<MeasuredLayer>& rows, const HardwareSpec& hw,
                                  const HardwareModel& model, const CalibrationOptions& options);

}  // namespace ridge
