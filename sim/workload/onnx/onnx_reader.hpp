// ONNX models in: translates an ONNX graph (read with Debian's libonnx protobuf
// classes) into the same model table a TOML model file holds, so that `ridge analyze
// model.onnx` and `ridge import model.onnx -o model.toml` agree by construction.
//
// Shapes: the graph input's first dimension is the batch (dynamic or fixed, it is
// replaced by ridge's --batch); the rest is one sample, its symbolic dimensions
// ('height') set with --set model.height=N. An input without a batch axis
// (one [3, H, W] image, initializers.cpp says how it is recognised) is one sample whole. Learned initializers become
// parameters (only their shapes are read); Constant / Shape / ConstantOfShape / Range
// and arithmetic on them are folded away. Layer names come from the node names
// (torch's scoped "/layer1/layer1.0/conv1/Conv" reads "layer1.0.conv1").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "sim/workload/shape.hpp"

namespace ridge {

struct OnnxOptions {
  // --input NAME=1x3x224x224: the full shape of a graph input with dynamic dimensions.
  std::vector<std::pair<std::string, Shape>> inputs;
  // A node ridge does not model becomes a zero-cost "unmodelled" layer instead of an error.
  bool allow_unknown = false;
  // --set model.NAME=VALUE: the size of the input's symbolic dimension NAME (its
  // dim_param, e.g. 'height'); each NAME must be one the graph input has.
  std::vector<std::pair<std::string, std::string>> dims;
  // --set onnx.max_detections=N: the boxes each NonMaxSuppression keeps per class, at
  // most (by default the graph's own cut after it, else every box).
  std::optional<int64_t> max_detections;
  // --set onnx.proposals=N: the proposals a two-stage detector's RPN keeps per image
  // after its NMS (by default its post-NMS top-N, the Slice the export wrote; N above
  // that is an error, the graph cutting there).
  std::optional<int64_t> proposals;
};

// Applies `--set onnx.KEY=VALUE` (KEY given with its "onnx." prefix) to the options of
// reading `file`; an unknown key or a value that is not a positive integer is an
// InputError naming the file.
void set_onnx_option(OnnxOptions& options, const std::string& file, const std::string& key, const std::string& value);

bool is_onnx_path(const std::string& path);

// The model table (name, source, [input], [[layer]]) of the ONNX file at `path`.
// Errors (not ONNX, truncated, unsupported opset or node, missing dimension) are
// InputErrors naming the file and the node.
toml::table onnx_model_table(const std::string& path, const OnnxOptions& options);

// The same from the file's bytes, as if read from `file` (the fuzz target, tests).
toml::table onnx_model_table_from_bytes(const std::string& bytes, const std::string& file, const OnnxOptions& options);

}  // namespace ridge
