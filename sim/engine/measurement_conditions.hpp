// The conditions a measured CSV was taken under (threads, library and version, clock,
// governor, load, date, dtype), as `# conditions: key = value; key = value` comment lines
// (scripts/measure-layers writes one). `ridge calibrate` records them in the descriptor's
// [calibration.conditions]. A CSV whose condition lines disagree on a key mixes
// measurements taken under different conditions, and is refused at the line that
// disagrees rather than fitted as one machine.
#pragma once

#include <map>
#include <string>

namespace ridge {

using MeasurementConditions = std::map<std::string, std::string>;

// `path` is a CSV read_measured_layers has read (an unreadable one gives no conditions).
MeasurementConditions read_measurement_conditions(const std::string& path);

// The same from text, as if read from `file` (tests).
MeasurementConditions parse_measurement_conditions(const std::string& text, const std::string& file);

}  // namespace ridge
