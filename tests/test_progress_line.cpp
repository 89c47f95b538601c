// The progress line (sim/cli/progress_line): its text, drawn and erased on a stream
// when shown, nothing when not; and through the binary, shown on a terminal (a
// pseudo-terminal here) for work over a second, never when stderr is a file or with --quiet.
#include <gtest/gtest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "sim/cli/progress_line.hpp"
#include "tests/run_ridge.hpp"

namespace {

using ridge::cli::ProgressLine;
using namespace std::chrono_literals;

TEST(ProgressLine, TextCountsAndBar) {
  std::ostringstream out;
  std::atomic<size_t> done{6};
  ProgressLine counted(out, false, "sweep", &done, 24, "points");
  // 6 of 24 fill a quarter of the 24-character bar; whole seconds, rounded down.
  EXPECT_EQ(counted.text(3.7), "sweep [######                  ] 6/24 points, 3 s");
  done = 30;  // never past the total
  EXPECT_EQ(counted.text(0), "sweep [########################] 24/24 points, 0 s");
  ProgressLine plain(out, false, "probe: measuring");
  EXPECT_EQ(plain.text(12.2), "probe: measuring 12 s");
}

TEST(ProgressLine, DrawnInPlaceAndErasedWhenShown) {
  std::ostringstream out;
  std::atomic<size_t> done{1};
  {
    ProgressLine line(out, true, "sweep", &done, 2, "points", 0ms);
    std::this_thread::sleep_for(350ms);
  }
  std::string s = out.str();
  EXPECT_EQ(s.rfind("\rsweep [############            ] 1/2 points, 0 s", 0), 0u) << s;
  // Erased at the end: blanks over the longest line, then back to the start.
  std::string erase = "\r" + std::string(std::string("sweep [############            ] 1/2 points, 0 s").size(), ' ') + "\r";
  ASSERT_GE(s.size(), erase.size());
  EXPECT_EQ(s.substr(s.size() - erase.size()), erase);
}

TEST(ProgressLine, NothingWhenNotShown) {
  std::ostringstream out;
  {
    ProgressLine line(out, false, "probe", nullptr, 0, {}, 0ms);
    std::this_thread::sleep_for(250ms);
  }
  EXPECT_EQ(out.str(), "");
  EXPECT_FALSE(ridge::cli::progress_wanted(true));  // --quiet, terminal or not
}

// `ridge ARGS` with stdout and stderr on a pseudo-terminal: everything it wrote there,
// and the seconds it ran.
std::pair<std::string, double> run_on_terminal(const std::string& args) {
  auto start = std::chrono::steady_clock::now();
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return {"forkpty failed", 0};
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", ("exec '" RIDGE_BINARY "' " + args + " >/dev/null").c_str(), nullptr);
    ::_exit(127);
  }
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {text, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

// Every zoo model on every device at 128 batches, inference and training, on one thread:
// 66,560 points, 1.7 s on the loaded 2-core development machine. The line appears after
// the first second, so where the run was shorter (a faster machine) its absence says
// nothing and that check is skipped; the quiet runs must show nothing either way.
TEST(ProgressLine, OnATerminalOnlyAndNotWithQuiet) {
  namespace fs = std::filesystem;
  fs::path sweep = fs::temp_directory_path() / ("ridge-progress-" + std::to_string(::getpid()) + ".toml");
  {
    std::ofstream f(sweep);
    f << "models = [\"*\"]\nhardware = [\"*\"]\nphase = [\"inference\", \"training\"]\nbatch = [1";
    for (int b = 2; b <= 128; ++b) f << ", " << b;
    f << "]\n";
  }
  const std::string args = "sweep '" + sweep.string() + "' --jobs 1 --output /dev/null";
  std::string quiet = run_on_terminal(args + " --quiet").first;
  EXPECT_EQ(quiet.find('\r'), std::string::npos) << quiet;
  ridge_test::RidgeRun piped = ridge_test::run_ridge(args);  // stderr to a file
  EXPECT_EQ(piped.status, 0);
  EXPECT_EQ(piped.err.find('\r'), std::string::npos);
  auto [shown, shown_s] = run_on_terminal(args);
  fs::remove(sweep);
  if (shown_s < 1.5) GTEST_SKIP() << "the sweep took " << shown_s << " s, too short to show progress";
  EXPECT_NE(shown.find("\rsweep ["), std::string::npos) << shown;
  EXPECT_NE(shown.find(" points, "), std::string::npos) << shown;
}

}  // namespace
