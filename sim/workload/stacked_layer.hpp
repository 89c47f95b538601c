// A layer applied to each of N items stacked on a leading axis of its per-sample input
// (a model file's `images = N`): the RoIs of a detector's mask and keypoint heads,
// [R, C, 14, 14] per image, convolved one RoI at a time. The op sees one item; its
// counts per sample are N times the item's, its parameters and weights its own once.
// `trips = T`: the layer runs T times on the same shapes (a layer of an ONNX Loop's body,
// once per trip): its work T times, its parameters once.
#pragma once

#include <vector>

#include "sim/workload/op.hpp"

namespace ridge {

// Evaluates a layer of type `op`: as it is, or with `images = N` in `attrs` on inputs
// whose first axis is N long, each input less that axis, the output with it in front.
// With `trips = T`, the result's work T times. Throws ShapeMismatch where an input does
// not lead with N, or for an op whose counts are not per item (attention, mixture of
// experts); an N or T below 1 is a located error.
OpResult evaluate_layer(const OpInfo& op, TomlFields& attrs, const std::vector<Shape>& inputs);

}  // namespace ridge
