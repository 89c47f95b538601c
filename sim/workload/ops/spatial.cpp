// The input and the window attributes of convolutions, pools and resizing over 1, 2 or 3
// spatial axes (spatial.hpp): one integer for every axis, or one per axis.
#include "sim/workload/ops/spatial.hpp"

#include <string>

namespace ridge::ops {

std::vector<int64_t> spatial_attr(TomlFields& a, std::string_view key, size_t rank, int64_t fallback,
                                  bool allow_zero) {
  if (rank == 2) {  // the 2-D ops' messages: "an integer or a pair [h, w] of integers"
    auto [h, w] = a.pair(key, fallback, allow_zero);
    return {h, w};
  }
  const toml::node* n = a.node(key);
  if (!n) return std::vector<int64_t>(rank, fallback);
  std::vector<int64_t> v = n->is_array() ? a.integer_list(key, true, true) : std::vector<int64_t>(rank, a.integer(key));
  if (v.size() != rank)
    a.fail(key, rank == 1 ? "must be an integer or a list [l] of one integer"
                          : "must be an integer or a triple [d, h, w] of integers");
  for (int64_t e : v)
    if (e < 0 || (e == 0 && !allow_zero))
      a.fail(key, std::string("must be ") + (allow_zero ? "zero or positive" : "positive") + " (got " +
                      std::to_string(e) + ")");
  return v;
}

ConvAttributes conv_attributes(TomlFields& a, size_t rank, int64_t channels) {
  ConvAttributes c;
  c.out = a.positive("out_channels");
  c.kernel = spatial_attr(a, "kernel", rank, 0);
  if (c.kernel[0] == 0) a.fail("kernel", "is required");
  c.stride = spatial_attr(a, "stride", rank, 1);
  c.padding = spatial_attr(a, "padding", rank, 0, true);
  c.dilation = spatial_attr(a, "dilation", rank, 1);
  c.groups = a.positive("groups", 1);
  c.bias = a.boolean("bias", true);
  if (channels % c.groups || c.out % c.groups)
    throw ShapeMismatch("groups = " + std::to_string(c.groups) + " must divide both the input channels (" +
                        std::to_string(channels) + ") and out_channels (" + std::to_string(c.out) + ")");
  return c;
}

const Shape& spatial_input(const std::vector<Shape>& in, size_t rank, const std::string& op) {
  if (in[0].size() != rank + 1)
    throw ShapeMismatch(op + " needs a " + spatial_layout(rank) + " input, got " + shape_to_string(in[0]));
  return in[0];
}

}  // namespace ridge::ops
