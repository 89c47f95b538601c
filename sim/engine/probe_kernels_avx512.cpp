// The probe kernels (probe_kernels.inc) built for AVX512: 64-byte vectors; CMakeLists.txt
// gives this file its instruction-set flags.
#define RIDGE_PROBE_ISA avx512
#define RIDGE_PROBE_ISA_NAME "avx512"
#define RIDGE_VEC_BYTES 64
#include "sim/engine/probe_kernels.inc"
