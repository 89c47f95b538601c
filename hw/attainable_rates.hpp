// What a layer can attain on a piece of hardware: its compute rate, each memory level's
// bandwidth, and the ridge point between them. Timing (timing_terms), the Result
// stage's ridge point and available bandwidth, and `query` all take them from here, so
// a calibrated descriptor's reports agree with its timing.
//   device (the roof a plot draws, `ridge list hardware`): peak x [efficiency] compute,
//     level bandwidth x [efficiency] memory;
//   a layer of a class and dtype the calibration names: peak x e x W / (W + n_half) for
//     its W FLOPs (Hockney's half-performance size), times the shape factor of its
//     per-sample GEMM if it has one, level bandwidth x m (m per level:
//     a level the class has no fraction for streams at the nearest named level's
//     attained bandwidth, capped by its own);
//   any other layer: the device's.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hw/calibration.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

// The kernel a layer is timed as: its calibrated class (null: the device's efficiency),
// the algorithm (a convolution on a descriptor with [conv_algorithms], else ""), the
// multiplications it does per counted FLOP and the peak of the units it runs on. A
// convolution takes the fastest of its eligible algorithms (hw/conv_algorithms.hpp); on a
// calibrated descriptor only those the calibration has a class for compete, unless it has
// none of them.
struct KernelChoice {
  const ClassEfficiency* cal = nullptr;
  std::string algorithm;
  double multiplies = 1;
  double peak_flops = 0;
};
KernelChoice kernel_choice(const LayerWork& work, const HardwareSpec& hw, DType dtype);

// The calibration class that times `algorithm` for the layer: its op class, dtype and the
// algorithm's name, or for a convolution run as a GEMM the dtype's linear class (with the
// library [library] gives linear layers).
ClassKey algorithm_class(const LayerWork& work, DType dtype, const ConvAlgorithm& algorithm, const HardwareSpec& hw);

// The layer's compute time under `choice`: calibrated, (multiplies x W + n_half) /
// (peak x e x shape factor) for its W FLOPs; else multiplies x W / (peak x [efficiency]
// compute x GEMM wave efficiency); 0 without FLOPs or a peak.
double compute_seconds(const LayerWork& work, const HardwareSpec& hw, DType dtype, const KernelChoice& choice);

// The calibrated efficiency of this layer's op class and dtype (and algorithm), or null (the device's).
const ClassEfficiency* calibrated(const LayerWork& work, const HardwareSpec& hw, DType dtype);

// The level whose memory fraction `level` streams at: itself if `has_fraction[level]`,
// else the nearest level that has one (the outer, lower index, on a tie); -1 if none has.
int fraction_level(const std::vector<bool>& has_fraction, int level);

// Level `level`'s bandwidth x the memory efficiency (`cal`'s, per level, else the
// descriptor's); 0 for a level the hardware does not have.
double attainable_level_Bps(const HardwareSpec& hw, int level, const ClassEfficiency* cal = nullptr);

// The device's ridge point at `level`: peak[dtype] x compute efficiency over that
// level's bandwidth x memory efficiency (FLOP/B; 0 without the level or the dtype).
double ridge_point(const HardwareSpec& hw, DType dtype, size_t level);

// The slowdowns of a per-sample GEMM of P rows and dot products of length K:
// (1 + positions_half / P, 1 + reduction_half / K); a term whose half is 0, or which the
// layer lacks (0: not a GEMM), is 1. The timing and the calibration fit both use it.
std::pair<double, double> gemm_shape_slowdowns(double positions, double reduction, double positions_half,
                                               double reduction_half);

// The calibrated shape factor of a layer's per-sample GEMM, in (0, 1]: the inverse of
// its slowdowns, P / (P + positions_half) x K / (K + reduction_half).
double gemm_shape_factor(const LayerWork& work, const ClassEfficiency& cal);

// The compute rate the layer attains (FLOP/s of its counted W): W / compute_seconds
// (calibrated, peak x e x W / (multiplies x W + n_half) x its GEMM shape factor; peak x e
// for a layer without FLOPs); else peak x compute efficiency / multiplies.
double attainable_flops_per_s(const LayerWork& work, const HardwareSpec& hw, DType dtype);

// The layer's ridge point at `level`: the arithmetic intensity at which its compute
// time equals its traffic time there, attainable FLOP/s over attainable bandwidth, in
// the FLOPs its kernel runs (a Winograd convolution's fewer multiplies), as
// LayerResult::arithmetic_intensity counts them.
double layer_ridge_point(const LayerWork& work, const HardwareSpec& hw, DType dtype, int level);

}  // namespace ridge
