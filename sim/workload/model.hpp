// A network as a validated, immutable graph: layers in topological order, each with
// its inferred output shape and its per-sample costs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/base/error.hpp"
#include "sim/base/int_expression.hpp"
#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_counts.hpp"
#include "sim/workload/op_class.hpp"
#include "sim/workload/shape.hpp"

namespace ridge {

inline constexpr int kModelInput = -1;  // an input index meaning "the model's input"

struct Layer {
  std::string name;
  std::string op;
  OpClass op_class = OpClass::data_movement;  // what calibration groups it with
  std::vector<int> inputs;  // indices into Model::layers, or kModelInput
  Shape output;             // per sample
  LayerCounts counts;
  // The type this layer's weights are stored in when it is not the run's (`weight_dtype`:
  // an imported graph's int8 weights behind a DequantizeLinear, an fp32 head in an fp16
  // file): its forward weight bytes and stored parameters count at it; --weight-dtype,
  // where it applies, replaces it.
  std::optional<DType> weight_dtype;
  SourceLoc loc;
};

struct Model {
  std::string name;
  std::string source;  // where the architecture comes from
  // What a reader of the numbers should know about how the file was made (`notes`: an
  // imported graph's folded BatchNorms, an input without a batch axis); shown in the
  // report's header.
  std::vector<std::string> notes;
  std::string file;
  Shape input;         // per sample
  int64_t max_positions = 0;  // the longest sequence a language model takes (0: not stated)
  SourceLoc max_positions_loc;  // where the model file states it
  // The type the file stores its weights in (`dtype`; an ONNX file's initializers): a
  // run's dtype when --dtype does not name one.
  std::optional<DType> dtype;
  IntParams params;    // the [params] table's values, overrides applied
  std::vector<Layer> layers;

  // Index of the layer called `name`, or -1.
  int find(const std::string& name) const;
  std::vector<std::string> layer_names() const;
  // True when some layer is an attention op (it can keep a KV cache).
  bool has_attention() const;
  // The layer that computes a language model's logits (lm_head): the last layer, when
  // the model has attention and that layer is a dense linear one; -1 otherwise.
  int logits_layer() const;
};

}  // namespace ridge
