// libFuzzer target: the command line as a whole. An input is an argument vector, one
// argument per line, run in-process through run_main (the `ridge` binary's own entry
// point) over every subcommand but `probe` (which measures the host for seconds), with
// the shipped models and descriptors, calibrated ones included, so that generate, plot,
// sweep and calibrate are driven, not only the readers.
//
// Nothing may be written outside a temporary folder: ridge runs there (made once, its
// contents removed after every input), and an argument that holds a '/' is kept only
// when it is one of the shipped input files below and does not follow an option (so
// `--output /anything` and `-o/anything` never run), or is the value of a --set (units
// such as "TB/s"); `@/` at the start of an argument
// stands for the source folder (the seeds' way to name them). stdout and stderr are
// discarded. The suite replays the seeds and regression inputs through the same function
// (tests/fuzz/replay_cli.cpp).
#include "tests/fuzz/fuzz_cli.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"

namespace {

namespace fs = std::filesystem;

// A stream buffer that accepts and drops everything (an ostream without one is in error).
class Discard : public std::streambuf {
 protected:
  int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// The shipped files an argument may name by path (the zoo's models and descriptors are
// reached by name). The large sweeps (full-zoo, llm-serving) are left out: one run of
// them takes seconds.
const std::vector<std::string>& shipped_paths() {
  static const std::vector<std::string> paths = {
      RIDGE_SOURCE_DIR "/configs/calibration/dev-host-1core.toml",
      RIDGE_SOURCE_DIR "/configs/calibration/dev-host-1core-calibrated.toml",
      RIDGE_SOURCE_DIR "/configs/calibration/data/dev-host-layers.csv",
      RIDGE_SOURCE_DIR "/configs/calibration/data/dev-host-networks.csv",
      RIDGE_SOURCE_DIR "/configs/calibration/data/deepbench-v100.csv",
      RIDGE_SOURCE_DIR "/configs/sweeps/hbm-bandwidth-whatif.toml",
      RIDGE_SOURCE_DIR "/configs/sweeps/ddr4-vs-gpu-batch.toml",
      RIDGE_SOURCE_DIR "/tests/data/sweep-small.toml",
      RIDGE_SOURCE_DIR "/tests/data/chip120.toml",
      RIDGE_SOURCE_DIR "/tests/data/onnx/gelu-chain.onnx",
      RIDGE_SOURCE_DIR "/tests/data/onnx/attention-ops.onnx",
  };
  return paths;
}

bool is_shipped_path(const std::string& a) {
  for (const std::string& p : shipped_paths())
    if (a == p) return true;
  return false;
}

// Made once: a private folder to run in (removed at exit), and stdout / stderr silenced.
struct Sandbox {
  fs::path folder;
  Sandbox() {
    std::string templ = (fs::temp_directory_path() / "ridge-fuzz-cli-XXXXXX").string();
    if (!::mkdtemp(templ.data())) std::abort();
    folder = templ;
    if (::chdir(templ.c_str()) != 0) std::abort();
    static Discard discard;
    std::cout.rdbuf(&discard);
    std::cerr.rdbuf(&discard);
  }
  ~Sandbox() {
    std::error_code ec;
    fs::remove_all(folder, ec);
  }
  // What a run wrote (reports, plots, descriptors) goes before the next one.
  void clear() const {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) fs::remove_all(e.path(), ec);
  }
};

constexpr size_t kMaxArgs = 32;
constexpr size_t kMaxArgBytes = 512;

}  // namespace

int ridge_fuzz::run_cli_input(const uint8_t* data, size_t size) {
  static const Sandbox sandbox;
  std::vector<std::string> args = {"ridge"};
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  while (start <= text.size() && args.size() <= kMaxArgs) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    args.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (args.size() > kMaxArgs + 1) return kSkipped;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string& a = args[i];
    if (a.size() > kMaxArgBytes || a.find('\0') != std::string::npos) return kSkipped;
    if (a.rfind("@/", 0) == 0) a = RIDGE_SOURCE_DIR + a.substr(1);  // seeds name shipped files as @/configs/...
    if (a.find('/') == std::string::npos) continue;
    // A --set value ("memory.HBM2.bandwidth=1 TB/s") is never read as a path; one that
    // starts with '-' would be read as an option (-o/anything), so it does not count.
    const bool set_value = (i > 1 && args[i - 1] == "--set" && a[0] != '-') || a.rfind("--set=", 0) == 0;
    if (set_value) continue;
    const bool after_option = i > 1 && !args[i - 1].empty() && args[i - 1][0] == '-' && args[i - 1] != "--hw";
    if (!is_shipped_path(a) || after_option) return kSkipped;
  }
  if (args.size() > 1 && args[1] == "probe") return kSkipped;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int status = ridge::cli::run_main(static_cast<int>(args.size()), argv.data());
  std::cout.clear();
  std::cerr.clear();
  sandbox.clear();
  return status;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ridge_fuzz::run_cli_input(data, size);
  return 0;
}
