// Every layer type's evaluate function, one family per file in sim/workload/ops/; the
// registry (sim/workload/op_registry.cpp) names them.
#pragma once

#include "sim/workload/op.hpp"

namespace ridge::ops {

// Over R = 1, 2 or 3 spatial axes (spatial.hpp): conv<2> is conv2d.
template <int R>
OpResult conv(TomlFields& attrs, const std::vector<Shape>& in);
template <int R>
OpResult conv_transpose(TomlFields& attrs, const std::vector<Shape>& in);
OpResult linear(TomlFields& attrs, const std::vector<Shape>& in);
OpResult lstm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult gru(TomlFields& attrs, const std::vector<Shape>& in);
OpResult rnn(TomlFields& attrs, const std::vector<Shape>& in);

template <int R>
OpResult max_pool(TomlFields& attrs, const std::vector<Shape>& in);
template <int R>
OpResult avg_pool(TomlFields& attrs, const std::vector<Shape>& in);
template <int R>
OpResult adaptive_max_pool(TomlFields& attrs, const std::vector<Shape>& in);
template <int R>
OpResult adaptive_avg_pool(TomlFields& attrs, const std::vector<Shape>& in);
template <int R>
OpResult global_avg_pool(TomlFields& attrs, const std::vector<Shape>& in);

OpResult relu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult relu6(TomlFields& attrs, const std::vector<Shape>& in);
OpResult gelu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult sigmoid(TomlFields& attrs, const std::vector<Shape>& in);
OpResult tanh(TomlFields& attrs, const std::vector<Shape>& in);
OpResult silu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult hardswish(TomlFields& attrs, const std::vector<Shape>& in);
OpResult hardsigmoid(TomlFields& attrs, const std::vector<Shape>& in);
OpResult erf(TomlFields& attrs, const std::vector<Shape>& in);
OpResult sqrt(TomlFields& attrs, const std::vector<Shape>& in);
OpResult exp(TomlFields& attrs, const std::vector<Shape>& in);
OpResult pow(TomlFields& attrs, const std::vector<Shape>& in);
OpResult leaky_relu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult prelu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult elu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult selu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult softplus(TomlFields& attrs, const std::vector<Shape>& in);
OpResult mish(TomlFields& attrs, const std::vector<Shape>& in);
OpResult clip(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reciprocal(TomlFields& attrs, const std::vector<Shape>& in);
OpResult sin(TomlFields& attrs, const std::vector<Shape>& in);
OpResult cos(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reduce_mean(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reduce_sum(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reduce_max(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reduce_min(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reduce_l2(TomlFields& attrs, const std::vector<Shape>& in);
OpResult argmax(TomlFields& attrs, const std::vector<Shape>& in);
OpResult slice(TomlFields& attrs, const std::vector<Shape>& in);
OpResult cumsum(TomlFields& attrs, const std::vector<Shape>& in);
OpResult tile(TomlFields& attrs, const std::vector<Shape>& in);
OpResult grid_sample(TomlFields& attrs, const std::vector<Shape>& in);
OpResult pad(TomlFields& attrs, const std::vector<Shape>& in);
OpResult depth_to_space(TomlFields& attrs, const std::vector<Shape>& in);
OpResult space_to_depth(TomlFields& attrs, const std::vector<Shape>& in);
OpResult trilu(TomlFields& attrs, const std::vector<Shape>& in);

OpResult batchnorm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult local_response_norm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult layernorm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult instancenorm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult groupnorm(TomlFields& attrs, const std::vector<Shape>& in);
OpResult rmsnorm(TomlFields& attrs, const std::vector<Shape>& in);

OpResult rotary(TomlFields& attrs, const std::vector<Shape>& in);
OpResult swiglu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult geglu(TomlFields& attrs, const std::vector<Shape>& in);
OpResult attention(TomlFields& attrs, const std::vector<Shape>& in);
// An attention layer's counts when its queries also attend to `cached` tokens of a KV
// cache (attention.cpp states the formulas); attention() is this with cached = 0.
LayerCounts attention_counts(const AttentionShape& shape, int64_t cached);

OpResult moe(TomlFields& attrs, const std::vector<Shape>& in);
// Expected distinct experts that `tokens` tokens touch when each picks top_k of
// `experts` uniformly at random: E (1 - (1 - k/E)^T) (moe.cpp).
double expected_experts_touched(int64_t experts, int64_t top_k, int64_t tokens);

OpResult softmax(TomlFields& attrs, const std::vector<Shape>& in);
OpResult embedding(TomlFields& attrs, const std::vector<Shape>& in);
OpResult matmul(TomlFields& attrs, const std::vector<Shape>& in);
OpResult einsum(TomlFields& attrs, const std::vector<Shape>& in);

OpResult resize(TomlFields& attrs, const std::vector<Shape>& in);
OpResult transpose(TomlFields& attrs, const std::vector<Shape>& in);
OpResult reshape(TomlFields& attrs, const std::vector<Shape>& in);
OpResult concat(TomlFields& attrs, const std::vector<Shape>& in);
OpResult select(TomlFields& attrs, const std::vector<Shape>& in);

// Detection graphs (detection.cpp).
OpResult gather(TomlFields& attrs, const std::vector<Shape>& in);
OpResult gather_elements(TomlFields& attrs, const std::vector<Shape>& in);
OpResult gather_nd(TomlFields& attrs, const std::vector<Shape>& in);
OpResult scatter(TomlFields& attrs, const std::vector<Shape>& in);
OpResult topk(TomlFields& attrs, const std::vector<Shape>& in);
OpResult nonzero(TomlFields& attrs, const std::vector<Shape>& in);
OpResult nms(TomlFields& attrs, const std::vector<Shape>& in);
OpResult roi_align(TomlFields& attrs, const std::vector<Shape>& in);

OpResult dropout(TomlFields& attrs, const std::vector<Shape>& in);
OpResult flatten(TomlFields& attrs, const std::vector<Shape>& in);
OpResult add(TomlFields& attrs, const std::vector<Shape>& in);
OpResult sub(TomlFields& attrs, const std::vector<Shape>& in);
OpResult mul(TomlFields& attrs, const std::vector<Shape>& in);
OpResult div(TomlFields& attrs, const std::vector<Shape>& in);
OpResult compare(TomlFields& attrs, const std::vector<Shape>& in);
OpResult where(TomlFields& attrs, const std::vector<Shape>& in);
OpResult parameter(TomlFields& attrs, const std::vector<Shape>& in);
OpResult scale(TomlFields& attrs, const std::vector<Shape>& in);
OpResult unmodelled(TomlFields& attrs, const std::vector<Shape>& in);

}  // namespace ridge::ops
