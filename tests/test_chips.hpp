// HardwareSpecs built in code for tests: the worked example's chip of DESIGN.md.
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

}  // namespace ridge::test
