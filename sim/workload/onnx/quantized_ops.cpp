// Quantized graphs, in the two forms ONNX has for them. QDQ: QuantizeLinear and
// DequantizeLinear around the weights and activations of float ops; each passes its input
// on (a deployed engine fuses them into the int8 kernel: no layer, no cost), so a weight
// read through them is the layer's own weight, counted once. Operator form: QLinearConv,
// ConvInteger, QLinearMatMul, MatMulInteger (and DynamicQuantizeLinear before them) are
// the Conv and MatMul they compute, read from their data and weight inputs.
// Quantized weights and activations make the file's dtype int8 (int8 MACs, 1-byte
// elements: reader.cpp's weight_dtype); weights alone make a note (notes()).
#include "sim/workload/onnx/translator.hpp"

namespace ridge::onnx_import {

namespace {

// `n` with only the inputs `keep` (by position; -1: none there), for the float op's handler.
onnx::NodeProto with_inputs(const onnx::NodeProto& n, std::initializer_list<int> keep) {
  onnx::NodeProto m = n;
  m.clear_input();
  for (int i : keep)
    if (i < n.input_size()) m.add_input(n.input(i));
  return m;
}

}  // namespace

void Translator::note_quantized(const onnx::NodeProto& n, int i) {
  const Tensor& t = tensor(n, i);
  if (t.activation) quantized_.activations = true;
  else if (t.learned || !t.source.empty()) quantized_.weights.insert(t.learned ? n.input(i) : t.source);
}

// QuantizeLinear, DequantizeLinear: the input passed on, its quantization noted.
void Translator::quantize_linear(const onnx::NodeProto& n, int) {
  note_quantized(n, 0);
  const Tensor& x = tensor(n, 0);
  if (!x.activation && x.learned) {  // the weight itself, still named after its initializer
    Tensor w = x;
    w.learned = false;
    w.source = n.input(0);
    return pass_on(n, w);
  }
  pass_on(n, x);
}

// DynamicQuantizeLinear: y is x in int8; y_scale and y_zero_point are one-element values
// computed from x at run time.
void Translator::dynamic_quantize_linear(const onnx::NodeProto& n, int) {
  note_quantized(n, 0);
  pass_on(n, activation(n, 0));
  for (int o = 1; o < n.output_size() && o < 3; ++o) {
    Tensor s;
    s.shape = {};
    tensors_[n.output(o)] = std::move(s);
  }
}

void Translator::quantized_op(const onnx::NodeProto& n, int index) {
  const std::string& op = n.op_type();
  // Data, weight and bias positions: QLinearConv (x, x_scale, x_zp, w, w_scale, w_zp,
  // y_scale, y_zp, B), QLinearMatMul (a, a_scale, a_zp, b, ...), ConvInteger and
  // MatMulInteger (x, w, x_zp, w_zp).
  const bool qlinear = op == "QLinearConv" || op == "QLinearMatMul";
  const int w = qlinear ? 3 : 1;
  note_quantized(n, 0);
  note_quantized(n, w);
  const bool is_conv = op == "QLinearConv" || op == "ConvInteger";
  const onnx::NodeProto m = op == "QLinearConv" && has_input(n, 8) ? with_inputs(n, {0, w, 8}) : with_inputs(n, {0, w});
  if (is_conv) conv(m, index);
  else matmul(m, index);
}

}  // namespace ridge::onnx_import
