// Shape helpers (see shape.hpp).
#include "sim/workload/shape.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge {

int64_t element_count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = checked_mul(n, d);
  return n;
}

std::optional<Shape> broadcast_shape(const Shape& a, const Shape& b) {
  const Shape& longer = a.size() >= b.size() ? a : b;
  const Shape& shorter = a.size() >= b.size() ? b : a;
  Shape out = longer;
  size_t offset = longer.size() - shorter.size();
  for (size_t i = 0; i < shorter.size(); ++i) {
    int64_t x = longer[offset + i], y = shorter[i];
    if (x == y || y == 1) continue;
    if (x != 1) return std::nullopt;
    out[offset + i] = y;
  }
  return out;
}

std::string shape_to_string(const Shape& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i]);
  return out.empty() ? "scalar" : out;
}

std::string shape_to_string(const Shape& s, int64_t batch) {
  return std::to_string(batch) + (s.empty() ? "" : "x" + shape_to_string(s));
}

}  // namespace ridge
