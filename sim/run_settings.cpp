// Names of phases and optimizers (see run_settings.hpp).
#include "sim/run_settings.hpp"

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

}  // namespace ridge
