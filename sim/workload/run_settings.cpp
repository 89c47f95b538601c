// Names of phases and optimizers (see run_settings.hpp).
#include "sim/workload/run_settings.hpp"

namespace ridge {

std::string_view phase_name(Phase p) { return p == Phase::inference ? "inference" : "training"; }

std::optional<Phase> parse_phase(std::string_view s) {
  if (s == "inference") return Phase::inference;
  if (s == "training") return Phase::training;
  return std::nullopt;
}

std::string_view optimizer_name(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return "sgd";
    case Optimizer::momentum: return "momentum";
    case Optimizer::adam: return "adam";
    case Optimizer::adamw: return "adamw";
  }
  return "?";
}

std::optional<Optimizer> parse_optimizer(std::string_view s) {
  for (Optimizer o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam, Optimizer::adamw})
    if (optimizer_name(o) == s) return o;
  return std::nullopt;
}

std::string_view precision_name(Precision p) { return p == Precision::uniform ? "uniform" : "mixed"; }

std::optional<Precision> parse_precision(std::string_view s) {
  if (s == "uniform") return Precision::uniform;
  if (s == "mixed") return Precision::mixed;
  return std::nullopt;
}

int optimizer_state_slots(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return 0;
    case Optimizer::momentum: return 1;
    case Optimizer::adam:
    case Optimizer::adamw: return 2;
  }
  return 0;
}

int optimizer_flops_per_param(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return 2;
    case Optimizer::momentum: return 4;
    case Optimizer::adam: return 12;
    case Optimizer::adamw: return 14;
  }
  return 0;
}

ByteSizes byte_sizes(const RunSettings& s) {
  ByteSizes b;
  int d = dtype_bytes(s.dtype);
  b.activation = b.weight = b.gradient = d;
  b.state = d;
  if (s.precision == Precision::mixed) {
    b.master = 4;
    b.state = 4;
  }
  b.state_slots = optimizer_state_slots(s.optimizer);
  return b;
}

std::string precision_recipe(const RunSettings& s) {
  std::string d(dtype_name(s.dtype));
  if (s.precision == Precision::uniform) return d + " throughout";
  return "mixed " + d + " (" + d + " weights, activations and gradients; fp32 master weights and optimizer state)";
}

}  // namespace ridge
