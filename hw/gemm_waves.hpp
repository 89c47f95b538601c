// GEMM wave quantisation: a tiled GEMM kernel runs its output tiles in waves of one tile
// per compute unit (SM / CU), so a GEMM whose tiles do not fill the last wave leaves units
// idle. With T = ceil(M / tile rows) x ceil(N / tile columns) tiles on U units, the GEMM
// attains T / (ceil(T / U) x U) of the device's compute rate. 32 tiles on an A100's 108 SMs
// (a 4096-wide projection over a 128-token prompt, 128 x 128 tiles) use 30 % of it.
// Applied with [efficiency] compute_units and gemm_tile (a prediction, not the bound) to a
// layer that runs a GEMM in a 16- or 8-bit dtype (the tensor-core GEMMs whose tile the
// descriptor gives; fp32 and wider GEMMs tile otherwise and are left alone) and is not
// calibrated (a calibration has its own shape terms). Split-K, which libraries use to
// fill the units when K is long, is not modelled.
#pragma once

#include "hw/hardware_spec.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

// The fraction of the units a GEMM of M rows, dot products of length K and `flops` FLOPs
// in `dtype` keeps busy over its waves, in (0, 1]; 1 when the descriptor gives no units
// or tile, the dtype is wider than 16 bits or the layer runs no GEMM (M or K is 0).
double gemm_wave_efficiency(double flops, double rows, double reduction, const HardwareSpec& hw, DType dtype);

inline double gemm_wave_efficiency(const LayerWork& work, const HardwareSpec& hw, DType dtype) {
  return gemm_wave_efficiency(work.flops, work.gemm_positions, work.gemm_reduction, hw, dtype);
}

}  // namespace ridge
