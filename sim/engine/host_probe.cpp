// Host ceilings by measurement (see host_probe.hpp).
#include "sim/engine/host_probe.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "sim/base/format_units.hpp"
#include "sim/base/toml_text.hpp"
#include "sim/engine/probe_kernels.hpp"

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

// Best FLOP/s of the packed GEMM over sizes, thread counts and every instruction set
// this CPU runs. Sizes stay small (a round of 192^3-384^3 takes well under a scheduler
// time slice at full speed), so on a shared machine some rounds run unpreempted.
template <typename Scalar>
ProbedPeak probe_gemm(const char* dtype, void (*ProbeKernels::*gemm)(int, const Scalar*, const Scalar*, Scalar*),
                      unsigned max_threads, double seconds) {
  ProbedPeak p{dtype, 0, ""};
  for (const ProbeKernels& kernels : supported_probe_kernels()) {
    for (int n : {2 * kProbeGemmStep, 3 * kProbeGemmStep, 4 * kProbeGemmStep}) {
      for (unsigned threads : {1u, max_threads}) {
        const auto size = static_cast<std::size_t>(n) * n;
        std::vector<std::vector<Scalar>> a(threads, std::vector<Scalar>(size, Scalar(0.5))),
            b(threads, std::vector<Scalar>(size, Scalar(0.25))), c(threads, std::vector<Scalar>(size));
        double t = best_round(threads, seconds, [&](unsigned i) { (kernels.*gemm)(n, a[i].data(), b[i].data(), c[i].data()); });
        double flops = 2.0 * n * n * n * threads / t;
        if (flops > p.flops) {
          p.flops = flops;
          p.derivation = std::to_string(threads) + " thread(s) x packed " + kernels.isa + " GEMM " + std::to_string(n) +
                         "^3 (2n^3 FLOPs) in " + format_seconds(t) + ", best round";
        }
        if (max_threads == 1) break;
      }
    }
  }
  return p;
}

double cache_size(int name, double fallback, bool& assumed) {
  long v = sysconf(name);
  assumed = v <= 0;
  return v > 0 ? static_cast<double>(v) : fallback;
}

// A level's bandwidth: the better of two kernels in the widest instruction set this CPU
// runs, each over a working set of `bytes` per thread: the STREAM triad a[i] = b[i] + s c[i]
// (3 streams of doubles counted: 2 read, 1 written; the written line is also fetched
// first, which STREAM does not count) and an in-place scale a[i] = -a[i] (read and
// written back: 2 streams, no fetch wasted; what an in-place layer does). On the
// development VM's DRAM the in-place kernel attains about 1.5x the triad's counted rate.
struct LevelBandwidth {
  double Bps = 0;
  std::string kernel;  // which of the two set it, with both figures
};

LevelBandwidth stream_bandwidth(double bytes, unsigned threads, double seconds) {
  const ProbeKernels k = supported_probe_kernels().front();
  const auto n = static_cast<long>(std::max(1024.0, bytes / (3 * sizeof(double))));
  const auto size = static_cast<std::size_t>(n);
  std::vector<std::vector<double>> a(threads, std::vector<double>(size)), b(threads, std::vector<double>(size, 1.0)),
      c(threads, std::vector<double>(size, 2.0));
  // Small working sets repeat the kernel inside a round so a round is not all overhead.
  const int inner = static_cast<int>(std::max(1.0, 4e6 / static_cast<double>(n)));
  const double t_triad = best_round(threads, seconds, [&](unsigned i) {
    for (int r = 0; r < inner; ++r) k.triad(n, a[i].data(), b[i].data(), c[i].data(), 0.5);
  });
  const double triad = 3.0 * sizeof(double) * static_cast<double>(n) * inner * threads / t_triad;
  a.clear();
  b.clear();
  c.clear();
  // The same bytes as one array (a sign flip is exact: no value drifts to a denormal).
  const long m = 3 * n;
  std::vector<std::vector<double>> x(threads, std::vector<double>(static_cast<std::size_t>(m), 1.0));
  const double t_scale = best_round(threads, seconds, [&](unsigned i) {
    for (int r = 0; r < inner; ++r) k.scale_in_place(m, x[i].data(), -1.0);
  });
  const double scale = 2.0 * sizeof(double) * static_cast<double>(m) * inner * threads / t_scale;
  const std::string both = "triad a = b + s c " + format_fixed(triad / 1e9, 2) + " GB/s, in-place a = -a " +
                           format_fixed(scale / 1e9, 2) + " GB/s";
  return scale > triad ? LevelBandwidth{scale, "in-place a = -a (" + both + ")"}
                       : LevelBandwidth{triad, "triad a = b + s c (" + both + ")"};
}

// The first line of `path` starting with `prefix`, what follows its ':' trimmed; or
// "not readable".
std::string proc_value(const char* path, const std::string& prefix) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto colon = line.find(':');
    std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
    const auto first = v.find_first_not_of(" \t");
    return first == std::string::npos ? "not readable" : v.substr(first);
  }
  return "not readable";
}

ProbeConditions host_conditions() {
  ProbeConditions c;
  c.isa = supported_probe_kernels().front().isa;
  c.clock = proc_value("/proc/cpuinfo", "cpu MHz");
  if (c.clock != "not readable") c.clock += " MHz (cpu MHz, /proc/cpuinfo)";
  std::ifstream governor("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  if (!(governor >> c.governor)) c.governor = "not readable";
  double load[1];
  if (getloadavg(load, 1) == 1) c.load1 = load[0];
  return c;
}

// PyTorch 1.13.1's kernel-library rule (hw/kernel_library.hpp, fp32 on a CPU) as a
// [library] table for a framework run on `threads` threads (the 1 x 1 rule only with
// one), each key with its PyTorch function in a comment.
std::string pytorch_1_13_cpu_library_table(unsigned threads) {
  std::ostringstream out;
  out << "[library]\n"
      << "framework = \"PyTorch 1.13.1, CPU, fp32, " << threads << (threads == 1 ? " thread" : " threads") << "\"\n"
      << "source = \"aten/src/ATen/native/Convolution.cpp, ConvParams::use_mkldnn (v1.13.1)\"\n"
      << "convolution = \"onednn\"                  # aten::mkldnn_convolution\n"
      << "fallback = \"blas\"                       # aten::_slow_conv2d_forward: im2col + BLAS sgemm\n"
      << "linear = \"blas\"                         # aten::addmm\n";
  if (threads == 1)
    out << "fallback_pointwise_below_batch = 16     # 1 x 1, stride 1, batch < 16, one thread\n";
  else
    out << "fallback_pointwise_below_batch = 0      # the 1 x 1 rule holds with one thread only\n";
  out << "fallback_small_input_elements = 20480   # batch 1, 1 group, a kernel side <= 3, input elements <= this\n"
      << "fallback_small_kernel_side = 3\n";
  return out.str();
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
  r.conditions = host_conditions();
  r.peaks.push_back(probe_gemm<float>("fp32", &ProbeKernels::sgemm, r.threads, options.seconds_per_point));
  r.peaks.push_back(probe_gemm<double>("fp64", &ProbeKernels::dgemm, r.threads, options.seconds_per_point));

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
  const LevelBandwidth dram_Bps = stream_bandwidth(dram_set, r.threads, options.seconds_per_point);
  ProbedLevel dram{"DRAM", static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE)),
                   dram_Bps.Bps, ""};
  dram.derivation = dram_Bps.kernel + " over " + format_bytes(dram_set) + " per thread, " + std::to_string(r.threads) +
                    " thread(s), best rounds; capacity: physical memory";
  r.levels.push_back(dram);
  for (const Level& c : caches) {
    double size = cache_size(c.sysconf_name, c.fallback, assumed);
    // Half the cache per thread (a shared cache is split between threads), so the set stays
    // inside it; at most 8 MiB, a core's share of a large L3.
    double set = std::min(size / 2 / (c.sysconf_name == _SC_LEVEL3_CACHE_SIZE ? r.threads : 1), 8.0 * (1 << 20));
    const LevelBandwidth Bps = stream_bandwidth(set, r.threads, options.seconds_per_point);
    ProbedLevel l{c.name, size, Bps.Bps, ""};
    l.derivation = Bps.kernel + " over " + format_bytes(set) + " per thread, " + std::to_string(r.threads) +
                   " thread(s), best rounds; capacity: " + (assumed ? "assumed (sysconf gives none)" : "sysconf");
    r.levels.push_back(l);
  }
  return r;
}

std::string probe_descriptor(const ProbeResult& r, const std::string& date) {
  std::ostringstream out;
  out << "# This host, measured by `ridge probe` on " << date << " (" << r.threads << " thread(s)).\n"
      << "# Peaks are what ridge's packed, register-tiled GEMM attains in the widest instruction\n"
      << "# set this CPU runs; bandwidths are the best round of a STREAM triad or an in-place\n"
      << "# scale, whichever is faster (each level's comment gives both). Other load on the\n"
      << "# machine lowers every figure.\n"
      << "# conditions: " << toml_comment_text("threads = " + std::to_string(r.threads) + "; isa = " + r.conditions.isa +
                                             "; clock = " + r.conditions.clock + "; governor = " + r.conditions.governor +
                                             "; load1 = " + (r.conditions.load1 < 0 ? "unknown" : format_fixed(r.conditions.load1, 2)) +
                                             "; date = " + date)
      << "\n"
      << "name = \"this host (probed, " << r.threads << " thread(s))\"\n"
      << "kind = \"cpu\"\nmodel = \"roofline\"\n"
      << "source = \"ridge probe, " << date << "\"\n\n[compute]\n";
  for (const ProbedPeak& p : r.peaks)
    out << p.dtype << " = \"" << format_fixed(p.flops / 1e9, 2) << " GFLOPS\"   # " << p.derivation << "\n";
  for (const ProbedLevel& l : r.levels)
    out << "\n[[memory]]\nname = \"" << l.name << "\"\ncapacity = \"" << format_fixed(l.capacity, 0) << " B\"\n"
        << "bandwidth = \"" << format_fixed(l.bandwidth / 1e9, 2) << " GB/s\"   # " << l.derivation << "\n";
  out << "\n# Which library PyTorch runs each convolution and linear layer in, for a calibration to\n"
      << "# measured PyTorch layers (scripts/measure-layers). Not measured: no timing shows a\n"
      << "# dispatch rule, so this is PyTorch 1.13.1's, read from its source, for as many threads as\n"
      << "# the probe used. Another framework or version needs its own rule; without the table a\n"
      << "# calibration fits one class per op class and dtype.\n"
      << pytorch_1_13_cpu_library_table(r.threads);
  return out.str();
}

}  // namespace ridge
