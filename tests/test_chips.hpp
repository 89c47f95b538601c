// HardwareSpecs built in code for tests: the worked example's chip of DESIGN.md; and the
// descriptor text the calibration tests fit against.
#pragma once

#include "hw/hardware_spec.hpp"

namespace ridge::test {

// 120 TFLOP/s at fp32, one HBM2 level of 16 GiB at 900 GB/s, no link, no launch cost.
inline HardwareSpec chip120() {
  HardwareSpec hw;
  hw.id = "chip120";
  hw.name = "worked-example chip";
  hw.kind = "gpu";
  hw.default_model = "roofline";
  hw.peak_flops = {{DType::fp32, 120e12}};
  hw.memory = {{"HBM2", 16.0 * (1 << 30), 900e9}};
  return hw;
}

// Descriptor text: 100 GFLOP/s fp32; DRAM 10 GB/s, 1 GiB; a 1 MiB cache at 100 GB/s.
inline constexpr const char* kCalibrationChip = R"(name = "calibration test chip"
kind = "cpu"
source = "test"
[compute]
fp32 = "100 GFLOPS"
[[memory]]
name = "DRAM"
capacity = "1 GiB"
bandwidth = "10 GB/s"
[[memory]]
name = "cache"
capacity = "1 MiB"
bandwidth = "100 GB/s"
)";

}  // namespace ridge::test
