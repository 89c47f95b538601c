// How a model is run: batch, data type, phase and optimizer. Parsed from the command
// line or a sweep point; every analysis is a pure function of a Model and these.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/dtype.hpp"

namespace ridge {

enum class Phase { inference, training };
enum class Optimizer { sgd, momentum, adam, adamw };
// Where the batch's input starts and its output must end: on the device, or on the
// host, so that both cross the host link (PCIe / NVLink) every step.
enum class DataPlacement { device, host };

std::string_view phase_name(Phase p);
std::optional<Phase> parse_phase(std::string_view s);
std::string_view optimizer_name(Optimizer o);
std::optional<Optimizer> parse_optimizer(std::string_view s);

struct RunSettings {
  int64_t batch = 1;
  DType dtype = DType::fp32;
  Phase phase = Phase::inference;
  Optimizer optimizer = Optimizer::adam;
  DataPlacement data_on = DataPlacement::device;
};

}  // namespace ridge
