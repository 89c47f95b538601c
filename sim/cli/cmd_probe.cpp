// `ridge probe [--output host.toml] [--threads N]`: measures this host's peak FLOP/s and
// bandwidth per memory level and writes a descriptor for it.
#include <chrono>
#include <ctime>
#include <iostream>
#include <thread>

#include "hw/descriptor_reader.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/host_probe.hpp"

namespace ridge::cli {

namespace {
const CommandHelp kHelp = {
    "ridge probe [--output host.toml] [--threads N]",
    "Measures this host like the Empirical Roofline Toolkit: peak FLOP/s per dtype with a packed GEMM built for each\n"
    "instruction set the CPU has (AVX-512, AVX2+FMA, SSE2), at several sizes on one and N threads, and bandwidth\n"
    "per level with a STREAM triad (a = b + s c) at working sets\n"
    "from L1 to DRAM (cache sizes from sysconf). Writes a descriptor with each figure's derivation in a comment.\n"
    "Takes about 10-20 s; other load on the machine lowers every figure.",
    {"ridge probe --output host.toml", "ridge probe --threads 1 --output host-1core.toml"}};
}  // namespace

int run_probe(const Args& args) {
  std::string output;
  int threads = 0;
  bool quiet = false;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("output,o", po::value(&output), "write the descriptor here (else stdout)")(
      "threads", po::value(&threads)->default_value(0), "threads to measure with (0: all hardware threads, as many as fit in half the memory)");
  add_quiet_option(visible, quiet);
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  const unsigned most = max_probe_threads();
  if (threads < 0 || static_cast<unsigned>(threads) > most)
    throw InputError({}, "--threads must be between 0 and " + std::to_string(most) + " (got " + std::to_string(threads) + ")",
                     "this machine has " + std::to_string(std::thread::hardware_concurrency()) +
                         " hardware threads, and each probe thread streams 256 MiB (at most half the memory)");
  ProbeOptions options;
  options.threads = static_cast<unsigned>(threads);
  ProbeResult r;
  {
    ProgressLine progress(std::cerr, progress_wanted(quiet), "probe: measuring peak FLOP/s and bandwidth per level");
    r = probe_host(options);
  }
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char date[16];
  std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
  std::string text = probe_descriptor(r, date);
  HardwareDescriptor::from_text(text, output.empty() ? "<probe>" : output, "probe").spec();  // it must read back
  write_output(output, [&](std::ostream& os) { os << text; });
  return 0;
}

}  // namespace ridge::cli
