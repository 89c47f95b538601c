// Pooling over R = 1, 2 or 3 spatial axes ([C, L], [C, H, W], [C, D, H, W]; the ops'
// names end in 1d, 2d, 3d): max and average with a fixed window, their adaptive forms
// (output size given, window per cell as PyTorch computes it) and global average
// pooling. A window is the product of one range per axis, so its taps and the sums
// below are products of per-axis counts.
// FLOPs: a max over k elements is k-1 comparisons; an average is k-1 adds + 1 divide.
// PyTorch clips a fixed window to the input: a tap in the padding, or past the end in
// ceil mode, is neither compared nor added, so only the taps inside the input count
// (googlenet's 3 x 3 stride-1 pools on 7 x 7 maps: 7.4 of 9 per output on average).
// Saved for backward (PyTorch 1.13's autograd, measured by scripts/measure-saved-activations):
// max pooling its input and int64 argmax indices; average pooling its input (avg_pool2d
// and adaptive_avg_pool2d keep `self`; at a 1 x 1 output PyTorch takes a mean, which
// 1.13 keeps `self` for as well).
#include <algorithm>
#include <numeric>

#include "sim/base/checked_math.hpp"
#include "sim/base/floor_sum.hpp"
#include "sim/workload/ops/ops.hpp"
#include "sim/workload/ops/spatial.hpp"

namespace ridge::ops {

namespace {

int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  int64_t effective = checked_add(checked_mul(d, k - 1), 1);
  int64_t padded = checked_add(in, checked_mul(2, p));
  if (effective > padded)
    throw ShapeMismatch("pooling window " + std::to_string(effective) + " is larger than the padded input " +
                        std::to_string(padded));
  int64_t span = padded - effective;
  int64_t out = span / s + (ceil_mode && span % s != 0 ? 1 : 0) + 1;  // no span + s - 1: s may be near 2^63
  // PyTorch: the last window must start inside the input or left padding, i.e. not
  // (out - 1) x s >= in + p, written without the product (it may pass 2^63).
  if (ceil_mode && out - 1 > (in + p - 1) / s) --out;
  return out;
}

// Sum over output cells of the adaptive window size along one axis, where cell i
// covers [floor(i*in/out), ceil((i+1)*in/out)). In closed form this is
// in + out - gcd(in, out): sum_{i<out} floor(i*in/out) = ((in-1)(out-1) + g - 1)/2, and
// the ceilings add in (the i = out term) and out - g (every i*in not divisible by out).
// A loop over the cells would take forever for a huge output_size.
int64_t adaptive_window_sum(int64_t in, int64_t out) {
  return checked_add(in, out) - std::gcd(in, out);
}

// One axis of a fixed window: over the output cells o < out, how many of the taps
// o s - p + j d (j < k) fall inside [0, in), and how many cells have at least one.
struct AxisTaps {
  int64_t inside;
  int64_t cells_with_one;
};

// The sum over taps j < k of #{o < out : o s <= x - j d}, without a loop over j (the
// kernel may be as long as the padded input).
int64_t cells_at_or_below_summed(int64_t x, int64_t k, int64_t d, int64_t out, int64_t s) {
  if (x < 0) return 0;
  int64_t reach = std::min(k, x / d + 1);  // taps with x - j d >= 0
  int64_t last_cell = checked_mul(out - 1, s);
  // Taps with x - j d >= (out - 1) s count every cell.
  int64_t full = x >= last_cell ? std::min(reach, (x - last_cell) / d + 1) : 0;
  // The others, j in [full, reach), count floor((x - j d) / s) + 1 cells; with
  // i = reach - 1 - j that is floor((x - (reach - 1) d + i d) / s) + 1, i < reach - full.
  int64_t partial = reach - full;
  return checked_add(checked_add(checked_mul(full, out), partial), floor_sum(partial, s, d, x - (reach - 1) * d));
}

AxisTaps axis_taps(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t out) {
  // Tap j of cell o is inside when p - j d <= o s <= in - 1 + p - j d.
  int64_t inside = cells_at_or_below_summed(in - 1 + p, k, d, out, s) - cells_at_or_below_summed(p - 1, k, d, out, s);
  // Every window starts at or before in - 1 and ends at or after 0 (p <= k / 2 and
  // pool_out's last-window rule). With d < in its taps, d apart, cannot all miss
  // [0, in); with d >= in at most one is inside, so the cells with one are the taps inside.
  return {inside, d >= in ? inside : out};
}

// window_elems_total: the window elements inside the input, summed over the output;
// windows: the outputs whose window has at least one (a max over none compares nothing).
OpResult finish(const Shape& x, Shape out, int64_t window_elems_total, int64_t windows, bool is_max) {
  OpResult r;
  r.output = std::move(out);
  LayerCounts& n = r.counts;
  n.input_elems = element_count(x);
  n.output_elems = element_count(r.output);
  n.flops = is_max ? window_elems_total - windows : window_elems_total;
  n.bwd_input_other_flops = is_max ? n.output_elems : window_elems_total;  // scatter / spread the gradient
  n.saves_input = true;
  if (is_max) n.saved_aux_bytes = checked_mul(n.output_elems, 8);  // int64 argmax indices
  return r;
}

template <int R>
OpResult fixed_window(TomlFields& a, const std::vector<Shape>& in, bool is_max) {
  const Shape& x = spatial_input(in, R, op_name(is_max ? "max_pool" : "avg_pool", R));
  std::vector<int64_t> k = spatial_attr(a, "kernel", R, 0);
  if (k[0] == 0) a.fail("kernel", "is required");
  std::vector<int64_t> s = spatial_attr(a, "stride", R, 0);
  if (s[0] == 0) s = k;  // PyTorch: stride defaults to the kernel
  std::vector<int64_t> p = spatial_attr(a, "padding", R, 0, true);
  std::vector<int64_t> d = is_max ? spatial_attr(a, "dilation", R, 1) : std::vector<int64_t>(R, 1);
  bool ceil_mode = a.boolean("ceil_mode", false);
  for (size_t i = 0; i < R; ++i)
    if (p[i] > k[i] / 2) a.fail("padding", "must be at most half the kernel");
  Shape out = {x[0]};
  int64_t inside = x[0], with_one = x[0];
  for (size_t i = 0; i < R; ++i) {
    out.push_back(pool_out(x[i + 1], k[i], s[i], p[i], d[i], ceil_mode));
    AxisTaps t = axis_taps(x[i + 1], k[i], s[i], p[i], d[i], out.back());
    inside = checked_mul(inside, t.inside);
    with_one = checked_mul(with_one, t.cells_with_one);
  }
  return finish(x, std::move(out), inside, with_one, is_max);
}

template <int R>
OpResult adaptive(TomlFields& a, const std::vector<Shape>& in, bool is_max) {
  const Shape& x = spatial_input(in, R, op_name(is_max ? "adaptive_max_pool" : "adaptive_avg_pool", R));
  std::vector<int64_t> size = spatial_attr(a, "output_size", R, 0);
  if (size[0] == 0) a.fail("output_size", "is required");
  Shape out = {x[0]};
  int64_t window_total = x[0];
  for (size_t i = 0; i < R; ++i) {
    out.push_back(size[i]);
    window_total = checked_mul(window_total, adaptive_window_sum(x[i + 1], size[i]));
  }
  int64_t windows = element_count(out);  // adaptive windows are never empty
  return finish(x, std::move(out), window_total, windows, is_max);
}

}  // namespace

template <int R>
OpResult max_pool(TomlFields& a, const std::vector<Shape>& in) {
  return fixed_window<R>(a, in, true);
}
template <int R>
OpResult avg_pool(TomlFields& a, const std::vector<Shape>& in) {
  return fixed_window<R>(a, in, false);
}
template <int R>
OpResult adaptive_max_pool(TomlFields& a, const std::vector<Shape>& in) {
  return adaptive<R>(a, in, true);
}
template <int R>
OpResult adaptive_avg_pool(TomlFields& a, const std::vector<Shape>& in) {
  return adaptive<R>(a, in, false);
}

template <int R>
OpResult global_avg_pool(TomlFields&, const std::vector<Shape>& in) {
  const Shape& x = spatial_input(in, R, op_name("global_avg_pool", R));
  Shape out(R + 1, 1);
  out[0] = x[0];
  return finish(x, std::move(out), element_count(x), x[0], false);
}

#define RIDGE_POOLS_AT(R)                                                        \
  template OpResult max_pool<R>(TomlFields&, const std::vector<Shape>&);          \
  template OpResult avg_pool<R>(TomlFields&, const std::vector<Shape>&);          \
  template OpResult adaptive_max_pool<R>(TomlFields&, const std::vector<Shape>&); \
  template OpResult adaptive_avg_pool<R>(TomlFields&, const std::vector<Shape>&); \
  template OpResult global_avg_pool<R>(TomlFields&, const std::vector<Shape>&);
RIDGE_POOLS_AT(1)
RIDGE_POOLS_AT(2)
RIDGE_POOLS_AT(3)
#undef RIDGE_POOLS_AT

}  // namespace ridge::ops
