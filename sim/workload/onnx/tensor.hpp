// The tensors of an ONNX graph as the translator (translator.hpp) tracks them: an
// activation (made by a ridge layer; its shape per sample, with where its batch lies) or
// a constant (an initializer or a folded value: its full shape and, when small, its
// values), and the small formatting helpers its messages and layer tables use.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "sim/workload/shape.hpp"

namespace ridge::onnx_import {


// Where an activation's batch lies in its ONNX shape. Torch's exports keep it first
// until an attention or window reshape moves it: nn.MultiheadAttention works on
// [S, N, E], then [S, N x heads, d]; Swin merges it with the windows, [N x windows, ...].
// `batch` is the ONNX axis holding it; alone on that axis (size 1 at batch 1) it is
// dropped from the shape per sample; merged with other factors (`merged`, `factor` of
// that axis's elements inside each batch index) the axis stays, holding one sample's part.
struct Placement {
  int64_t batch = 0;
  bool merged = false;
  int64_t factor = 1;
  bool operator==(const Placement&) const = default;
};

// A range of values, unbounded by default.
struct ValueRange {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
};

struct Tensor {
  bool activation = false;
  Placement at;       // activation: where its batch is
  std::string layer;  // activation: the ridge layer making it ("@input" for the model input)
  Shape shape;        // activation: per sample; constant: full shape
  std::optional<std::vector<int64_t>> values;  // constant: its integer values when known
  std::optional<double> scalar;                // constant: its value when it has one element
  std::optional<std::vector<double>> reals;    // constant: its values when small and floating-point
  bool learned = false;                        // an initializer (a trained weight)
  std::string source;  // constant: the initializer it was computed from (gathered, reshaped, ...)
  // constant: the other initializers it was computed from (a sum of two tables, rows
  // joined from several), each counted once as parameters with `source` (as_parameter)
  std::vector<std::string> also_from;
  // activation: a zero Pad not yet applied, one value per spatial axis (the same at
  // both ends; empty: none), which the Conv or pool that reads it folds into its own padding.
  std::vector<int64_t> pad;
  // activation: softmax probabilities in rows of `prob_row` entries, each row summing to
  // at most 1 (a Slice keeps that, a Reshape too: rows stay contiguous); 0: not known.
  int64_t prob_row = 0;
  // activation: a mask with at most this many true elements per sample (probabilities
  // above a threshold t: fewer than 1 / t of each row); 0: no bound known.
  int64_t true_at_most = 0;
  // activation: integer values (a Floor, Ceil), within [lo, hi] where a Clip bounds them
  // (the FPN level MultiScaleRoIAlign gives each RoI); unset: not known to be integers.
  std::optional<ValueRange> integers;
  // activation: a mask true where an `integers` activation equals one of its `one_of`
  // values (the RoIs of one level); 0: not such a mask.
  int64_t one_of = 0;
};

// Whether a constant's integer values are known and broadcast to `count` elements the way
// the folds read them: one value for every element, or one per element.
inline bool values_broadcast(const Tensor& t, int64_t count) {
  return t.values && count >= 0 && (t.values->size() == 1 || t.values->size() == static_cast<size_t>(count));
}

inline std::string shape_list(const Shape& s) { return "[" + shape_to_string(s) + "]"; }
// Attribute values that are not a shape (pads): "[0, 0, 1, 1]".
inline std::string value_list(const std::vector<int64_t>& v) {
  std::string out;
  for (int64_t x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
  return "[" + out + "]";
}

inline toml::array to_array(const std::vector<int64_t>& v) {
  toml::array a;
  for (int64_t x : v) a.push_back(x);
  return a;
}

// "/layer1/layer1.0/conv1/Conv" -> "layer1.0.conv1"; a name without scopes stays as it is.
std::string module_name(const std::string& node_name);

}  // namespace ridge::onnx_import
