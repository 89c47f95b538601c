// A collective as a point on a roofline (plot roofline --parallel): the bytes one device
// moves over its link and the additions it does, whose quotient is its arithmetic
// intensity against the link's bandwidth.
//
//   link bytes = bytes x the nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md, as
//                collectives.hpp): all-reduce 2(n-1)/n, reduce-scatter, all-gather and
//                all-to-all (n-1)/n, broadcast and send/recv 1
//   FLOPs      = the additions of a reduction: a ring reduce-scatter adds the n-1 other
//                shards into its own, (n-1)/n x elements; an all-reduce is a
//                reduce-scatter and an all-gather, so the same; gathers, all-to-all,
//                broadcast and send/recv add nothing (0)
// so an all-reduce has intensity 1 / (2 x element bytes) (0.25 FLOP/B in bf16) and a
// reduce-scatter 1 / element bytes, whatever n and the message size.
#pragma once

#include "sim/parallel/collectives.hpp"

namespace ridge {

double collective_link_bytes(const CollectiveCost& c);
// `element_bytes`: the reduced elements' size (2 for bf16 activations, 4 for fp32 gradients).
double collective_flops(const CollectiveCost& c, double element_bytes);

}  // namespace ridge
