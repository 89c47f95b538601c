// Recurrent layers as PyTorch's nn.LSTM, nn.GRU and nn.RNN define them (one layer of a
// stack; ONNX LSTM, GRU and RNN nodes): input [T, I] per sample (T time steps of I
// features, the sequence first), hidden_size H, D = 2 directions when bidirectional
// (else 1); output [T, D x H], the hidden state of every step, directions side by side.
// Per step and direction, with G gates (LSTM 4, GRU 3, RNN 1), the gates' two products
// W x (G H x I) and R h (G H x H) are G H (I + H) MACs. Parameters, as PyTorch counts
// them: D x G x (H I + H H + 2H) with bias (b_ih and b_hh; ONNX's B is both), without
// the 2H when bias = false. FLOPs besides the MACs, per step and direction (each
// elementary op 1, sigmoid 4 and tanh 1 as activation.cpp counts them):
//   lstm: the two products added 4H, biases 8H, gates i, f, o sigmoid 12H and g tanh H,
//         c' = f c + i g 3H, h' = o tanh(c') 2H: 30H (22H without bias);
//   gru:  r and z: products added 2H, sigmoids 8H; n = tanh(x_n + r (h_n)) 3H;
//         h' = (1 - z) n + z h 4H; biases 6H: 23H (17H without bias);
//   rnn:  h' = tanh(W x + b_ih + R h + b_hh): products added H, biases 2H, tanh (or
//         relu) H: 4H (2H without bias).
// input_mode = "skip" (cuDNN's CUDNN_SKIP_INPUT, which Baidu DeepBench's RNN kernels time):
// no input product; the input, whose width must be H, is added to each gate as it is.
// Per step and direction G H H MACs, parameters D x G x (H H + 2H) (no W); the other
// FLOPs as above (the input takes the place of the W x sum). The default, "linear",
// is the product W x of every framework's layer.
// Weights are counted once per layer, as a persistent kernel that keeps R on chip across
// the steps would read them: the least traffic, so the roofline stays a bound; cuDNN's
// standard algorithm reads R again at every step, from L2 or HBM (docs/accuracy.md, the
// DeepBench RNN section, times both).
// Backward: the input and the recurrent gradient (dX = W^T dgates, dh = R^T dgates) as
// many MACs as forward, the weight gradient (dW, dR) as many again; the elementwise part
// is estimated at twice the forward's (each product and activation becomes a derivative
// and a product with the incoming gradient), and the bias gradient sums D G H x T x 2.
// Saved (an estimate after cuDNN's reserve space): the input, and per step and
// direction the G H gate activations and the H cell (LSTM) and H hidden states.
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

namespace {

struct Cell {
  int64_t gates;
  int64_t other_per_h;          // FLOPs besides the MACs per step, direction and hidden unit, with bias
  int64_t bias_per_h;           // of which the bias adds
  int64_t states;               // states kept per step (LSTM: h and c)
};

OpResult recurrent(TomlFields& a, const std::vector<Shape>& in, const Cell& cell) {
  const Shape& x = in[0];
  if (x.size() != 2) throw ShapeMismatch("needs a [T, I] input (time steps, features), got " + shape_to_string(x));
  const int64_t t = x[0], i = x[1];
  const int64_t h = a.positive("hidden_size");
  const int64_t d = a.boolean("bidirectional", false) ? 2 : 1;
  const bool bias = a.boolean("bias", true);
  const std::string mode = a.optional_string("input_mode").value_or("linear");
  if (mode != "linear" && mode != "skip") a.fail("input_mode", "must be \"linear\" or \"skip\" (got \"" + mode + "\")");
  const bool skip = mode == "skip";
  if (skip && i != h)
    a.fail("input_mode", "\"skip\" adds the input to the gates as it is: it needs input features = hidden_size (got " +
                             std::to_string(i) + " and " + std::to_string(h) + ")");
  const int64_t product_width = skip ? h : checked_add(i, h);  // the columns of [W R] each gate row multiplies
  OpResult r;
  r.output = {t, checked_mul(d, h)};
  LayerCounts& n = r.counts;
  const int64_t gh = checked_mul(cell.gates, h);  // G H gate rows
  const int64_t per_dir = checked_add(checked_mul(gh, product_width), bias ? checked_mul(2, gh) : 0);
  n.params = n.weight_elems = checked_mul(d, per_dir);
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  const int64_t steps = checked_mul(t, d);  // step-directions
  n.macs = checked_product({steps, gh, product_width});
  const int64_t other = checked_product({steps, h, cell.other_per_h - (bias ? 0 : cell.bias_per_h)});
  n.flops = checked_add(checked_mul(2, n.macs), other);
  n.bwd_input_macs = n.macs;
  n.bwd_weight_macs = n.macs;
  n.bwd_input_other_flops = checked_mul(2, other);
  n.bwd_weight_other_flops = bias ? checked_product({steps, gh, 2}) : 0;
  n.saves_input = true;
  n.saved_aux_elems = checked_product({steps, checked_add(gh, checked_mul(cell.states, h))});
  return r;
}

}  // namespace

OpResult lstm(TomlFields& a, const std::vector<Shape>& in) { return recurrent(a, in, {4, 30, 8, 2}); }
OpResult gru(TomlFields& a, const std::vector<Shape>& in) { return recurrent(a, in, {3, 23, 6, 1}); }
OpResult rnn(TomlFields& a, const std::vector<Shape>& in) {
  if (auto f = a.optional_string("nonlinearity"); f && *f != "tanh" && *f != "relu")
    a.fail("nonlinearity", "must be 'tanh' or 'relu' (got '" + *f + "')");
  return recurrent(a, in, {1, 4, 2, 1});
}

}  // namespace ridge::ops
