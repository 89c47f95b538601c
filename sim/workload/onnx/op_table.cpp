// The ONNX op table: each ONNX op type ridge reads and the handler that translates it.
// A simple op is one row naming the ridge op it becomes; an op with arguments to read has
// a handler in the file of its family (translator.hpp lists them). An op of another
// domain, or one not in the table, is unknown (an error, or with --allow-unknown a
// zero-cost layer). Elementwise ops whose inputs are all constants are folded first.
//
// Mapping (ONNX op -> ridge op): Conv -> conv2d, Gemm and MatMul by a 2-D initializer
// -> linear, MatMul of two activations -> matmul, BatchNormalization -> batchnorm,
// LayerNormalization -> layernorm, GroupNormalization -> groupnorm, Relu, Sigmoid, Tanh, Erf, Sqrt, Exp, HardSigmoid,
// HardSwish, Gelu -> the op of that name, LeakyRelu, Elu, Selu, Softplus, Mish,
// Reciprocal, Sin, Cos -> leaky_relu, elu, selu, softplus, mish, reciprocal, sin, cos,
// PRelu -> prelu (its slope the parameters), LRN -> local_response_norm,
// Clip(0, 6) -> relu6, Clip(0) -> relu, any other Clip -> clip, Softmax -> softmax (over
// its axis, counted as over the last), MaxPool / AveragePool -> max_pool2d / avg_pool2d,
// GlobalAveragePool -> global_avg_pool2d, Add / Sub / Mul / Div of two activations or of
// an activation and a learned initializer (a `parameter` layer) -> add / sub / mul /
// div; with a one-element constant -> scale (1 FLOP per element); Pow by a constant ->
// pow, ReduceMean / ReduceSum / ReduceMax / ReduceMin / ReduceL2 -> reduce_mean /
// reduce_sum / reduce_max / reduce_min / reduce_l2, ArgMax / ArgMin -> argmax, Concat -> concat, Split and
// Slice -> slice, Gather of an initializer table -> embedding and of one index ->
// select, Flatten / Reshape / Squeeze / Unsqueeze -> reshape, Transpose -> transpose,
// Expand of an initializer -> parameter, of an activation -> tile; Tile, DepthToSpace, SpaceToDepth, Trilu,
// CumSum -> tile, depth_to_space, space_to_depth, trilu, cumsum; LSTM, GRU, RNN ->
// lstm, gru, rnn; QuantizeLinear / DequantizeLinear pass their input on, QLinearConv /
// ConvInteger -> conv2d, QLinearMatMul / MatMulInteger -> linear or matmul (the file's
// dtype int8); Dropout of an activation -> dropout (Identity,
// Cast and a Dropout of a constant or with training_mode false pass their input on).
// Greater / Less / GreaterOrEqual / LessOrEqual / And / Or / Xor / Equal / Mod / Min / Max of activations ->
// compare, Floor / Ceil / Log / Abs / Neg / Not of one -> scale (1 FLOP per element),
// TopK -> topk, NonZero -> nonzero, NonMaxSuppression -> nms, RoiAlign -> roi_align,
// Gather by computed indices / GatherElements / GatherND -> gather / gather_elements /
// gather_nd, ScatterElements / ScatterND -> scatter, If with a folded condition -> its branch,
// GridSample -> grid_sample; SequenceEmpty / SequenceInsert / SequenceAt / SequenceLength
// track a list of tensors (no layer).
// GELU exported as Div, Erf, Add, Mul, Mul costs 5 FLOPs per element, as ridge's gelu.
#include <functional>
#include <map>
#include <string>

#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

namespace {

using Handler = std::function<void(Translator&, const onnx::NodeProto&, int)>;

// A row that becomes the unary ridge op `op`.
Handler as(const std::string& op) {
  return [op](Translator& t, const onnx::NodeProto& n, int index) { t.unary(n, index, op); };
}
// A row that becomes the binary ridge op `op` (or a scale, or folded arithmetic).
Handler binary_as(const std::string& op) {
  return [op](Translator& t, const onnx::NodeProto& n, int index) { t.binary(n, index, op); };
}

// A unary op counted as one operation per element: a `scale` by 1.
const Handler counted_once = [](Translator& t, const onnx::NodeProto& n, int index) {
  t.one_per_element(n, index);
};

const std::map<std::string, Handler>& op_table() {
  static const std::map<std::string, Handler> table = {
      // Constants and shape arithmetic (constant_folding.cpp, initializers.cpp)
      {"Constant", &Translator::constant_node},
      {"Shape", &Translator::shape_of},
      {"ConstantOfShape", &Translator::constant_of_shape},
      {"Range", &Translator::range},
      {"Equal", &Translator::equal},
      {"Mod",  // on constants: index arithmetic, folded; of an activation (box indices
               // modulo the classes), one operation per element
       [](Translator& t, const onnx::NodeProto& n, int index) {
         t.binary(n, index, !t.tensor(n, 0).activation && !t.tensor(n, 1).activation ? "mod" : "compare");
       }},
      // Passed on
      {"Identity", [](Translator& t, const onnx::NodeProto& n, int) { t.pass_on(n, t.tensor(n, 0)); }},
      {"Cast", &Translator::cast},
      {"Dropout", &Translator::dropout},
      // Unary activations, one row each
      {"Relu", as("relu")},
      {"Sigmoid", as("sigmoid")},
      {"Tanh", as("tanh")},
      {"Erf", as("erf")},
      {"Sqrt", as("sqrt")},
      {"Exp", as("exp")},
      {"HardSigmoid", as("hardsigmoid")},
      {"HardSwish", as("hardswish")},
      {"Gelu", as("gelu")},
      {"LeakyRelu", as("leaky_relu")},
      {"Elu", as("elu")},
      {"Selu", as("selu")},
      {"Softplus", as("softplus")},
      {"Mish", as("mish")},
      {"Reciprocal", as("reciprocal")},
      {"Sin", as("sin")},
      {"Cos", as("cos")},
      // Activations with arguments, arithmetic (elementwise_ops.cpp)
      {"Clip", &Translator::clip},
      {"PRelu", &Translator::prelu},
      {"Pow", &Translator::pow},
      {"Softmax", &Translator::softmax},
      {"Where", &Translator::where},
      {"Add", binary_as("add")},
      {"Sub", binary_as("sub")},
      {"Mul", binary_as("mul")},
      {"Div", binary_as("div")},
      // Of activations (scores against a threshold, boxes clipped): one operation per
      // element; a constant operand of one element is a `scale`
      {"Greater", binary_as("compare")},
      {"Less", binary_as("compare")},
      {"GreaterOrEqual", binary_as("compare")},
      {"LessOrEqual", binary_as("compare")},
      {"And", binary_as("compare")},
      {"Or", binary_as("compare")},
      {"Xor", binary_as("compare")},  // (torch's floor division of integers: the signs differ)
      {"Min", binary_as("compare")},
      {"Max", binary_as("compare")},
      {"Floor", counted_once},
      {"Ceil", counted_once},
      {"Log", counted_once},
      {"Abs", counted_once},
      {"Neg", counted_once},
      {"Not", counted_once},
      // Convolutions, pools, resizing (conv_ops.cpp)
      {"Pad", [](Translator& t, const onnx::NodeProto& n, int) { t.pad(n); }},
      {"Conv", &Translator::conv},
      {"ConvTranspose", &Translator::conv_transpose},
      {"MaxPool", [](Translator& t, const onnx::NodeProto& n, int index) { t.pool(n, index, true); }},
      {"AveragePool", [](Translator& t, const onnx::NodeProto& n, int index) { t.pool(n, index, false); }},
      {"GlobalAveragePool", &Translator::global_average_pool},
      {"GlobalMaxPool", &Translator::global_max_pool},
      {"Resize", &Translator::resize},
      {"Upsample", &Translator::resize},
      {"GridSample", &Translator::grid_sample},
      // Matrix products (matmul_ops.cpp)
      {"Gemm", &Translator::gemm},
      {"MatMul", &Translator::matmul},
      {"Einsum", &Translator::einsum},
      // Quantized graphs (quantized_ops.cpp)
      {"QuantizeLinear", &Translator::quantize_linear},
      {"DequantizeLinear", &Translator::quantize_linear},
      {"DynamicQuantizeLinear", &Translator::dynamic_quantize_linear},
      {"QLinearConv", &Translator::quantized_op},
      {"ConvInteger", &Translator::quantized_op},
      {"QLinearMatMul", &Translator::quantized_op},
      {"MatMulInteger", &Translator::quantized_op},
      // Recurrent layers (recurrent_ops.cpp)
      {"LSTM", &Translator::recurrent},
      {"GRU", &Translator::recurrent},
      {"RNN", &Translator::recurrent},
      // Normalisations and reductions (normalization_ops.cpp)
      {"BatchNormalization", &Translator::batch_norm},
      {"InstanceNormalization", &Translator::instance_norm},
      {"LayerNormalization", &Translator::layer_norm},
      {"LRN", &Translator::lrn},
      {"GroupNormalization", &Translator::group_norm},
      {"ReduceMean", &Translator::reduce},
      {"ReduceSum", &Translator::reduce},
      {"ReduceMax", &Translator::reduce},
      {"ReduceMin", &Translator::reduce},
      {"ReduceL2", &Translator::reduce},
      {"ReduceProd", &Translator::reduce},  // (of constants only)
      {"ArgMax", &Translator::reduce},
      {"ArgMin", &Translator::reduce},
      // Layout (layout_ops.cpp)
      {"Flatten", &Translator::flatten},
      {"Reshape", &Translator::reshape},
      {"Squeeze", &Translator::squeeze},
      {"Unsqueeze", &Translator::squeeze},
      {"Transpose", &Translator::transpose},
      // Selecting and joining (indexing_ops.cpp)
      {"Concat", &Translator::concat},
      {"Split", &Translator::split},
      {"Slice", &Translator::slice},
      {"Gather", &Translator::gather},
      {"Expand", &Translator::expand},
      // Repeating, rearranging, scanning (rearrange_ops.cpp)
      {"Tile", &Translator::tile},
      {"DepthToSpace", &Translator::depth_to_space},
      {"SpaceToDepth", &Translator::depth_to_space},
      {"Trilu", &Translator::trilu},
      {"CumSum", &Translator::cumsum},
      // Detection graphs (detection_ops.cpp)
      {"TopK", &Translator::topk},
      {"NonZero", &Translator::nonzero},
      {"NonMaxSuppression", &Translator::non_max_suppression},
      {"RoiAlign", &Translator::roi_align},
      {"GatherElements", [](Translator& t, const onnx::NodeProto& n, int index) { t.gather_computed(n, index, "gather_elements"); }},
      {"GatherND", [](Translator& t, const onnx::NodeProto& n, int index) { t.gather_computed(n, index, "gather_nd"); }},
      {"ScatterElements", &Translator::scatter},
      {"ScatterND", &Translator::scatter},
      {"If", &Translator::if_node},
      {"Loop", &Translator::loop},
      {"SequenceEmpty", &Translator::sequence_empty},
      {"SequenceInsert", &Translator::sequence_insert},
      {"SequenceAt", &Translator::sequence_at},
      {"SequenceLength", &Translator::sequence_length},
  };
  return table;
}

}  // namespace

void Translator::translate_node(const onnx::NodeProto& n, int index) {
  if (!n.domain().empty() && n.domain() != "ai.onnx") return unknown(n, index);
  if (elementwise_on_constants(n)) return;
  auto row = op_table().find(n.op_type());
  if (row == op_table().end()) return unknown(n, index);
  row->second(*this, n, index);
}

}  // namespace ridge::onnx_import
