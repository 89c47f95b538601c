// How reports describe the hardware a run was timed on: one header line for tables and
// the `hardware` object of JSON reports, and the run's one-line summary. Formats only.
#pragma once

#include <string>

#include "sim/engine/result.hpp"
#include "sim/views/json.hpp"

namespace ridge {

// "hardware v100 (NVIDIA V100 ...), model roofline: fp32 peak 15.7 TFLOP/s; HBM2 900 GB/s, 16 GiB; ..."
std::string hardware_line(const HardwareContext& hw, DType dtype);
// "step 2.13 ms, 469.5 samples/s, 61.2% of the time memory-bound, 45.1 TFLOP/s (37.6% of peak)"
std::string run_summary_line(const RunResult& run);
Json hardware_json(const HardwareContext& hw);
// A device's memory capacity, always in binary units (docs/reference/conventions.md):
// "80 GiB" when a whole number of them (as descriptors write memory), else 4
// significant digits ("131.3 GiB" for the H200's 141 GB); the largest unit it reaches.
std::string capacity_text(double bytes);

}  // namespace ridge
