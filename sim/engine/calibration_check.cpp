// Predicting measured layers with a descriptor as it is (see calibration_check.hpp).
#include "sim/engine/calibration_check.hpp"

#include "sim/base/error.hpp"

namespace ridge {

std::vector<CheckedRow> check_descriptor(const std::vector<MeasuredLayer>& rows, const HardwareSpec& hw,
                                         const HardwareModel& model) {
  HardwareSpec pure = hw;
  pure.drop_to_bound();
  std::vector<CheckedRow> out;
  out.reserve(rows.size());
  for (const MeasuredLayer& r : rows) {
    if (!hw.peak(r.dtype))
      throw InputError(r.loc, hw.id + " has no " + std::string(dtype_name(r.dtype)) + " peak to predict this row with",
                       "add it to the descriptor's [compute] or drop these rows");
    out.push_back({model.time_layer(r.work, pure, r.dtype).time_s, model.time_layer(r.work, hw, r.dtype).time_s});
  }
  return out;
}

}  // namespace ridge
