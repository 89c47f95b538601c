// `ridge sweep` as a user runs it: byte-identical output for any --jobs, and bad
// sweep files exit 2 with a located error and leave no output file.
#include <gtest/gtest.h>

#include "tests/run_ridge.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

struct CliRun {
  int status = -1;
  std::string err;
};

class SweepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ridge-sweep-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Runs ridge, keeping its stdout in stdout.txt as a user's redirection would.
  CliRun ridge(const std::string& args) const {
    ridge_test::RidgeRun r = ridge_test::run_ridge(args);
    std::ofstream(path("stdout.txt")) << r.out;
    return {r.status, r.err};
  }
  fs::path dir_;
};

TEST_F(SweepCli, OutputIsTheSameBytesForAnyJobs) {
  // A small sweep through the binary (the library test SweepRun.SameResultForAnyNumberOfThreads
  // covers a larger one); 5 jobs for 8 groups exercises uneven shares.
  for (const char* extra : {"", "--per-layer", "--format json"}) {
    std::string sweep = "tests/data/sweep-small.toml";
    ASSERT_EQ(ridge("sweep " + sweep + " --jobs 1 " + extra + " --output " + path("one")).status, 0);
    ASSERT_EQ(ridge("sweep " + sweep + " --jobs 2 " + extra + " --output " + path("two")).status, 0);
    ASSERT_EQ(ridge("sweep " + sweep + " --jobs 5 " + extra + " --output " + path("five")).status, 0);
    std::string one = read(path("one"));
    EXPECT_GT(one.size(), 1000u);
    EXPECT_EQ(one, read(path("two"))) << extra;
    EXPECT_EQ(one, read(path("five"))) << extra;
  }
}

// A layer whose launch takes longer than its compute and traffic is bound `overhead` in a
// sweep's per-layer rows, as in `analyze`'s table, not `compute`. mlp on a100 at batch 1:
// the largest layer, hidden.0.fc, streams 404,800 B (1000 in + 100 out + 100,100 weights,
// x 4 B) in 404,800 / 2039 GB/s = 0.199 us and computes 2e5 FLOPs in 0.010 us at
// 19.5 TFLOP/s; a100's launch estimate is 5 us. Every layer is launch-bound.
TEST_F(SweepCli, PerLayerBoundSaysOverheadForLaunchBoundLayers) {
  std::string sweep = write("s.toml", "models = [\"mlp\"]\nhardware = [\"a100\"]\nbatch = [1]\n");
  ASSERT_EQ(ridge("sweep " + sweep + " --per-layer --output " + path("out.csv")).status, 0);
  std::istringstream csv(read(path("out.csv")));
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("model,", 0) == 0) continue;
    EXPECT_TRUE(line.ends_with(",overhead")) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 9);  // mlp.toml: 4 x (fc, relu), then the output linear
}

TEST_F(SweepCli, SummaryGoesToStdoutWhenWritingAFile) {
  std::string sweep = write("s.toml", "models = [\"alexnet\"]\nhardware = [\"v100\"]\nbatch = [1, 256]\n");
  ASSERT_EQ(ridge("sweep " + sweep + " --output " + path("out.csv")).status, 0);
  std::string summary = read(path("stdout.txt"));
  EXPECT_NE(summary.find("alexnet inference: fastest v100"), std::string::npos) << summary;
  // 2 points: the header line and two rows after the '#' preamble.
  std::string csv = read(path("out.csv"));
  EXPECT_NE(csv.find("\nalexnet,v100,NVIDIA V100 SXM2 16 GB,roofline,inference,fp32,adam,1,ok,"), std::string::npos);
  EXPECT_NE(csv.find("\nalexnet,v100,NVIDIA V100 SXM2 16 GB,roofline,inference,fp32,adam,256,ok,"), std::string::npos);
}

// A sweep file's model and descriptor files are found beside it, whatever the working
// directory (issue 23): here a model and a descriptor sit next to the sweep's folder and
// ridge runs from a third folder. The rows keep the names as the file wrote them.
TEST_F(SweepCli, FilePathsAreRelativeToTheSweepFile) {
  fs::create_directories(dir_ / "sweeps");
  fs::create_directories(dir_ / "elsewhere" / "deeper");  // where neither name resolves
  fs::copy_file(RIDGE_SOURCE_DIR "/models/mlp.toml", dir_ / "my-mlp.toml");
  fs::create_directories(dir_ / "sweeps" / "hw");
  fs::copy_file(RIDGE_SOURCE_DIR "/configs/hw/v100.toml", dir_ / "sweeps" / "hw" / "gpu.toml");
  std::string sweep = write("sweeps/s.toml", "models = [\"../my-mlp.toml\"]\nhardware = [\"hw/gpu.toml\"]\n");
  ridge_test::RidgeRun r = ridge_test::run_ridge("sweep " + sweep + " --output out.csv", {path("elsewhere/deeper"), ""});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read(path("elsewhere/deeper/out.csv")).find("\n../my-mlp.toml,hw/gpu.toml,NVIDIA V100 SXM2 16 GB,roofline,inference,fp32,adam,1,ok,"),
            std::string::npos);
}

// The summary lines (fastest, best per dollar and per joule) name a descriptor given by
// path by its declared `name`, as the `device` column and the plots do, not by its path.
TEST_F(SweepCli, SummaryNamesADescriptorFileByItsName) {
  fs::create_directories(dir_ / "hw");
  fs::copy_file(RIDGE_SOURCE_DIR "/configs/hw/v100.toml", dir_ / "hw" / "gpu.toml");
  std::string sweep = write("s.toml", "models = [\"mlp\"]\nhardware = [\"hw/gpu.toml\"]\n");
  ASSERT_EQ(ridge("sweep " + sweep + " --output " + path("out.csv")).status, 0);
  std::string summary = read(path("stdout.txt"));
  EXPECT_NE(summary.find("fastest NVIDIA V100 SXM2 16 GB fp32 inference batch 1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("best per dollar: NVIDIA V100 SXM2 16 GB fp32"), std::string::npos) << summary;
  EXPECT_NE(summary.find("best per joule: NVIDIA V100 SXM2 16 GB fp32"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("gpu.toml"), std::string::npos) << summary;
}

TEST_F(SweepCli, BadSweepFilesExit2WithALocatedErrorAndNoOutput) {
  const std::string head = "models = [\"alexnet\"]\nhardware = [\"v100\"]\n";
  struct Case {
    std::string text, where;
  } cases[] = {
      {"models = [\"alexnet\", \"resnet5000\"]\nhardware = [\"v100\"]\n", ":1:22: "},  // unknown model
      {"models = [\"alexnet\"]\nhardware = [\"v1000\"]\n", ":2:13: "},                 // unknown hardware
      {head + "[[vary]]\nkey = \"memory.HBM3.bandwidth\"\nvalues = [\"1 TB/s\"]\n", ":4:7: "},  // unknown key
      {head + "dtype = []\n", ":3:9: "},                                                // empty list
      {head + "batch = [1, 2\n", ":3:15: "},                                            // TOML syntax
  };
  for (const Case& c : cases) {
    std::string sweep = write("bad.toml", c.text);
    CliRun r = ridge("sweep " + sweep + " --output " + path("out.csv"));
    EXPECT_EQ(r.status, 2) << c.text;
    EXPECT_EQ(r.err.rfind("error: " + sweep + c.where, 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(path("out.csv"))) << c.text;
  }
  // Nothing else was left in the folder (no temporary).
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir_)) files += e.path().filename() != "bad.toml" &&
                                                           e.path().filename() != "stdout.txt" &&
                                                           e.path().filename() != "stderr.txt";
  EXPECT_EQ(files, 0u);
}

}  // namespace
