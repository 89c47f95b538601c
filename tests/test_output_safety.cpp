// Output file safety (sim/base/output_file, sim/base/signal_cleanup): the temporary
// cannot be redirected by a planted link, links are followed to their target, FIFOs
// and character devices are written through instead of replaced, folders are refused,
// and a signal during a write or a plot leaves no temporary file or folder behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/base/signal_cleanup.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace fs = std::filesystem;

namespace {

using ridge_test::slurp;

class OutputSafety : public ridge_test::FolderTest {
 protected:
  // Names in the folder other than `keep`.
  std::vector<std::string> others(std::initializer_list<std::string> keep) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(root_)) {
      std::string n = e.path().filename().string();
      if (std::find(keep.begin(), keep.end(), n) == keep.end()) out.push_back(n);
    }
    return out;
  }
};

TEST_F(OutputSafety, PlantedTemporaryNamesCannotRedirectTheWrite) {
  // The old temporary was OUT.tmp-PID: a link planted under every PID-style name next to
  // the output must not be written through.
  std::ofstream(at("victim")) << "keep me";
  for (int pid = ::getpid() - 2; pid <= ::getpid() + 2; ++pid) fs::create_symlink(at("victim"), at("out.txt.tmp-" + std::to_string(pid)));
  ridge::write_file_atomically(at("out.txt"), "report\n");
  EXPECT_EQ(slurp(at("victim")), "keep me");
  EXPECT_EQ(slurp(at("out.txt")), "report\n");
}

TEST_F(OutputSafety, ASymlinkIsFollowedAndKept) {
  std::ofstream(at("real.txt")) << "old";
  fs::create_symlink(at("real.txt"), at("link.txt"));
  ridge::write_file_atomically(at("link.txt"), "new");
  EXPECT_TRUE(fs::is_symlink(at("link.txt")));
  EXPECT_EQ(slurp(at("real.txt")), "new");
  EXPECT_EQ(others({"real.txt", "link.txt"}), std::vector<std::string>{});
}

TEST_F(OutputSafety, ADanglingSymlinkIsRefused) {
  fs::create_symlink(at("missing/real.txt"), at("link.txt"));
  EXPECT_THROW(ridge::write_file_atomically(at("link.txt"), "x"), ridge::RunError);
  EXPECT_TRUE(fs::is_symlink(at("link.txt")));
}

TEST_F(OutputSafety, AFifoIsWrittenThroughNotReplaced) {
  ASSERT_EQ(::mkfifo(at("pipe").c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(at("pipe")); });
  ridge::write_file_atomically(at("pipe"), "through the pipe\n");
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  struct stat st {};
  ASSERT_EQ(::stat(at("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputSafety, DevNullStaysACharacterDevice) {
  ridge::write_file_atomically("/dev/null", "discarded");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(OutputSafety, AFolderIsRefused) {
  fs::create_directories(at("folder"));
  EXPECT_THROW(ridge::write_file_atomically(at("folder"), "x"), ridge::RunError);
  EXPECT_TRUE(fs::is_directory(at("folder")));
  EXPECT_EQ(others({"folder"}), std::vector<std::string>{});
}

TEST_F(OutputSafety, ASignalRemovesRegisteredTemporaries) {
  // A child registers a file and a folder holding a file, then is stopped by SIGTERM:
  // it must die of the signal and leave neither behind.
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    fs::create_directories(at("tmpdir"));
    std::ofstream(at("tmpdir/image.png")) << "partial";
    std::ofstream(at("report.tmp")) << "partial";
    ridge::SignalCleanup folder(at("tmpdir"), ridge::SignalCleanup::Kind::folder);
    ridge::SignalCleanup inside(at("tmpdir/image.png"), ridge::SignalCleanup::Kind::file);
    ridge::SignalCleanup file(at("report.tmp"), ridge::SignalCleanup::Kind::file);
    ::raise(SIGTERM);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_EQ(others({}), std::vector<std::string>{});
}

TEST_F(OutputSafety, HandlersAreRestoredWhenNothingIsRegistered) {
  struct sigaction before {}, after {};
  ::sigaction(SIGTERM, nullptr, &before);
  { ridge::SignalCleanup file(at("x"), ridge::SignalCleanup::Kind::file); }
  ::sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(before.sa_handler, after.sa_handler);
}

TEST_F(OutputSafety, SigtermDuringAPlotLeavesNoTemporaryFolder) {
  // A stand-in gnuplot that never finishes: ridge is stopped while it waits for it.
  fs::create_directories(at("bin"));
  std::ofstream(at("bin/gnuplot")) << "#!/bin/sh\nsleep 30\n";
  fs::permissions(at("bin/gnuplot"), fs::perms::owner_all);
  fs::create_directories(at("out"));
  std::string cmd = "PATH='" + at("bin") + "':$PATH exec '" RIDGE_BINARY "' plot roofline mlp --hw v100 --output '" +
                    at("out/p.png") + "' >/dev/null 2>&1";
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until the temporary folder exists (ridge is then rendering), then stop ridge:
  // up to 30 s, as a loaded machine (other suites running beside this one) may take
  // seconds to get there.
  bool seen = false;
  for (int i = 0; i < 1200 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    for (const auto& e : fs::directory_iterator(at("out"))) seen |= e.path().filename().string().rfind(".ridge-plot-", 0) == 0;
  }
  ASSERT_TRUE(seen) << "ridge never made its temporary folder";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_TRUE(fs::is_empty(at("out"))) << "a temporary was left behind";
}

}  // namespace
