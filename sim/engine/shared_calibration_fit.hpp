// The shared-term fit of `ridge calibrate --shared`: every op class and dtype fitted at
// once, with the physics a kernel pays whatever it computes shared across them, so that
// a class with few rows of one shape (DeepBench's linear layers once DeepSpeech is held
// out) borrows what the other classes' rows show. Per measured kernel (F FLOPs, B bytes
// at the level that serves its working set, peak P of its dtype, bandwidth W of that level):
//   time = link + kernels x t0 + max((F + n_half) / (P x e_c), B / (W x e_m))
//   t0      one fixed time per kernel for the device (launch, the tail of the last wave,
//           synchronisation), which adds to whichever side bounds the kernel;
//   e_m     the fraction of a level's bandwidth a kernel streams at, one per dtype;
//   n_half  Hockney's half-performance size, one per dtype;
//   e_c     the compute fraction, one per op class and dtype (how well its kernels use
//           the dtype's units: a tensor-core GEMM differs from an implicit-GEMM convolution).
// e_c and e_m are capped at 1 (a bound, not a speed-up). Fitted by Levenberg-Marquardt on
// log(predicted / measured) with Huber weights, as the per-class fit; the result is written
// per class (each class carries its dtype's e_m for every level and its n_half) plus the
// calibration's kernel_time t0, so `ridge analyze` predicts with the same expression.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "sim/engine/calibration_fit.hpp"
#include "sim/engine/calibration_model.hpp"
#include "sim/workload/op_class.hpp"

namespace ridge::calibration_model {

// Fits the groups of `members` (indices into `terms`) together; `bandwidth` per memory
// level, `launch_s` the descriptor's time per kernel (a start for t0). Each group's
// ClassFit has the per-class layout (log e_c, log n_half, log e_m per level), overlap on,
// and kernel_s = the fitted t0.
std::map<ClassKey, ClassFit> fit_shared(const std::map<ClassKey, std::vector<size_t>>& members,
                                                         const std::vector<Terms>& terms, const std::vector<double>& bandwidth,
                                                         double launch_s);

}  // namespace ridge::calibration_model
