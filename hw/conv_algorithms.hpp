// Which convolution algorithms a GPU library may run a layer with, written as data: a
// descriptor's optional [conv_algorithms] table. cuDNN's autotuner (cudnnFind*) times
// every algorithm a convolution's shape makes eligible and keeps the fastest, so ridge
// times a convolution as the fastest of its eligible algorithms, each with the
// multiplications it does and the units it runs on:
//   implicit_gemm    the direct count (DESIGN.md) at the dtype's peak; in fp16 on the
//                    tensor cores, with the output channels K rounded up to whole tiles
//                    of `tensor_core_output_tile` (a layer with K = 32 in 64-wide tiles
//                    does twice its count);
//   winograd         Winograd's F(m x m, r x r) (Lavin and Gray, "Fast Algorithms for
//                    Convolutional Neural Networks", 2016): an m x m output tile of one
//                    (input, output) channel pair takes (m + r - 1)^2 multiplies where the
//                    direct count takes m^2 r^2 (F(2x2, 3x3): 16 per 36, 4/9; F(4x4, 3x3):
//                    36 per 144, 1/4; F(4x4, 5x5): 64 per 400; the input, filter and
//                    output transforms are additions and are not counted); m is
//                    `winograd_tile` (2 unless given); eligible for a 2-D, r x r with r
//                    in `winograd_kernels` (3 unless given), unstrided, undilated,
//                    ungrouped convolution, in the dtypes `winograd_dtypes` names (every
//                    dtype when it names none);
//   padded_channels  an ungrouped fp16 convolution whose input or output channels are
//                    not a multiple of `tensor_core_channels`: cuDNN pads C and K up to
//                    multiples of it to run a tensor-core kernel (cuDNN 7.3.0 release
//                    notes), so it does the padded count (C = 3 padded to 8: 8/3 of
//                    it; K then in whole output tiles) at the fp16 peak; then the only
//                    algorithm;
//   gemm             a 1 x 1, unstrided, undilated, ungrouped convolution in one of
//                    `gemm_1x1_dtypes`: it is the GEMM of its shape (M = N x H x W
//                    positions, N = K, reduction C), timed as the dtype's linear
//                    layers are (their calibrated class); then the only algorithm.
// A calibration fits each algorithm's compute fraction apart (its class's library is the
// algorithm's name; `gemm` shares the linear class); `ridge analyze` and `ridge calibrate`
// both take the fastest. `--efficiency none` keeps only what does fewer multiplies than
// the direct count (Winograd): padding, tiles and the GEMM rate are a library's
// efficiency, not the bound (ConvAlgorithmRule::bound_only); a rule written
// `bound_only = true` applies there only (ConvAlgorithmRule::bound_only_rule).
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

struct ConvAlgorithmRule {
  std::string library;                 // what the rule describes ("cuDNN 7.6")
  std::string source;                  // where it comes from
  bool winograd = false;               // Winograd F(m x m, r x r) is eligible where the shape allows it
  std::vector<DType> winograd_dtypes;  // ... in these dtypes only (empty: every dtype)
  int64_t winograd_tile = 2;           // m: the output tile
  std::vector<int64_t> winograd_kernels{3};  // r: the square kernel sides it takes
  int64_t tensor_core_channels = 0;    // fp16 tensor-core kernels pad C and K to multiples of this (0: no rule)
  int64_t tensor_core_output_tile = 0; // fp16 tensor-core kernels compute K in tiles this wide (0: no rule)
  std::vector<DType> gemm_1x1_dtypes;  // 1 x 1 unstrided ungrouped convolutions run as GEMMs in these
  // `bound_only = true`: the rule counts only in the bound (`--efficiency none`,
  // HardwareSpec::drop_to_bound); the descriptor's own times count the direct
  // convolution. For a datasheet descriptor whose predictions a library's Winograd
  // kernels do not reach, but beat the direct count's bound.
  bool bound_only_rule = false;

  // The rule as a bound (`--efficiency none`): only the algorithms that do fewer
  // multiplies than the direct count.
  void bound_only() {
    tensor_core_channels = tensor_core_output_tile = 0;
    gemm_1x1_dtypes.clear();
  }
};

struct ConvAlgorithm {
  std::string name;         // "implicit_gemm", "winograd", "padded_channels", "gemm"
  double multiplies = 1;    // the multiplications it does per one of the direct count
  double peak_flops = 0;    // the peak of the units it runs on
  bool as_linear = false;   // timed as the dtype's linear layers (the `gemm` algorithm)
};

// `count` rounded up to a whole number of `multiple`s, per one of `count` (1 when either is 0).
double padded_share(int64_t count, int64_t multiple);

// Winograd F(m x m, r x r)'s multiplications per direct one: (m + r - 1)^2 / (m r)^2.
double winograd_multiplies(int64_t tile, int64_t kernel);

// The algorithms `rule` makes eligible for `work` in `dtype` on a device whose peak in
// that dtype is `peak_flops`; empty for a layer that is not a convolution of known
// geometry (the op class's own kernels then).
std::vector<ConvAlgorithm> eligible_conv_algorithms(const LayerWork& work, DType dtype, double peak_flops,
                                                    const ConvAlgorithmRule& rule);

// Reads a [conv_algorithms] table; errors are located InputErrors.
ConvAlgorithmRule read_conv_algorithms(const toml::table& table, const std::string& file);

}  // namespace ridge
