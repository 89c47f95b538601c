// `ridge sweep FILE.toml`: every point of a sweep file's cartesian product, in
// parallel, as CSV or JSON rows in point order (the same bytes for any --jobs), with a
// short summary for people. Ctrl-C stops the workers and leaves no output file.
#include <atomic>
#include <csignal>
#include <iostream>
#include <sstream>
#include <thread>

#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/parallel/parallel_sweep.hpp"
#include "sim/views/parallel_sweep_report.hpp"
#include "sim/views/sweep_report.hpp"
#include "sim/engine/sweep_run.hpp"
#include "sim/engine/sweep_summary.hpp"

namespace ridge::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_sigint(int) { g_interrupted.store(true); }

// Installs the SIGINT handler for the lifetime of the sweep, restoring the old one after.
class SigintGuard {
 public:
  SigintGuard() { old_ = std::signal(SIGINT, on_sigint); }
  ~SigintGuard() { std::signal(SIGINT, old_); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  void (*old_)(int);
};

// A sweep file with `system`: every training plan it names, as `analyze --parallel`
// estimates each (on one thread: a plan costs microseconds once its layers are timed).
int run_parallel_sweep_file(const SweepFile& sweep, bool per_layer, bool quiet, const OutputOptionValues& out,
                            OutputFormat format) {
  if (per_layer) throw InputError({sweep.path}, "--per-layer does not apply to a parallel sweep (one with 'system')");
  if (!out.columns.empty())
    throw InputError({sweep.path}, "--columns does not apply to a parallel sweep (one with 'system')", "every column is written");
  ParallelSweep result = ridge::run_parallel_sweep(sweep);
  std::ostringstream text;
  write_parallel_sweep(result, format, text, out.csv);
  write_output(out.output, [&](std::ostream& os) { os << text.str(); });
  if (!quiet) (out.output.empty() || out.output == "-" ? std::cerr : std::cout) << parallel_sweep_summary_text(result);
  return 0;
}

constexpr int64_t kMaxJobs = 1024;  // more threads than this only cost memory on any machine ridge runs on
constexpr int kInterruptedExit = 130;  // 128 + SIGINT, as shells report it

const std::vector<OutputFormat> kFormats = {OutputFormat::csv, OutputFormat::json, OutputFormat::table, OutputFormat::md,
                                            OutputFormat::tex};

const CommandHelp kHelp = {
    "ridge sweep FILE.toml [options]",
    "Evaluates every point of a sweep file's cartesian product (models x hardware x hw_model x [[vary]] values x\n"
    "phase x dtype x optimizer x batch) in parallel, one row per point (or per point and layer with --per-layer)\n"
    "in the file's order, the same bytes for any --jobs. A point that cannot run is a row whose status says why.\n"
    "A short summary (the fastest hardware per model and phase; where the bound flips) goes to stdout with\n"
    "--output, else to stderr (not with --quiet). On a terminal, a progress line on stderr shows the points done.\n"
    "Ctrl-C stops the workers and leaves no output file. A file that names `system` instead of `hardware`\n"
    "sweeps training plans (a [parallel] table: tp, pp, dp, microbatch, ...), each point what analyze --parallel\n"
    "reports for it.",
    {"ridge sweep configs/sweeps/gpu-generations.toml --output gens.csv",
     "ridge sweep configs/sweeps/hbm-bandwidth-whatif.toml --format table --columns model,memory.HBM2.bandwidth,batch,time_s,bound",
     "ridge sweep configs/sweeps/full-zoo.toml --jobs 2 --format json --output zoo.json"}};

}  // namespace

int run_sweep(const Args& args) {
  std::string file;
  int64_t jobs = 0;
  bool per_layer = false, quiet = false;
  OutputOptionValues out;
  out.format = "csv";
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("file", po::value(&file), "sweep file (configs/sweeps/*.toml)")(
      "jobs,j", po::value(&jobs), "worker threads (default: all cores)")(
      "per-layer", po::bool_switch(&per_layer), "one row per point and layer instead of per point");
  add_quiet_option(general, quiet);
  po::options_description visible;
  visible.add(general).add(output_option_group(out, kFormats, true));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (file.empty()) throw InputError({}, "sweep: which sweep file?", "ridge sweep configs/sweeps/gpu-generations.toml");
  if (vm.count("jobs") && (jobs < 1 || jobs > kMaxJobs))
    throw InputError({}, "--jobs must be 1 to " + std::to_string(kMaxJobs) + " (got " + std::to_string(jobs) + ")",
                     "leave it out to use every core");
  OutputFormat format = to_output_format(out, kFormats);
  ColumnChoice columns = parse_column_choice(out.columns);
  unsigned threads = jobs > 0 ? static_cast<unsigned>(jobs) : std::max(1u, std::thread::hardware_concurrency());

  SweepFile sweep_file = read_sweep_file(file);
  if (sweep_file.parallel_sweep()) return run_parallel_sweep_file(sweep_file, per_layer, quiet, out, format);
  // From reading the models to the finished report: the points done, then the writing.
  std::atomic<size_t> done{0};
  ProgressLine progress(std::cerr, progress_wanted(quiet), "sweep", &done, sweep_file.point_count(), "points");
  SweepPlan plan = plan_sweep(std::move(sweep_file));

  g_interrupted = false;
  SigintGuard guard;
  SweepResult result = ridge::run_sweep(plan, {threads, per_layer, &g_interrupted, &done});
  std::ostringstream text;
  if (!result.cancelled && !g_interrupted) write_sweep(plan, result, per_layer, format, columns, text, out.csv);
  progress.stop();
  // The whole report is in memory; the file appears complete (temporary + rename) or not at all.
  if (result.cancelled || g_interrupted) {
    std::cerr << "interrupted: no output written\n";
    return kInterruptedExit;
  }
  write_output(out.output, [&](std::ostream& os) { os << text.str(); });
  std::string summary = sweep_summary_text(plan, result, summarize_sweep(plan, result));
  if (out.output.empty() || out.output == "-") {
    if (!quiet) std::cerr << summary;  // beside the rows on stdout: --quiet leaves only the rows
  } else {
    std::cout << summary;
  }
  return 0;
}

}  // namespace ridge::cli
