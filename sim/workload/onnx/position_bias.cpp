// Relative position biases an eval-mode export folded: Swin (and MaxViT) add to each
// window's attention scores a [heads, N, N] bias gathered from a learned table of
// (2w - 1)^2 rows per head (w x w windows, N = w^2 tokens) by a fixed index. Constant
// folding stores the gathered [heads, N, N] copy instead of the table, so the graph holds
// heads x (N^2 - (2w - 1)^2) parameters more than the module; notes() says so. Recognised
// as a constant added to attention scores (a MatMul or Einsum of two activations, maybe
// scaled) that counts heads x N^2 learned elements, N a square. A training-mode export
// gathers from the table in the graph, and its parameters are the table's.
#include "sim/workload/onnx/translator.hpp"

#include <cmath>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

void Translator::note_position_bias(const Shape& bias, int64_t learned) {
  Shape s = bias;
  while (s.size() > 2 && s.front() == 1) s.erase(s.begin());
  if (s.size() != 3 || s[1] != s[2]) return;
  const int64_t heads = s[0], tokens = s[1];
  const auto w = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(tokens))));
  if (w < 2 || w * w != tokens || learned != checked_mul(heads, checked_mul(tokens, tokens))) return;
  const int64_t table = checked_mul(heads, (2 * w - 1) * (2 * w - 1));
  ++position_biases_.adds;
  position_biases_.gathered = checked_add(position_biases_.gathered, learned);
  position_biases_.tables = checked_add(position_biases_.tables, table);
}

std::string Translator::position_bias_note() const {
  const PositionBiases& p = position_biases_;
  return std::to_string(p.adds) +
         " [heads, N, N] constant(s) added to attention scores look like relative position biases gathered from "
         "tables and folded by an eval-mode export, as in Swin: with w x w windows (N = w^2) a table has (2w-1)^2 "
         "rows per head, so their " + std::to_string(p.gathered) + " elements stand for " + std::to_string(p.tables) +
         " table entries: " + std::to_string(p.gathered - p.tables) +
         " parameters more than the PyTorch module; export in training mode to count the module";
}

}  // namespace ridge::onnx_import
