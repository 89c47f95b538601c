// The input of a convolution, pool or resize over 1, 2 or 3 spatial axes: [C, L],
// [C, H, W] or [C, D, H, W] per sample, and the names its messages give the axes.
// Each such op is one function template over the rank R; the registry names the
// instances by PyTorch's suffix (conv1d, conv2d, conv3d).
#pragma once

#include <string>
#include <vector>

#include "sim/workload/op.hpp"

namespace ridge::ops {

inline std::string spatial_layout(size_t rank) {
  static constexpr const char* kLayouts[] = {"[C]", "[C, L]", "[C, H, W]", "[C, D, H, W]"};
  return kLayouts[rank];
}

// The name of spatial axis `axis` of `rank`: length; height, width; depth, height, width.
inline const char* axis_name(size_t rank, size_t axis) {
  static constexpr const char* kNames[] = {"depth", "height", "width"};
  return rank == 1 ? "length" : kNames[3 - rank + axis];
}

// The op's name at rank R: op_name("conv", 3) = "conv3d".
inline std::string op_name(const std::string& family, size_t rank) { return family + std::to_string(rank) + "d"; }

// A window attribute (kernel, stride, padding, ...): `k` for every axis or one value per
// axis, `[l]`, `[h, w]`, `[d, h, w]`; each > 0 (>= 0 when `allow_zero`); `fallback` on
// every axis when the layer does not give it (spatial.cpp).
std::vector<int64_t> spatial_attr(TomlFields& a, std::string_view key, size_t rank, int64_t fallback,
                                  bool allow_zero = false);

// What a convolution (or transposed one) of `channels` inputs reads from its layer:
// out_channels, the window per spatial axis, groups (dividing both channel counts) and bias.
struct ConvAttributes {
  int64_t out = 0;
  std::vector<int64_t> kernel, stride, padding, dilation;
  int64_t groups = 1;
  bool bias = true;
};
ConvAttributes conv_attributes(TomlFields& a, size_t rank, int64_t channels);

// in[0], checked to have C and `rank` spatial axes (spatial.cpp).
const Shape& spatial_input(const std::vector<Shape>& in, size_t rank, const std::string& op);

}  // namespace ridge::ops
