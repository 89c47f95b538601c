// The probe kernels (probe_kernels.inc) built for AVX2: 32-byte vectors; CMakeLists.txt
// gives this file its instruction-set flags.
#define RIDGE_PROBE_ISA avx2
#define RIDGE_PROBE_ISA_NAME "avx2"
#define RIDGE_VEC_BYTES 32
#include "sim/engine/probe_kernels.inc"
