// The compute and bandwidth kernels `ridge probe` times, built once per x86 instruction set
// (SSE2, AVX2+FMA, AVX-512) in their own translation units and chosen at run time by what
// this CPU reports (cpuid), so a binary built on one machine still runs on an older one.
// A register-tiled, packed GEMM (the BLIS loop structure: a 6-row x 2-vector micro-tile
// held in registers, A and B packed into cache-sized panels), a STREAM triad and an
// in-place scale.
#pragma once

#include <vector>

namespace ridge {

struct ProbeKernels {
  const char* isa;  // "avx512", "avx2", "sse2" (or "generic" off x86)
  // C = A * B for n x n row-major matrices; n must be a multiple of kProbeGemmStep.
  void (*sgemm)(int n, const float* a, const float* b, float* c);
  void (*dgemm)(int n, const double* a, const double* b, double* c);
  // a[i] = b[i] + s * c[i] for i < n (STREAM triad).
  void (*triad)(long n, double* a, const double* b, const double* c, double s);
  // a[i] = s * a[i] for i < n: one stream read and written back in place, as an in-place
  // layer moves it (no line is fetched only to be overwritten, as the triad's a is).
  void (*scale_in_place)(long n, double* a, double s);
};

// GEMM sizes are multiples of this (the micro-tile's 6 rows and every ISA's 2-vector width).
constexpr int kProbeGemmStep = 96;

// Every variant this CPU can run, widest vectors first.
std::vector<ProbeKernels> supported_probe_kernels();

}  // namespace ridge
