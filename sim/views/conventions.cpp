// The counting conventions text (see conventions.hpp and docs/reference/counting-conventions.md).
#include "sim/views/conventions.hpp"

namespace ridge {

const std::vector<std::string>& counting_conventions() {
  static const std::vector<std::string> lines = {
      "macs: multiply-accumulates of conv / linear / matmul-type ops only",
      "flops: 2 x macs + every other arithmetic op (bias add, activation, norm, pooling compare, softmax, add) as 1",
      "bytes: elements x dtype size; input, output and weights apart; SI units (1 GB = 1e9 B)",
      "arithmetic intensity (FLOP/B): timed FLOPs (a conv / linear bias add runs in the fused epilogue, untimed) / "
      "bytes served by the level in question; in training over forward + backward + update",
  };
  return lines;
}

}  // namespace ridge
