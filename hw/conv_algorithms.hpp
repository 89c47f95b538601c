// Which convolution algorithms a GPU library may run a layer with, written as data: a
// descriptor's optional [conv_algorithms] table. cuDNN's autotuner (cudnnFind*) times
// every algorithm a convolution's shape makes eligible and keeps the fastest, so ridge
// times a convolution as the fastest of its eligible algorithms, each with the
// multiplications it does and the units it runs on:
//   implicit_gemm    the direct count (DESIGN.md) at the dtype's peak; in fp16 on the
//                    tensor cores, with the output channels K rounded up to whole tiles
//                    of `tensor_core_output_tile` (a layer with K = 32 in 64-wide tiles
//                    does twice its count);
//   winograd         Winograd's F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for
//                    Convolutional Neural Networks", 2016): a 2 x 2 output tile of one
//                    (input, output) channel pair takes 4 x 4 = 16 multiplies where the
//                    direct count takes 2 x 2 x 9 = 36, so 4/9 of the direct count
//                    (1 / 2.25; the input, filter and output transforms are additions
//                    and are not counted); eligible for a 2-D, 3 x 3, unstrided,
//                    undilated, ungrouped convolution, in the dtypes `winograd_dtypes`
//                    names (every dtype when it names none);
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
// both take the fastest.
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
  bool winograd = false;               // Winograd F(2x2, 3x3) is eligible where the shape allows it
  std::vector<DType> winograd_dtypes;  // ... in these dtypes only (empty: every dtype)
  int64_t tensor_core_channels = 0;    // fp16 tensor-core kernels pad C and K to multiples of this (0: no rule)
  int64_t tensor_core_output_tile = 0; // fp16 tensor-core kernels compute K in tiles this wide (0: no rule)
  std::vector<DType> gemm_1x1_dtypes;  // 1 x 1 unstrided ungrouped convolutions run as GEMMs in these
};

struct ConvAlgorithm {
  std::string name;         // "implicit_gemm", "winograd", "padded_channels", "gemm"
  double multiplies = 1;    // the multiplications it does per one of the direct count
  double peak_flops = 0;    // the peak of the units it runs on
  bool as_linear = false;   // timed as the dtype's linear layers (the `gemm` algorithm)
};

// `count` rounded up to a whole number of `multiple`s, per one of `count` (1 when either is 0).
double padded_share(int64_t count, int64_t multiple);

// Winograd F(2x2, 3x3)'s multiplications per direct one: 16 / 36.
inline constexpr double kWinogradF2x2_3x3 = 16.0 / 36.0;

// The algorithms `rule` makes eligible for `work` in `dtype` on a device whose peak in
// that dtype is `peak_flops`; empty for a layer that is not a convolution of known
// geometry (the op class's own kernels then).
std::vector<ConvAlgorithm> eligible_conv_algorithms(const LayerWork& work, DType dtype, double peak_flops,
                                                    const ConvAlgorithmRule& rule);

// Reads a [conv_algorithms] table; errors are located InputErrors.
ConvAlgorithmRule read_conv_algorithms(const toml::table& table, const std::string& file);

}  // namespace ridge
