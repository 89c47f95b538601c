// GEMM wave quantisation (see gemm_waves.hpp).
#include "hw/gemm_waves.hpp"

#include <cmath>

#include "sim/workload/dtype.hpp"

namespace ridge {

double gemm_wave_efficiency(double flops, double rows, double reduction, const HardwareSpec& hw, DType dtype) {
  if (hw.compute_units <= 0 || hw.gemm_tile_rows <= 0 || hw.gemm_tile_cols <= 0) return 1.0;
  if (dtype_bytes(dtype) > 2) return 1.0;
  if (flops <= 0 || rows <= 0 || reduction <= 0) return 1.0;
  const double columns = flops / (2.0 * rows * reduction);  // N of the M x N output
  const double tiles = std::ceil(rows / hw.gemm_tile_rows) * std::ceil(columns / hw.gemm_tile_cols);
  const double units = hw.compute_units;
  return tiles / (std::ceil(tiles / units) * units);
}

}  // namespace ridge
