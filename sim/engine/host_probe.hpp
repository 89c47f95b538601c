// Measuring this host's ceilings, as the Empirical Roofline Toolkit does (`ridge probe`):
// peak FLOP/s per dtype from an Eigen GEMM at several sizes and thread counts, and
// bandwidth per memory level from a streaming kernel (a[i] = b[i] + s * c[i]) at working
// sets from L1 to DRAM. Every figure is the best repetition, with how it was obtained.
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

struct ProbeResult {
  unsigned threads = 1;
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
