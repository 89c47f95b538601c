// The table of layer types: op name, evaluate function, input arity, one-line summary.
// Adding a layer type: write its evaluate function in sim/workload/ops/ and add one row here.
#include "sim/workload/op_registry.hpp"

#include "sim/workload/ops/ops.hpp"

namespace ridge {

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> table = {
      {"conv2d", ops::conv2d, 1, 1, "2-D convolution (stride, padding, dilation, groups, bias)"},
      {"conv_transpose2d", ops::conv_transpose2d, 1, 1, "transposed 2-D convolution (stride, padding, output_padding)"},
      {"linear", ops::linear, 1, 1, "fully connected over the last dimension"},
      {"max_pool2d", ops::max_pool2d, 1, 1, "max pooling with a fixed window"},
      {"avg_pool2d", ops::avg_pool2d, 1, 1, "average pooling with a fixed window"},
      {"adaptive_max_pool2d", ops::adaptive_max_pool2d, 1, 1, "max pooling to a given output size"},
      {"adaptive_avg_pool2d", ops::adaptive_avg_pool2d, 1, 1, "average pooling to a given output size"},
      {"global_avg_pool2d", ops::global_avg_pool2d, 1, 1, "average over all positions, output [C, 1, 1]"},
      {"relu", ops::relu, 1, 1, "max(x, 0)"},
      {"relu6", ops::relu6, 1, 1, "min(max(x, 0), 6)"},
      {"gelu", ops::gelu, 1, 1, "Gaussian error linear unit"},
      {"sigmoid", ops::sigmoid, 1, 1, "1 / (1 + exp(-x))"},
      {"tanh", ops::tanh, 1, 1, "hyperbolic tangent"},
      {"silu", ops::silu, 1, 1, "x * sigmoid(x)"},
      {"hardswish", ops::hardswish, 1, 1, "x * relu6(x + 3) / 6"},
      {"hardsigmoid", ops::hardsigmoid, 1, 1, "min(max(x / 6 + 0.5, 0), 1)"},
      {"erf", ops::erf, 1, 1, "the error function"},
      {"sqrt", ops::sqrt, 1, 1, "square root"},
      {"exp", ops::exp, 1, 1, "e^x"},
      {"pow", ops::pow, 1, 1, "x to a constant power (exponent)"},
      {"reduce_mean", ops::reduce_mean, 1, 1, "mean over axes (keepdims)"},
      {"reduce_sum", ops::reduce_sum, 1, 1, "sum over axes (keepdims)"},
      {"batchnorm", ops::batchnorm, 1, 1, "batch normalisation over channel dim 0"},
      {"local_response_norm", ops::local_response_norm, 1, 1, "local response normalisation across channels"},
      {"layernorm", ops::layernorm, 1, 1, "layer normalisation over the last dimension"},
      {"instancenorm", ops::instancenorm, 1, 1, "instance normalisation: each channel over its positions"},
      {"rmsnorm", ops::rmsnorm, 1, 1, "root-mean-square normalisation over the last dimension (LLaMA)"},
      {"rotary", ops::rotary, 1, 1, "rotary position embedding of [tokens, heads x head_dim]"},
      {"swiglu", ops::swiglu, 2, 2, "silu(gate) x up, the gated MLP of LLaMA"},
      {"geglu", ops::geglu, 2, 2, "gelu(gate) x up, the gated MLP of GeGLU models"},
      {"moe", ops::moe, 2, 2, "mixture of SwiGLU experts: x, router logits -> top_k of num_experts per token"},
      {"attention", ops::attention, 3, 3, "q, k, v -> softmax(q k^T / sqrt(d)) v; heads, kv_heads, causal, fused"},
      {"softmax", ops::softmax, 1, 1, "softmax over the last dimension"},
      {"embedding", ops::embedding, 1, 1, "table lookup: ids [...] -> [..., embedding_dim]"},
      {"matmul", ops::matmul, 2, 2, "batched product of two activations (transpose_a, transpose_b)"},
      {"dropout", ops::dropout, 1, 1, "random zeroing in training; identity at inference"},
      {"flatten", ops::flatten, 1, 1, "view as one dimension from start_dim on"},
      {"add", ops::add, 2, -1, "element-wise sum, numpy broadcasting"},
      {"sub", ops::sub, 2, 2, "element-wise difference, numpy broadcasting"},
      {"mul", ops::mul, 2, 2, "element-wise product, numpy broadcasting"},
      {"div", ops::div, 2, 2, "element-wise quotient, numpy broadcasting"},
      {"parameter", ops::parameter, 0, 0, "a learned tensor of a given shape (class token, position embedding)"},
      {"scale", ops::scale, 1, 1, "multiply by a constant factor"},
      {"unmodelled", ops::unmodelled, 1, -1, "an imported node ridge does not model: zero cost (onnx_op)"},
      {"resize", ops::resize, 1, 1, "resample [C, H, W] to size = [Ho, Wo] (mode nearest or linear)"},
      {"transpose", ops::transpose, 1, 1, "permute dimensions (perm), copying the data"},
      {"reshape", ops::reshape, 1, 1, "view as another shape (one -1 inferred)"},
      {"concat", ops::concat, 1, -1, "join along an axis (one input: a copy)"},
      {"select", ops::select, 1, 1, "pick one index along an axis, dropping it (a view)"},
      {"slice", ops::slice, 1, 1, "a strided range along axes (starts, ends, steps), copied"},
  };
  return table;
}

const OpInfo* find_op(std::string_view name) {
  for (const OpInfo& op : all_ops())
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const OpInfo& op : all_ops()) names.emplace_back(op.name);
  return names;
}

}  // namespace ridge
