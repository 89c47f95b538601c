// The table of layer types: op name, evaluate function, input arity, op class (the
// calibration's; conv2d refines it from its kernel and groups), one-line summary.
// Adding a layer type: write its evaluate function in sim/workload/ops/ and add one row here.
#include "sim/workload/op_registry.hpp"

#include "sim/workload/ops/ops.hpp"

namespace ridge {

const std::vector<OpInfo>& all_ops() {
  using enum OpClass;
  static const std::vector<OpInfo> table = {
      {"conv1d", ops::conv<1>, 1, 1, conv_kxk, "1-D convolution of [C, L] (stride, padding, dilation, groups, bias)"},
      {"conv2d", ops::conv<2>, 1, 1, conv_kxk, "2-D convolution (stride, padding, dilation, groups, bias)"},
      {"conv3d", ops::conv<3>, 1, 1, conv_kxk, "3-D convolution of [C, D, H, W] (stride, padding, dilation, groups, bias)"},
      {"conv_transpose1d", ops::conv_transpose<1>, 1, 1, conv_kxk, "transposed 1-D convolution of [C, L]"},
      {"conv_transpose2d", ops::conv_transpose<2>, 1, 1, conv_kxk, "transposed 2-D convolution (stride, padding, output_padding)"},
      {"conv_transpose3d", ops::conv_transpose<3>, 1, 1, conv_kxk, "transposed 3-D convolution of [C, D, H, W]"},
      {"linear", ops::linear, 1, 1, linear, "fully connected over the last dimension"},
      {"lstm", ops::lstm, 1, 1, linear, "one LSTM layer over [T, I] -> [T, D x H] (hidden_size, bidirectional, bias, input_mode)"},
      {"gru", ops::gru, 1, 1, linear, "one GRU layer over [T, I] -> [T, D x H] (hidden_size, bidirectional, bias, input_mode)"},
      {"rnn", ops::rnn, 1, 1, linear, "one Elman RNN layer over [T, I] -> [T, D x H] (hidden_size, bidirectional, bias, nonlinearity, input_mode)"},
      {"max_pool1d", ops::max_pool<1>, 1, 1, max_pool, "max pooling of [C, L] with a fixed window"},
      {"max_pool2d", ops::max_pool<2>, 1, 1, max_pool, "max pooling with a fixed window"},
      {"max_pool3d", ops::max_pool<3>, 1, 1, max_pool, "max pooling of [C, D, H, W] with a fixed window"},
      {"avg_pool1d", ops::avg_pool<1>, 1, 1, avg_pool, "average pooling of [C, L] with a fixed window"},
      {"avg_pool2d", ops::avg_pool<2>, 1, 1, avg_pool, "average pooling with a fixed window"},
      {"avg_pool3d", ops::avg_pool<3>, 1, 1, avg_pool, "average pooling of [C, D, H, W] with a fixed window"},
      {"adaptive_max_pool1d", ops::adaptive_max_pool<1>, 1, 1, max_pool, "max pooling of [C, L] to a given output size"},
      {"adaptive_max_pool2d", ops::adaptive_max_pool<2>, 1, 1, max_pool, "max pooling to a given output size"},
      {"adaptive_max_pool3d", ops::adaptive_max_pool<3>, 1, 1, max_pool, "max pooling of [C, D, H, W] to a given output size"},
      {"adaptive_avg_pool1d", ops::adaptive_avg_pool<1>, 1, 1, avg_pool, "average pooling of [C, L] to a given output size"},
      {"adaptive_avg_pool2d", ops::adaptive_avg_pool<2>, 1, 1, avg_pool, "average pooling to a given output size"},
      {"adaptive_avg_pool3d", ops::adaptive_avg_pool<3>, 1, 1, avg_pool, "average pooling of [C, D, H, W] to a given output size"},
      {"global_avg_pool1d", ops::global_avg_pool<1>, 1, 1, avg_pool, "average over all positions, output [C, 1]"},
      {"global_avg_pool2d", ops::global_avg_pool<2>, 1, 1, avg_pool, "average over all positions, output [C, 1, 1]"},
      {"global_avg_pool3d", ops::global_avg_pool<3>, 1, 1, avg_pool, "average over all positions, output [C, 1, 1, 1]"},
      {"relu", ops::relu, 1, 1, elementwise, "max(x, 0)"},
      {"relu6", ops::relu6, 1, 1, elementwise, "min(max(x, 0), 6)"},
      {"gelu", ops::gelu, 1, 1, elementwise, "Gaussian error linear unit"},
      {"sigmoid", ops::sigmoid, 1, 1, elementwise, "1 / (1 + exp(-x))"},
      {"tanh", ops::tanh, 1, 1, elementwise, "hyperbolic tangent"},
      {"silu", ops::silu, 1, 1, elementwise, "x * sigmoid(x)"},
      {"hardswish", ops::hardswish, 1, 1, elementwise, "x * relu6(x + 3) / 6"},
      {"hardsigmoid", ops::hardsigmoid, 1, 1, elementwise, "min(max(x / 6 + 0.5, 0), 1)"},
      {"erf", ops::erf, 1, 1, elementwise, "the error function"},
      {"sqrt", ops::sqrt, 1, 1, elementwise, "square root"},
      {"exp", ops::exp, 1, 1, elementwise, "e^x"},
      {"pow", ops::pow, 1, 1, elementwise, "x to a constant power (exponent)"},
      {"leaky_relu", ops::leaky_relu, 1, 1, elementwise, "max(x, 0) + negative_slope * min(x, 0)"},
      {"prelu", ops::prelu, 1, 1, elementwise, "leaky ReLU with a learned slope (num_parameters: 1 or C)"},
      {"elu", ops::elu, 1, 1, elementwise, "x > 0 ? x : alpha (exp(x) - 1)"},
      {"selu", ops::selu, 1, 1, elementwise, "scale x elu(x, alpha) with SELU's constants"},
      {"softplus", ops::softplus, 1, 1, elementwise, "log(1 + exp(x))"},
      {"mish", ops::mish, 1, 1, elementwise, "x * tanh(softplus(x))"},
      {"clip", ops::clip, 1, 1, elementwise, "min(max(x, min), max) (hardtanh, clamp); either bound optional"},
      {"reciprocal", ops::reciprocal, 1, 1, elementwise, "1 / x"},
      {"sin", ops::sin, 1, 1, elementwise, "sine"},
      {"cos", ops::cos, 1, 1, elementwise, "cosine"},
      {"reduce_mean", ops::reduce_mean, 1, 1, normalization, "mean over axes (keepdims)"},
      {"reduce_sum", ops::reduce_sum, 1, 1, normalization, "sum over axes (keepdims)"},
      {"reduce_max", ops::reduce_max, 1, 1, normalization, "maximum over axes (keepdims)"},
      {"reduce_min", ops::reduce_min, 1, 1, normalization, "minimum over axes (keepdims)"},
      {"reduce_l2", ops::reduce_l2, 1, 1, normalization, "Euclidean norm over axes (keepdims)"},
      {"cumsum", ops::cumsum, 1, 1, normalization, "running sum along an axis (exclusive, reverse)"},
      {"argmax", ops::argmax, 1, 1, normalization, "index of the maximum (or minimum) over an axis (keepdims)"},
      {"batchnorm", ops::batchnorm, 1, 1, normalization, "batch normalisation over channel dim 0"},
      {"local_response_norm", ops::local_response_norm, 1, 1, normalization, "local response normalisation across channels"},
      {"layernorm", ops::layernorm, 1, 1, normalization, "layer normalisation over the last dimension"},
      {"instancenorm", ops::instancenorm, 1, 1, normalization, "instance normalisation: each channel over its positions"},
      {"groupnorm", ops::groupnorm, 1, 1, normalization, "group normalisation: num_groups groups of channels, each over its channels and positions"},
      {"rmsnorm", ops::rmsnorm, 1, 1, normalization, "root-mean-square normalisation over the last dimension (LLaMA)"},
      {"rotary", ops::rotary, 1, 1, elementwise, "rotary position embedding of [tokens, heads x head_dim]"},
      {"swiglu", ops::swiglu, 2, 2, elementwise, "silu(gate) x up, the gated MLP of LLaMA"},
      {"geglu", ops::geglu, 2, 2, elementwise, "gelu(gate) x up, the gated MLP of GeGLU models"},
      {"moe", ops::moe, 2, 2, linear, "mixture of SwiGLU experts: x, router logits -> top_k of num_experts per token"},
      {"attention", ops::attention, 3, 3, attention, "q, k, v -> softmax(q k^T / sqrt(d)) v; heads, kv_heads, causal, fused"},
      {"softmax", ops::softmax, 1, 1, attention, "softmax over the last dimension"},
      {"embedding", ops::embedding, 1, 1, data_movement, "table lookup: ids [...] -> [..., embedding_dim]"},
      {"matmul", ops::matmul, 2, 2, attention, "batched product of two activations (transpose_a, transpose_b)"},
      {"einsum", ops::einsum, 2, 2, attention, "product of two operands written as an Einsum equation (equation, per sample)"},
      {"dropout", ops::dropout, 1, 1, elementwise, "random zeroing in training; identity at inference"},
      {"flatten", ops::flatten, 1, 1, data_movement, "view as one dimension from start_dim on"},
      {"add", ops::add, 2, -1, elementwise, "element-wise sum, numpy broadcasting"},
      {"sub", ops::sub, 2, 2, elementwise, "element-wise difference, numpy broadcasting"},
      {"mul", ops::mul, 2, 2, elementwise, "element-wise product, numpy broadcasting"},
      {"div", ops::div, 2, 2, elementwise, "element-wise quotient, numpy broadcasting"},
      {"compare", ops::compare, 2, 2, elementwise, "element-wise compare, logic op, min or max, numpy broadcasting"},
      {"where", ops::where, 3, 3, elementwise, "condition, x, y -> x where the condition holds, else y, numpy broadcasting"},
      {"parameter", ops::parameter, 0, 0, data_movement, "a learned tensor of a given shape (class token, position embedding)"},
      {"scale", ops::scale, 1, 1, elementwise, "multiply by a constant factor"},
      {"unmodelled", ops::unmodelled, 1, -1, data_movement, "an imported node ridge does not model: zero cost (onnx_op)"},
      {"resize", ops::resize, 1, 1, data_movement, "resample [C, *S] to size = [Ho, Wo] (1 to 3 spatial axes; mode nearest or linear)"},
      {"grid_sample", ops::grid_sample, 2, 2, data_movement, "sample x [C, H, W] at the points of grid [Ho, Wo, 2] (mode nearest, linear or cubic)"},
      {"transpose", ops::transpose, 1, 1, data_movement, "permute dimensions (perm), copying the data"},
      {"reshape", ops::reshape, 1, 1, data_movement, "view as another shape (one -1 inferred)"},
      {"concat", ops::concat, 1, -1, data_movement, "join along an axis (one input: a copy)"},
      {"select", ops::select, 1, 1, data_movement, "pick one index along an axis, dropping it (a view)"},
      {"slice", ops::slice, 1, 1, data_movement, "a strided range along axes (starts, ends, steps), copied"},
      {"tile", ops::tile, 1, 1, data_movement, "repeat along each axis (repeats), copied"},
      {"pad", ops::pad, 1, 1, data_movement, "zeros around the last axes (pads, one per axis, both ends), copied"},
      {"depth_to_space", ops::depth_to_space, 1, 1, data_movement, "[C, H, W] -> [C / b^2, H b, W b] (block_size; pixel shuffle)"},
      {"space_to_depth", ops::space_to_depth, 1, 1, data_movement, "[C, H, W] -> [C b^2, H / b, W / b] (block_size; pixel unshuffle)"},
      {"trilu", ops::trilu, 1, 1, data_movement, "upper or lower triangle of the last two axes, the rest zeroed (upper, diagonal)"},
      {"gather", ops::gather, 2, 2, data_movement, "data[..., indices, ...] along an axis (inputs data, indices)"},
      {"gather_elements", ops::gather_elements, 2, 2, data_movement, "one element per index along an axis (ONNX GatherElements)"},
      {"gather_nd", ops::gather_nd, 2, 2, data_movement, "slices addressed by index tuples (ONNX GatherND, batch_dims)"},
      {"scatter", ops::scatter, 3, 3, data_movement, "data with updates written at indices (ONNX ScatterElements / ScatterND)"},
      {"topk", ops::topk, 1, 1, normalization, "the k largest along an axis, values and indices (a heap selection)"},
      {"nonzero", ops::nonzero, 1, 1, data_movement, "indices of the nonzero elements, at their upper bound (all)"},
      {"nms", ops::nms, 2, 2, normalization, "greedy non-maximum suppression of boxes [B, 4] by scores [C, B] (max_output)"},
      {"roi_align", ops::roi_align, 2, 2, avg_pool, "bilinear pooling of rois [R, 4] from features [C, H, W] to [R, C, oh, ow]"},
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
