// The progress line (see progress_line.hpp).
#include "sim/cli/progress_line.hpp"

#include <unistd.h>

#include <algorithm>

namespace ridge::cli {

namespace {
constexpr size_t kBarWidth = 24;
}  // namespace

bool progress_wanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO); }

void add_quiet_option(boost::program_options::options_description& options, bool& quiet) {
  options.add_options()("quiet,q", boost::program_options::bool_switch(&quiet),
                        "no progress line on stderr (shown only when stderr is a terminal, for work over a second)");
}

ProgressLine::ProgressLine(std::ostream& out, bool shown, std::string task, const std::atomic<size_t>* done,
                           size_t total, std::string unit, std::chrono::milliseconds delay)
    : out_(out), task_(std::move(task)), done_(done), total_(total), unit_(std::move(unit)), delay_(delay) {
  if (shown) thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() { stop(); }

void ProgressLine::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string ProgressLine::text(double elapsed_s) const {
  std::string line = task_;
  if (done_) {
    size_t done = std::min(done_->load(std::memory_order_relaxed), total_);
    size_t filled = total_ ? kBarWidth * done / total_ : kBarWidth;
    line += " [" + std::string(filled, '#') + std::string(kBarWidth - filled, ' ') + "] " + std::to_string(done) + "/" +
            std::to_string(total_) + (unit_.empty() ? "" : " " + unit_) + ",";
  }
  return line + " " + std::to_string(static_cast<long long>(elapsed_s)) + " s";
}

void ProgressLine::loop() {
  using clock = std::chrono::steady_clock;
  const clock::time_point start = clock::now();
  size_t drawn = 0;  // characters of the last line drawn
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopping_; })) {
    if (clock::now() - start < delay_) continue;
    std::string line = text(std::chrono::duration<double>(clock::now() - start).count());
    out_ << '\r' << line << std::string(drawn > line.size() ? drawn - line.size() : 0, ' ') << std::flush;
    drawn = std::max(drawn, line.size());
  }
  if (drawn) out_ << '\r' << std::string(drawn, ' ') << '\r' << std::flush;
}

}  // namespace ridge::cli
