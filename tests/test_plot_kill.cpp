// Real `ridge plot roofline` runs stopped by SIGTERM, or by SIGINT sent to their whole
// process group (a terminal's Ctrl-C, which reaches gnuplot too), at delays spread over
// the length of an undisturbed run: the output folder must then hold the complete set of
// final files (script, data, image) or none of them, and no temporary (.ridge-plot-*
// folder, a write's temporary). No test hook: the kills land wherever the run happens to
// be, and the spread of delays covers its phases (timing, writing the bundle, gnuplot,
// the final renames).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "tests/plot_test_util.hpp"
#include "tests/test_folder.hpp"

namespace fs = std::filesystem;

namespace {

class PlotKill : public ridge_test::FolderTest {
 protected:
  // Starts `ridge plot roofline` writing FOLDER/r.png, in a process group of its own.
  pid_t start(const fs::path& folder) const {
    const std::string output = (folder / "r.png").string();
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      int devnull = ::open("/dev/null", O_RDWR);
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
      ::execl(RIDGE_BINARY, "ridge", "plot", "roofline", "alexnet", "--hw", "v100", "--hw", "a100", "--output",
              output.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (pid > 0) ::setpgid(pid, pid);  // also here: the kill may come before the child's own call
    return pid;
  }
  static int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
  }
  static std::set<std::string> names_in(const fs::path& folder) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.insert(e.path().filename().string());
    return names;
  }
};

TEST_F(PlotKill, LeavesEveryFinalFileOrNoneAndNoTemporary) {
  if (!ridge::test::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  // One undisturbed run: the complete set of files, and how long a run takes here.
  const fs::path whole = root_ / "whole";
  fs::create_directories(whole);
  const auto t0 = std::chrono::steady_clock::now();
  const int whole_status = wait_for(start(whole));
  const double run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(whole_status) && WEXITSTATUS(whole_status) == 0) << whole_status;
  const std::set<std::string> complete = names_in(whole);
  ASSERT_EQ(complete, (std::set<std::string>{"r.dat", "r.gp", "r.png"}));

  // Kills at delays spread evenly over 0 to 2 x the run's length (a run's length varies
  // with the machine's load, and the final renames are at its very end), alternating
  // SIGTERM to ridge and SIGINT to its group; as many as fit in ~12 s (24 to 60).
  const int kills = std::clamp(static_cast<int>(12 / std::max(run_s, 1e-3)), 24, 60);
  int stopped = 0, none = 0, all = 0;
  for (int i = 0; i < kills; ++i) {
    const fs::path folder = root_ / ("k" + std::to_string(i));
    fs::create_directories(folder);
    const double delay_s = 2 * run_s * (i + 0.5) / kills;
    const bool terminal = i % 2 == 1;
    const pid_t pid = start(folder);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s));
    if (terminal) ::kill(-pid, SIGINT);
    else ::kill(pid, SIGTERM);
    const int status = wait_for(pid);
    stopped += WIFSIGNALED(status);
    // A run stopped by the signal dies of it; one that had finished exits 0; one whose
    // gnuplot was interrupted first fails cleanly (exit 1). Nothing else.
    EXPECT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) <= 1))
        << "kill " << i << " at " << delay_s << " s: status " << status;
    const std::set<std::string> left = names_in(folder);
    if (left.empty()) {
      ++none;
    } else if (left == complete) {
      ++all;
    } else {
      std::string listing;
      for (const std::string& n : left) listing += " " + n;
      ADD_FAILURE() << (terminal ? "SIGINT to the group" : "SIGTERM") << " at " << delay_s << " s of a " << run_s
                    << " s run left a partial set or a temporary:" << listing;
    }
    if (left == complete) {
      for (const std::string& n : complete) EXPECT_GT(fs::file_size(folder / n), 0u) << n;
    }
  }
  // The kills did land inside runs (not all after their end).
  EXPECT_GT(stopped, 0) << "every run had finished before its kill";
  EXPECT_GT(none, 0);
  RecordProperty("kills", kills);
  RecordProperty("complete", all);
  RecordProperty("none", none);
}

}  // namespace
