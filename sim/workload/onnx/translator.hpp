// The ONNX translator: one object per file read, turning the graph's nodes in order into
// ridge layers (onnx_reader.hpp says what comes in and out). Its members are defined by
// concept, one file each in this folder:
//   reader.cpp             the graph walk: opset and arity checks, the node order, chains
//   initializers.cpp       tensors read from the file: initializers, Constant nodes, the input
//   node_inputs.cpp        a node's inputs (activation or constant) and attributes
//   batch_axis.cpp         where each activation's batch lies, followed through reshapes
//   layers.cpp             emitting a ridge layer (named, evaluated), parameters, unknown ops
//   constant_folding.cpp   shape arithmetic on constants (Shape, Range, Equal, ...)
//   op_table.cpp           the table of ONNX op -> handler (a simple op is one row)
//   conv_attributes.cpp    the window and padding attributes convolutions and pools share
//   conv_ops.cpp           Conv, ConvTranspose, pools, Pad, Resize, GridSample
//   matmul_ops.cpp         Gemm, MatMul, Einsum
//   elementwise_ops.cpp    arithmetic, activations with parameters, Where, Dropout
//   normalization_ops.cpp  normalisations and reductions
//   layout_ops.cpp         Reshape, Flatten, Squeeze / Unsqueeze, Transpose
//   indexing_ops.cpp       Concat, Split, Slice, Gather, Expand
//   rearrange_ops.cpp      Tile, DepthToSpace / SpaceToDepth, Trilu, CumSum
//   recurrent_ops.cpp      LSTM, GRU, RNN
//   quantized_ops.cpp      QuantizeLinear / DequantizeLinear, QLinearConv, MatMulInteger, ...
//   detection_ops.cpp      TopK, NonZero, NMS, RoiAlign, Gather / Scatter by computed indices, If
//   value_folding.cpp      the values of small constants through Cast, Floor, Min, reductions, ...
//   value_bounds.cpp       what bounds a data-dependent size: probabilities above a threshold, RoI levels
//   loop_ops.cpp           Loop: its body once, counted per trip (unrolled when it carries a
//                          sequence); a trip's data-dependent sizes
//   sequence_ops.cpp       SequenceEmpty / SequenceInsert / SequenceAt / SequenceLength
//   nms_limit.cpp          how many boxes the graph keeps after an NMS (the Slice that cuts them)
//   position_bias.cpp      relative position biases an eval-mode export folded (Swin's), named in a note
// (weights_in_place.hpp reads the file, its large raw data left in the mapping: raw_data()).
// Internal to sim/workload/onnx/.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>
#include <toml++/toml.h>

#include "sim/base/error.hpp"
#include "sim/workload/einsum_equation.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"
#include "sim/workload/onnx/patterns.hpp"
#include "sim/workload/onnx/tensor.hpp"

namespace ridge::onnx_import {

constexpr int64_t kMinOpset = 7;
// Opsets 19 to 21 change no cost of an op ridge reads (they add types, Pad's wrap mode,
// Resize's coordinate modes, GroupNormalization's per-channel scale), except AveragePool's
// dilations, which conv_ops.cpp refuses.
constexpr int64_t kMaxOpset = 21;
constexpr int64_t kMaxWindow = int64_t{1} << 16;        // kernel, stride or dilation of a conv or pool
constexpr int64_t kMaxFoldedValues = int64_t{1} << 16;  // a shape vector folded from Range
constexpr int64_t kMaxResized = int64_t{1} << 40;       // an axis a Resize's scale makes
// One initializer's elements: 2^37 (1.4e11, 550 GB at fp32) is far above the largest
// single weight of a published model (a 256k x 16k embedding table is 4e9 elements),
// so a larger one is a corrupt or hostile file.
constexpr int64_t kMaxTensorElements = int64_t{1} << 37;

// The kernel, strides and dilations of a conv or pool (one value per spatial axis each).
struct Window {
  std::vector<int64_t> kernel, stride, dilation;
};

class Translator {
 public:
  // fixed_batch_is_sample: the input's fixed first axis is part of one sample (a retry,
  // reader.cpp's translate_model, for a graph whose shapes hold the batch it was exported at).
  // raw: the raw data of initializers left in the file's mapping (weights_in_place.hpp).
  Translator(const onnx::ModelProto& model, const std::string& file, const OnnxOptions& options,
             bool fixed_batch_is_sample = false, const std::map<std::string, std::string_view>* raw = nullptr)
      : model_(model), file_(file), options_(options), fixed_batch_is_sample_(fixed_batch_is_sample), raw_(raw) {}

  toml::table translate();

  // --- The handlers the op table (op_table.cpp) calls, one per ONNX op or family.
  void translate_node(const onnx::NodeProto& n, int index);
  void constant_node(const onnx::NodeProto& n, int index);
  void shape_of(const onnx::NodeProto& n, int index);
  void constant_of_shape(const onnx::NodeProto& n, int index);
  void range(const onnx::NodeProto& n, int index);
  void equal(const onnx::NodeProto& n, int index);
  void dropout(const onnx::NodeProto& n, int index);
  void cast(const onnx::NodeProto& n, int index);
  void pad(const onnx::NodeProto& n);
  void conv(const onnx::NodeProto& n, int index);
  void conv_transpose(const onnx::NodeProto& n, int index);
  void pool(const onnx::NodeProto& n, int index, bool is_max);
  void global_average_pool(const onnx::NodeProto& n, int index);
  void global_max_pool(const onnx::NodeProto& n, int index);
  void resize(const onnx::NodeProto& n, int index);
  void grid_sample(const onnx::NodeProto& n, int index);
  void gemm(const onnx::NodeProto& n, int index);
  void matmul(const onnx::NodeProto& n, int index);
  void einsum(const onnx::NodeProto& n, int index);
  bool einsum_linear(const onnx::NodeProto& n, int index, const EinsumEquation& e);
  bool einsum_matmul(const onnx::NodeProto& n, int index, const EinsumEquation& e);
  void unary(const onnx::NodeProto& n, int index, const std::string& op);
  void binary(const onnx::NodeProto& n, int index, const std::string& op);
  void one_per_element(const onnx::NodeProto& n, int index);
  void clip(const onnx::NodeProto& n, int index);
  void prelu(const onnx::NodeProto& n, int index);
  void lrn(const onnx::NodeProto& n, int index);
  void pow(const onnx::NodeProto& n, int index);
  void softmax(const onnx::NodeProto& n, int index);
  void where(const onnx::NodeProto& n, int index);
  void bound_by_constant(const onnx::NodeProto& n, const Tensor& x, double c);
  int64_t nonzero_bound(const Tensor& x);
  void instance_norm(const onnx::NodeProto& n, int index);
  void batch_norm(const onnx::NodeProto& n, int index);
  void layer_norm(const onnx::NodeProto& n, int index);
  void reduce(const onnx::NodeProto& n, int index);
  void flatten(const onnx::NodeProto& n, int index);
  void reshape(const onnx::NodeProto& n, int index);
  void squeeze(const onnx::NodeProto& n, int index);
  void transpose(const onnx::NodeProto& n, int index);
  void concat(const onnx::NodeProto& n, int index);
  void split(const onnx::NodeProto& n, int index);
  void slice(const onnx::NodeProto& n, int index);
  void gather(const onnx::NodeProto& n, int index);
  void expand(const onnx::NodeProto& n, int index);
  void tile(const onnx::NodeProto& n, int index);
  void depth_to_space(const onnx::NodeProto& n, int index);
  void trilu(const onnx::NodeProto& n, int index);
  void trilu_constant(const onnx::NodeProto& n);
  int64_t diagonal(const onnx::NodeProto& n);
  void cumsum(const onnx::NodeProto& n, int index);
  void group_norm(const onnx::NodeProto& n, int index);
  void recurrent(const onnx::NodeProto& n, int index);
  void quantize_linear(const onnx::NodeProto& n, int index);
  void dynamic_quantize_linear(const onnx::NodeProto& n, int index);
  void quantized_op(const onnx::NodeProto& n, int index);
  void topk(const onnx::NodeProto& n, int index);
  void nonzero(const onnx::NodeProto& n, int index);
  void non_max_suppression(const onnx::NodeProto& n, int index);
  void roi_align(const onnx::NodeProto& n, int index);
  void gather_computed(const onnx::NodeProto& n, int index, const std::string& op);
  void scatter(const onnx::NodeProto& n, int index);
  void scatter_nd(const onnx::NodeProto& n, int index);
  void if_node(const onnx::NodeProto& n, int index);
  void loop(const onnx::NodeProto& n, int index);
  void sequence_empty(const onnx::NodeProto& n, int index);
  void sequence_insert(const onnx::NodeProto& n, int index);
  void sequence_at(const onnx::NodeProto& n, int index);
  void sequence_length(const onnx::NodeProto& n, int index);
  void unknown(const onnx::NodeProto& n, int index);
  void pass_on(const onnx::NodeProto& n, const Tensor& t) { tensors_[n.output(0)] = t; }

  // --- A node's inputs and attributes (node_inputs.cpp).
  const Tensor& tensor(const onnx::NodeProto& n, int i);
  bool has_input(const onnx::NodeProto& n, int i) const;
  const Tensor& activation(const onnx::NodeProto& n, int i);
  const Tensor& constant(const onnx::NodeProto& n, int i);
  Tensor data_input(const onnx::NodeProto& n, int i);
  std::vector<int64_t> values(const onnx::NodeProto& n, int i);
  const onnx::AttributeProto* attr(const onnx::NodeProto& n, const std::string& name) const;
  int64_t attr_int(const onnx::NodeProto& n, const std::string& name, int64_t fallback) const;
  std::optional<float> attr_float(const onnx::NodeProto& n, const std::string& name) const;
  std::optional<std::vector<int64_t>> attr_ints(const onnx::NodeProto& n, const std::string& name) const;

 private:
  [[noreturn]] void fail(const std::string& what, std::string hint = {}) const {
    throw InputError({file_}, what, std::move(hint));
  }
  [[noreturn]] void fail(const onnx::NodeProto& n, const std::string& what, std::string hint = {}) const {
    fail("node '" + n.name() + "' (" + n.op_type() + "): " + what, std::move(hint));
  }

  // reader.cpp
  void check_arity(const onnx::NodeProto& n) const;
  const char* weight_dtype() const;
  void mark_weight_dtypes(const char* file_dtype);
  void check_opset();
  bool reduces_last_axis(const onnx::NodeProto& n, const std::string& like);
  void emit_chain(const OnnxChain& c, int index);
  toml::array notes() const;

  // initializers.cpp
  std::string_view raw_data(const onnx::TensorProto& t) const;
  void constants_from(const onnx::TensorProto& t, bool learned);
  void read_parameter_inputs();
  void read_input();
  bool unbatched(const std::string& input, const Shape& full) const;
  static bool like_first_input(const onnx::ValueInfoProto& v, const onnx::ValueInfoProto& first);
  void stack_inputs(const onnx::ValueInfoProto& first, const std::vector<const onnx::ValueInfoProto*>& more);
  bool read_sequence_first(const std::string& input) const;

  // matmul_ops.cpp
  void check_features(const onnx::NodeProto& n, const Tensor& x, int64_t k, const Shape& weight);
  // conv_ops.cpp
  void check_channels(const onnx::NodeProto& n, const Tensor& x, int64_t channels, const Shape& weight);

  // quantized_ops.cpp
  void note_quantized(const onnx::NodeProto& n, int i);

  // conv_attributes.cpp
  std::vector<int64_t> window_attr(const onnx::NodeProto& n, const std::string& name, size_t rank,
                                   std::optional<std::vector<int64_t>> fallback);
  Window window(const onnx::NodeProto& n, size_t rank, std::optional<std::vector<int64_t>> kernel);
  std::vector<int64_t> pads(const onnx::NodeProto& n, const Tensor& x, const Window& w);
  // normalization_ops.cpp
  void reduce_whole(const onnx::NodeProto& n, int index, const Tensor& x);
  // indexing_ops.cpp
  std::vector<int64_t> split_sizes(const onnx::NodeProto& n, int64_t length);
  void split_constant(const onnx::NodeProto& n);
  // rearrange_ops.cpp
  void tile_constant(const onnx::NodeProto& n, const std::vector<int64_t>& repeats);
  // conv_ops.cpp
  size_t spatial_rank(const onnx::NodeProto& n, const Tensor& x, const char* what);

  // layout_ops.cpp
  std::vector<int64_t> unsqueezed_axes(const onnx::NodeProto& n, const std::vector<int64_t>& axes, size_t in_rank);
  std::vector<int64_t> permutation(const onnx::NodeProto& n, size_t rank);
  void view(const onnx::NodeProto& n, int index, const Tensor& x, const Tensor& out);
  void view_as(const onnx::NodeProto& n, int index, const Tensor& x, const Shape& full, int64_t prefer = -1);

  // detection_ops.cpp
  Tensor indexing_input(const onnx::NodeProto& n, int i, const Tensor& act);
  const Tensor& first_activation(const onnx::NodeProto& n);

  // loop_ops.cpp
  std::string loop_note() const;
  void unrolled_loop(const onnx::NodeProto& n, const onnx::GraphProto& body, int64_t trips);
  // sequence_ops.cpp
  const std::vector<Tensor>& sequence(const onnx::NodeProto& n, int i);
  size_t sequence_position(const onnx::NodeProto& n, int i, size_t length, bool past_end);
  bool trip_size_from_data(const onnx::NodeProto& n, int i);

  // position_bias.cpp
  void note_position_bias(const Shape& bias, int64_t learned);
  std::string position_bias_note() const;

  // nms_limit.cpp
  std::optional<int64_t> kept_after_nms(const std::string& nms_output) const;
  std::string module_of(const onnx::NodeProto& n) const;

  // batch_axis.cpp
  static Shape full_shape(const Tensor& t);
  static int64_t inner(const Shape& s, size_t from);
  static int64_t batch_stride(const Tensor& t);
  Placement place(const onnx::NodeProto& n, const Shape& full, int64_t stride, int64_t prefer);
  static Tensor placed(const Tensor& like, const Shape& full, const Placement& p);
  int64_t sample_axis(const onnx::NodeProto& n, int64_t axis, const Tensor& x);
  void batch_first(const onnx::NodeProto& n, const Tensor& x);
  Tensor stacked_item(const onnx::NodeProto& n, const Tensor& x, toml::table& attrs);

  // layers.cpp
  std::string unique_name(const onnx::NodeProto& n, int index);
  std::string fresh_name(const std::string& base);
  Shape emit(const onnx::NodeProto& n, const std::string& name, const std::string& op,
             const std::vector<std::string>& inputs, const std::vector<Shape>& shapes, toml::table attrs);
  void layer(const onnx::NodeProto& n, int index, const std::string& op, const std::vector<const Tensor*>& ins,
             toml::table attrs = {}, std::optional<Placement> at = std::nullopt);
  const Tensor& as_parameter(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                             const Tensor& act);
  const Tensor& as_parameter_at(const onnx::NodeProto& n, const std::string& tensor_name, const Tensor& c,
                                int64_t batch_axis);
  int64_t learned_elements(const Tensor& c) const;
  static std::vector<std::string> origins(const Tensor& c);
  void note_weight_type(const std::string& layer, const std::string& tensor_name);
  void weight_layer(const onnx::NodeProto& n, int index, const std::string& op, const Tensor& x, toml::table attrs,
                    int weight_input, int64_t rows, int64_t cols, bool cols_first);

  // constant_folding.cpp
  static std::optional<std::vector<int64_t>> rearranged(const Tensor& c, const Shape& shape,
                                                        const std::function<void(std::vector<int64_t>&)>& source);
  void folded(const onnx::NodeProto& n, Shape shape, std::optional<std::vector<int64_t>> values);
  void fold_binary(const onnx::NodeProto& n, const std::string& op);
  bool elementwise_on_constants(const onnx::NodeProto& n);
  // value_folding.cpp
  static std::optional<std::vector<double>> real_values(const Tensor& t);
  void set_folded_values(const onnx::NodeProto& n, const std::vector<double>& r, bool integer);
  void fold_elementwise_values(const onnx::NodeProto& n, const Shape& out);
  void fold_real_binary(const onnx::NodeProto& n, const std::string& op, const Shape& out);
  void reduce_constant(const onnx::NodeProto& n);

  const onnx::ModelProto& model_;
  std::string file_;
  const OnnxOptions& options_;
  std::map<std::string, Tensor> tensors_;
  std::map<std::string, std::vector<Tensor>> sequences_;  // ONNX sequences, by name (sequence_ops.cpp)
  std::map<std::string, Tensor> parameters_;
  std::map<std::string, int> initializer_types_;  // each initializer's ONNX element type
  std::set<std::string> counted_sources_;  // initializers whose elements a computed parameter counted
  std::set<std::string> used_;
  // Tied weights: the initializer of each weight matrix and the first layer using it.
  struct WeightUse {
    std::string layer;
    int64_t rows = 0, cols = 0;
    bool cols_first = false;  // stored [cols, rows]
    bool embedding = false;
  };
  std::map<std::string, WeightUse>::iterator same_values(const std::string& name, int64_t rows, int64_t cols,
                                                         bool cols_first);
  std::map<std::string, WeightUse> weight_users_;
  std::map<std::string, std::string> conv_users_;  // a Conv's weight (+ bias) initializers -> the first layer reading them
  Shape input_shape_;
  bool unbatched_ = false;  // the graph input has no batch axis (read_input)
  std::string stacked_inputs_;  // the note on graph inputs stacked as one sample (stack_inputs); empty: one input
  const bool fixed_batch_is_sample_;
  const std::map<std::string, std::string_view>* raw_;  // initializers' raw data left in the mapped file
  std::vector<onnx::TensorProto> parameter_inputs_;  // graph inputs read as parameters (read_parameter_inputs)
  int64_t fixed_batch_ = 0;  // the batch the graph's shapes hold, read as one sample (read_input); 0: none
  // Convs whose bias the exporter computed by folding a BatchNorm in (conv), and their
  // output channels: the parameters the module had beyond the graph's.
  struct FoldedBatchNorms {
    int64_t convs = 0, channels = 0;
  } folded_;
  // Attention scores: the outputs of MatMuls / Einsums of two activations, and of their
  // scalings (a relative position bias is added to them: position_bias.cpp).
  std::set<std::string> scores_;
  // Constants added to attention scores that look like gathered relative position biases:
  // how many, their elements, and the table entries they were gathered from.
  struct PositionBiases {
    int64_t adds = 0, gathered = 0, tables = 0;
  } position_biases_;
  // What a quantized graph quantizes (quantized_ops.cpp): the initializers of its
  // weights, and whether activations too.
  struct Quantized {
    std::set<std::string> weights;
    bool activations = false;
  } quantized_;
  std::set<std::string> bounds_;  // the bounds and assumptions detection sizes took (value_bounds.cpp), as notes
  // Per layer, the initializer its largest weight is (its elements and ONNX type, int8
  // when quantized): the layer's weight_dtype where it is not the file's (mark_weight_dtypes).
  struct WeightType {
    int64_t elements = -1;
    int type = 0;
  };
  std::map<std::string, WeightType> weight_types_;
  std::vector<std::string> assumptions_;  // the symbolic input dimensions set, "height = 320" (said in notes())
  std::vector<std::string> nms_kept_;     // per NMS: the boxes it is taken to keep, and why (said in notes())
  // Loops (loop_ops.cpp): the trips the layers being translated run (the product of the
  // enclosing loops' counts), the nesting, each loop's count (said in notes()), and
  // whether a trip's size computed from the data was assumed.
  int64_t trips_ = 1;
  int loop_depth_ = 0;
  std::vector<std::string> loops_;
  bool trip_sizes_assumed_ = false;
  bool rpn_nms_ = false;                  // the graph has an RPN's NMS (--set onnx.proposals applies)
  toml::array layers_;
};

}  // namespace ridge::onnx_import
