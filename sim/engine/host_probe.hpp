// Measuring this host's ceilings, as the Empirical Roofline Toolkit does (`ridge probe`):
// peak FLOP/s per dtype from a packed GEMM built for the host ISA (probe_kernels.hpp) at
// several sizes and thread counts, and bandwidth per memory level from a STREAM triad
// (a[i] = b[i] + s * c[i]) at working sets from L1 to DRAM. Every figure is the best repetition, with how it was obtained.
// The descriptor also carries PyTorch 1.13's kernel-library rule (hw/kernel_library.hpp),
// which no timing measures.
#pragma once

#include <string>
#include <vector>

namespace ridge {

struct ProbedPeak {
  std::string dtype;  // "fp32", "fp64"
  double flops = 0;   // best FLOP/s over sizes and thread counts
  std::string derivation;
};

struct ProbedLevel {
  std::string name;       // "L1", "L2", "L3", "DRAM"
  double capacity = 0;    // bytes (from sysconf, or assumed)
  double bandwidth = 0;   // best B/s of the streaming kernel at `working_set`
  std::string derivation;
};

// What the figures were measured under, recorded in the descriptor's comments.
struct ProbeConditions {
  std::string isa;       // the widest kernel instruction set the CPU runs
  std::string clock;     // "2596 MHz" (cpu MHz in /proc/cpuinfo), or "not readable"
  std::string governor;  // cpufreq scaling_governor, or "not readable" (as in a VM)
  double load1 = -1;     // 1-minute load average at the start (getloadavg), -1: unknown
};

struct ProbeResult {
  unsigned threads = 1;
  ProbeConditions conditions;
  std::vector<ProbedPeak> peaks;
  std::vector<ProbedLevel> levels;  // DRAM first, then caches far to near
};

struct ProbeOptions {
  unsigned threads = 0;         // 0: all hardware threads
  double seconds_per_point = 0.2;  // repetitions per measurement stop after this
};

// The most threads a probe may use: this machine's hardware threads, and no more than
// fit in half its physical memory at kProbeBytesPerThread each (the DRAM stream's
// working set). 64 threads on a small machine ended in std::bad_alloc.
constexpr double kProbeBytesPerThread = 256.0 * (1 << 20);
unsigned max_probe_threads();

ProbeResult probe_host(const ProbeOptions& options);

// A hardware descriptor (TOML) for the probed host, every figure with its derivation.
std::string probe_descriptor(const ProbeResult& r, const std::string& date);

}  // namespace ridge
