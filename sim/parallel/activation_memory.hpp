// Activation memory of one transformer layer for one microbatch, after Korthikanti et
// al., "Reducing Activation Recomputation in Large Transformer Models", 2022 (arXiv
// 2205.05198), Table 2, with 16-bit activations (s sequence, b microbatch, h hidden,
// a heads, t tensor-parallel size), in bytes:
//   no parallelism                      sbh (34 + 5as/h)
//   tensor parallel                     sbh (10 + 24/t + 5as/(ht))
//   tensor + sequence parallel          sbh/t (34 + 5as/h)
//   tensor parallel, selective          sbh (10 + 24/t)
//   tensor + sequence parallel, sel.    sbh/t x 34
//   full recomputation                  2sbh (2sbh/t with sequence parallelism): the layer input only
// Pipeline schedules keep several microbatches in flight (section 4.2.3): 1F1B's first
// stage holds p microbatches of its L/p layers, i.e. L layers' worth when m >= p (m/p of
// that when m < p); interleaving with V chunks multiplies by 1 + (p-1)/(pV).
#pragma once

#include <cstdint>

#include "sim/parallel/parallel_plan.hpp"

namespace ridge {

struct LayerShape {
  int64_t seq = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
};

double layer_activation_bytes(const LayerShape& l, int64_t microbatch, int64_t tp, bool sequence_parallel, Recompute r);
// Microbatches' worth of one stage's layers held at the peak (the first stage), as a
// factor on `layers_per_stage` layers: min(m, p) x (1 + (p-1)/(pV) when interleaved).
double in_flight_layers(int64_t layers_per_stage, int64_t pp, int64_t microbatches, int64_t interleave);

}  // namespace ridge
