// Host ceilings by measurement (see host_probe.hpp).
#include "sim/engine/host_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <sstream>
#include <thread>

#include <Eigen/Dense>

#include "sim/base/format_units.hpp"

namespace ridge {

namespace {

using Clock = std::chrono::steady_clock;

// Runs `work(thread)` on `threads` threads at once, repeatedly for about `seconds`;
// returns the shortest wall time of one round.
double best_round(unsigned threads, double seconds, const std::function<void(unsigned)>& work) {
  double best = 1e30;
  auto start = Clock::now();
  int rounds = 0;
  while (rounds < 3 || std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    auto t0 = Clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& p : pool) p.join();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    if (++rounds >= 1000) break;
  }
  return best;
}

template <typename Scalar>
ProbedPeak probe_gemm(const char* dtype, unsigned max_threads, double seconds) {
  ProbedPeak p{dtype, 0, ""};
  using M = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  for (int n : {128, 256, 512}) {
    for (unsigned threads : {1u, max_threads}) {
      std::vector<M> a(threads, M::Random(n, n)), b(threads, M::Random(n, n)), c(threads, M(n, n));
      double t = best_round(threads, seconds, [&](unsigned i) { c[i].noalias() = a[i] * b[i]; });
      double flops = 2.0 * n * n * n * threads / t;
      if (flops > p.flops) {
        p.flops = flops;
        p.derivation = std::to_string(threads) + " thread(s) x Eigen GEMM " + std::to_string(n) + "^3 (2n^3 FLOPs) in " +
                       format_seconds(t) + ", best round";
      }
      if (max_threads == 1) break;
    }
  }
  return p;
}

double cache_size(int name, double fallback, bool& assumed) {
  long v = sysconf(name);
  assumed = v <= 0;
  return v > 0 ? static_cast<double>(v) : fallback;
}

// Bandwidth of a[i] = b[i] + s c[i] (3 streams of doubles: 2 read, 1 written) over a
// working set of `bytes` per thread.
double stream_bandwidth(double bytes, unsigned threads, double seconds) {
  const auto n = static_cast<Eigen::Index>(std::max(1024.0, bytes / (3 * sizeof(double))));
  std::vector<Eigen::ArrayXd> a(threads, Eigen::ArrayXd::Zero(n)), b(threads, Eigen::ArrayXd::Ones(n)),
      c(threads, Eigen::ArrayXd::Constant(n, 2.0));
  // Small working sets repeat the kernel inside a round so a round is not all overhead.
  const int inner = static_cast<int>(std::max(1.0, 4e6 / static_cast<double>(n)));
  double t = best_round(threads, seconds, [&](unsigned i) {
    for (int k = 0; k < inner; ++k) a[i] = b[i] + 0.5 * c[i];
  });
  return 3.0 * sizeof(double) * static_cast<double>(n) * inner * threads / t;
}

}  // namespace

unsigned max_probe_threads() {
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  const double by_memory = memory > 0 ? std::floor(memory / 2 / kProbeBytesPerThread) : 1;
  return static_cast<unsigned>(std::max(1.0, std::min<double>(std::thread::hardware_concurrency(), by_memory)));
}

ProbeResult probe_host(const ProbeOptions& options) {
  ProbeResult r;
  r.threads = options.threads > 0 ? options.threads : max_probe_threads();
  r.peaks.push_back(probe_gemm<float>("fp32", r.threads, options.seconds_per_point));
  r.peaks.push_back(probe_gemm<double>("fp64", r.threads, options.seconds_per_point));

  struct Level {
    const char* name;
    int sysconf_name;
    double fallback;
  };
  const Level caches[] = {{"L3", _SC_LEVEL3_CACHE_SIZE, 8.0 * (1 << 20)},
                          {"L2", _SC_LEVEL2_CACHE_SIZE, 1.0 * (1 << 20)},
                          {"L1", _SC_LEVEL1_DCACHE_SIZE, 32.0 * (1 << 10)}};
  // DRAM: 256 MiB per thread, beyond a core's share of any last-level cache (a VM may
  // report every CCD's L3 together as one size).
  bool assumed = false;
  const double dram_set = kProbeBytesPerThread;
  ProbedLevel dram{"DRAM", static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE)),
                   stream_bandwidth(dram_set, r.threads, options.seconds_per_point), ""};
  dram.derivation = "stream a = b + s c over " + format_bytes(dram_set) + " per thread, " + std::to_string(r.threads) +
                    " thread(s), best round; capacity: physical memory";
  r.levels.push_back(dram);
  for (const Level& c : caches) {
    double size = cache_size(c.sysconf_name, c.fallback, assumed);
    // Half the cache per thread (a shared cache is split between threads), so the set stays
    // inside it; at most 8 MiB, a core's share of a large L3.
    double set = std::min(size / 2 / (c.sysconf_name == _SC_LEVEL3_CACHE_SIZE ? r.threads : 1), 8.0 * (1 << 20));
    ProbedLevel l{c.name, size, stream_bandwidth(set, r.threads, options.seconds_per_point), ""};
    l.derivation = "stream a = b + s c over " + format_bytes(set) + " per thread, " + std::to_string(r.threads) +
                   " thread(s), best round; capacity: " + (assumed ? "assumed (sysconf gives none)" : "sysconf");
    r.levels.push_back(l);
  }
  return r;
}

std::string probe_descriptor(const ProbeResult& r, const std::string& date) {
  std::ostringstream out;
  out << "# This host, measured by `ridge probe` on " << date << " (" << r.threads << " thread(s)).\n"
      << "# Peaks are what ridge's own Eigen GEMM attains (built without -march=native it may\n"
      << "# use narrower vectors than the CPU has); bandwidths are the best round of a streaming\n"
      << "# kernel. Other load on the machine lowers every figure.\n"
      << "name = \"this host (probed, " << r.threads << " thread(s))\"\n"
      << "kind = \"cpu\"\nmodel = \"roofline\"\n"
      << "source = \"ridge probe, " << date << "\"\n\n[compute]\n";
  for (const ProbedPeak& p : r.peaks)
    out << p.dtype << " = \"" << format_fixed(p.flops / 1e9, 2) << " GFLOPS\"   # " << p.derivation << "\n";
  for (const ProbedLevel& l : r.levels)
    out << "\n[[memory]]\nname = \"" << l.name << "\"\ncapacity = \"" << format_fixed(l.capacity, 0) << " B\"\n"
        << "bandwidth = \"" << format_fixed(l.bandwidth / 1e9, 2) << " GB/s\"   # " << l.derivation << "\n";
  return out.str();
}

}  // namespace ridge
