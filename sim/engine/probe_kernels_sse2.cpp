// The probe kernels (probe_kernels.inc) with 16-byte vectors: SSE2, which every x86-64 CPU
// has, or the baseline vectors of another architecture.
#define RIDGE_PROBE_ISA sse2
#if defined(__x86_64__)
#define RIDGE_PROBE_ISA_NAME "sse2"
#else
#define RIDGE_PROBE_ISA_NAME "generic"
#endif
#define RIDGE_VEC_BYTES 16
#include "sim/engine/probe_kernels.inc"
