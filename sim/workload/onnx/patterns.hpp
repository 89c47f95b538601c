// Chains of primitive ONNX ops that older exporters write for one PyTorch op, recognised
// so that they cost what the fused op costs:
//   LayerNorm (opset < 17): ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, then
//     optionally Mul gamma and Add beta: layernorm, 7D + 2 FLOPs per row as the fused op
//     (the chain itself costs 6D + 3 counted node by node);
//   GELU (opset < 20): Div sqrt(2), Erf, Add 1, Mul x, Mul 0.5: gelu (5 per element).
// A chain is fused only when every intermediate tensor is read by the chain alone.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace ridge {

struct OnnxChain {
  enum class Kind { layernorm, gelu } kind;
  std::vector<int> nodes;        // the chain's node indices, first to last
  std::string input;             // the tensor it normalises or activates
  std::string output;            // the tensor its last node makes
  double eps = 0;                // layernorm
  bool gamma = false, beta = false;  // layernorm: the learned scale and shift were fused in
};

struct OnnxGraphView {
  const onnx::GraphProto& graph;
  std::map<std::string, std::vector<int>> consumers;  // tensor -> the nodes reading it
  // A constant's value when it is known and has one element; nullopt otherwise.
  std::function<std::optional<double>(const std::string&)> scalar;
  // A learned initializer's shape; nullopt for anything else.
  std::function<std::optional<std::vector<int64_t>>(const std::string&)> learned_shape;
  // Whether the node reduces (keeping dims) over the last axis only of its input, which
  // has the rank of the activation `shaped_like` (the chain's input, already made).
  std::function<bool(const onnx::NodeProto&, const std::string& shaped_like)> reduces_last_axis;
};

// The chain starting at node `first`, if there is one.
std::optional<OnnxChain> match_chain(const OnnxGraphView& view, int first);

}  // namespace ridge
