// Whether a run fits the device's memory before its times are reported: `generate`
// refuses a configuration that cannot run (exit 2, with the largest batch that fits as
// the hint); `analyze` and `query` time it anyway, as a what-if, and say on stderr that
// it does not fit, with the numbers.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge::cli {

// One step's settings to check, with the model read for it (prefill and decode read
// the model at different token counts).
struct StepToFit {
  const Model* model;
  RunSettings settings;
};

// Throws an InputError naming the peak, its parts and the device's usable memory when
// any of `steps` does not fit; the hint gives the largest --batch that fits them all.
void require_fit(const std::vector<StepToFit>& steps, const HardwareSpec& hw, const HardwareModel& hw_model);

// The same verdict as one `warning:` line on stderr (nothing when it fits).
void warn_unless_fits(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                      const HardwareModel& hw_model);

}  // namespace ridge::cli
