// Shape helpers (see shape.hpp).
#include "sim/workload/shape.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge {

int64_t element_count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = checked_mul(n, d);
  return n;
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
