// Which probe kernels this CPU can run (see probe_kernels.hpp): the variants CMake could
// build (RIDGE_PROBE_AVX512 / RIDGE_PROBE_AVX2), kept if cpuid says the CPU has them.
#include "sim/engine/probe_kernels.hpp"

namespace ridge {

namespace probe_isa {
namespace avx512 { ProbeKernels kernels(); }
namespace avx2 { ProbeKernels kernels(); }
namespace sse2 { ProbeKernels kernels(); }
}  // namespace probe_isa

std::vector<ProbeKernels> supported_probe_kernels() {
  std::vector<ProbeKernels> out;
#if defined(RIDGE_PROBE_AVX512)
  if (__builtin_cpu_supports("avx512f")) out.push_back(probe_isa::avx512::kernels());
#endif
#if defined(RIDGE_PROBE_AVX2)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) out.push_back(probe_isa::avx2::kernels());
#endif
  out.push_back(probe_isa::sse2::kernels());
  return out;
}

}  // namespace ridge
