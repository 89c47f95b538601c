// Tensor shapes. Shapes in a model are per sample (no batch dimension); the batch
// comes from the run settings and multiplies every activation count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridge {

using Shape = std::vector<int64_t>;

// Number of elements; throws CountOverflow past 2^63.
int64_t element_count(const Shape& s);

// The shape numpy broadcasting gives `a` and `b` (right-aligned; each pair of
// dimensions equal or one of them 1), or nothing when they do not broadcast.
std::optional<Shape> broadcast_shape(const Shape& a, const Shape& b);

// "96x55x55"; with a batch, "1x96x55x55".
std::string shape_to_string(const Shape& s);
std::string shape_to_string(const Shape& s, int64_t batch);

}  // namespace ridge
