// Checking a descriptor on measured layers it was not fitted on (`ridge calibrate --check`):
// every row predicted by the datasheet roofline (the descriptor as `--efficiency none`
// runs it: no [efficiency], no [calibration]) and by the descriptor as it is (its
// [efficiency] and [calibration] applied). Nothing is fitted, so every prediction is
// held out from these rows.
#pragma once

#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/measured_layers.hpp"

namespace ridge {

struct CheckedRow {
  double pure_s = 0;       // the datasheet roofline (a bound)
  double predicted_s = 0;  // the descriptor as it is
};

// One prediction per row, in order. A row whose dtype `hw` has no peak for is an
// InputError at that row.
std::vector<CheckedRow> check_descriptor(const std::vector<MeasuredLayer>& rows, const HardwareSpec& hw,
                                         const HardwareModel& model);

}  // namespace ridge
