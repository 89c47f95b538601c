// The class of work a layer's kernel does, as calibration sees it: layers of one class
// run at one size-dependent efficiency on a given machine (a 1x1 conv is a GEMM, a
// depthwise conv streams memory, ReLU stays in cache). Each op's is in the op registry.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridge {

enum class OpClass {
  conv_kxk,       // convolution with a spatial kernel
  conv_1x1,       // 1x1 convolution (a GEMM over positions)
  depthwise,      // grouped convolution with one input channel per group
  linear,         // linear layers (GEMM with a weight)
  attention,      // products of two activations, their softmax, fused attention
  normalization,  // batch / layer / instance / RMS / local response norm, reductions
  elementwise,    // activations, arithmetic, rotary, gated MLP products, dropout
  max_pool,       // max pooling (a compare loop over each window)
  avg_pool,       // average pooling (a reduction over each window)
  data_movement,  // copies, views, concatenation, slices, resize, embedding gathers
};

inline constexpr std::array<OpClass, 10> kAllOpClasses = {
    OpClass::conv_kxk,      OpClass::conv_1x1,    OpClass::depthwise, OpClass::linear,   OpClass::attention,
    OpClass::normalization, OpClass::elementwise, OpClass::max_pool,  OpClass::avg_pool, OpClass::data_movement};

std::string_view op_class_name(OpClass c);
std::optional<OpClass> parse_op_class(std::string_view name);
std::string op_class_names();  // "conv_kxk, conv_1x1, ..." for hints
std::vector<std::string> op_class_name_list();

}  // namespace ridge
