// Progress on stderr for commands that can take over a second (sweep, probe, calibrate,
// plan, generate): one line, redrawn in place ten times a second from the first second
// on and erased when the work ends, so that what stays on the terminal is the result.
// Shown only where a person watches: stderr is a terminal and --quiet was not given;
// never in a pipe, a file or a test's capture.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include <boost/program_options/options_description.hpp>

namespace ridge::cli {

// Whether to show progress: stderr is a terminal and not `quiet`.
bool progress_wanted(bool quiet);
// --quiet, -q: no progress line.
void add_quiet_option(boost::program_options::options_description& options, bool& quiet);

class ProgressLine {
 public:
  // `task` says what runs ("sweep", "probe: measuring peak FLOP/s and bandwidths"). With a
  // counter, the line shows `*done` of `total` `unit` and a bar. Nothing is drawn unless
  // `shown`; the first drawing waits `delay`.
  ProgressLine(std::ostream& out, bool shown, std::string task, const std::atomic<size_t>* done = nullptr,
               size_t total = 0, std::string unit = {}, std::chrono::milliseconds delay = std::chrono::seconds(1));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Stops drawing and erases the line (the destructor does it too).
  void stop();
  // The line after `elapsed_s` seconds: "sweep [########            ] 1200/4000 points, 3 s".
  std::string text(double elapsed_s) const;

 private:
  void loop();
  std::ostream& out_;
  std::string task_;
  const std::atomic<size_t>* done_;
  size_t total_;
  std::string unit_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ridge::cli
