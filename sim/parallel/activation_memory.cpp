// Korthikanti et al. 2022 activation memory (see activation_memory.hpp).
#include "sim/parallel/activation_memory.hpp"

#include <algorithm>

namespace ridge {

double layer_activation_bytes(const LayerShape& l, int64_t microbatch, int64_t tp, bool sp, Recompute r) {
  double s = static_cast<double>(l.seq), b = static_cast<double>(microbatch), h = static_cast<double>(l.hidden);
  double a = static_cast<double>(l.heads), t = static_cast<double>(tp);
  double sbh = s * b * h;
  switch (r) {
    case Recompute::full:
      return sp ? 2 * sbh / t : 2 * sbh;
    case Recompute::selective:
      return sp ? sbh * 34 / t : sbh * (10 + 24 / t);
    case Recompute::none:
      return sp ? sbh / t * (34 + 5 * a * s / h) : sbh * (10 + 24 / t + 5 * a * s / (h * t));
  }
  return 0;
}

double in_flight_layers(int64_t layers_per_stage, int64_t pp, int64_t microbatches, int64_t interleave) {
  double p = static_cast<double>(pp);
  double held = static_cast<double>(std::min(microbatches, pp)) * static_cast<double>(layers_per_stage);
  if (interleave > 1) held *= 1 + (p - 1) / (p * static_cast<double>(interleave));
  return held;
}

}  // namespace ridge
