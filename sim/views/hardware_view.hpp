// How reports describe the hardware a run was timed on: one header line for tables and
// the `hardware` object of JSON reports. Formats only.
#pragma once

#include <string>

#include "hw/hardware_spec.hpp"
#include "sim/engine/timing_analysis.hpp"
#include "sim/views/json.hpp"

namespace ridge {

// "hardware v100 (NVIDIA V100 ...), model roofline: fp32 peak 15.7 TFLOP/s; HBM2 900 GB/s, 16 GiB; ..."
std::string hardware_line(const HardwareSpec& hw, const TimingAnalysis& timing);
// "step 2.13 ms, 469.5 samples/s, 61.2% of the time memory-bound, 45.1 TFLOP/s (37.6% of peak)"
std::string timing_totals_line(const TimingAnalysis& timing);
Json hardware_json(const HardwareSpec& hw, const TimingAnalysis& timing);
// "compute" or "memory:<level name>"
std::string bound_name(const LayerTiming& t, const HardwareSpec& hw);
// "1.2 TB/s", or "inf" for a stream that moves bytes while nothing is computed.
std::string format_bandwidth(double Bps);

}  // namespace ridge
