// The limits that protect the user (docs/reference/errors-and-limits.md, "Limits"): inputs that would exhaust memory
// or run without end are refused with exit 2 and a located error before any work.
#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace fs = std::filesystem;

namespace {

using ridge_test::run_ridge;
using ridge_test::RidgeRun;

class Limits : public ridge_test::FolderTest {
 protected:
  // Exit 2 and the first line of stderr contains `what`.
  void expect_refused(const std::string& args, const std::string& what) {
    RidgeRun r = run_ridge(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.substr(0, r.err.find('\n')).find(what), std::string::npos) << r.err;
  }
};

const std::string kChip = RIDGE_SOURCE_DIR "/tests/data/chip120.toml";

TEST_F(Limits, AModelOf10To7LayersIsRefused) {
  // Blocks of 1,000 x 1,000 x 10 relus: 10^7 layers, refused at the 100,001st.
  std::string m = write("m.toml", "name = \"big\"\n[input]\nshape = [4]\n[[layer]]\nname = \"a\"\nrepeat = 1000\n"
                                  "[[layer.body]]\nname = \"b\"\nrepeat = 1000\n[[layer.body.body]]\nname = \"c\"\nrepeat = 10\n"
                                  "[[layer.body.body.body]]\nname = \"r\"\nop = \"relu\"\n");
  expect_refused("analyze '" + m + "'", "the model expands to more than 100000 layers");
}

TEST_F(Limits, ARepeatOf2To40IsRefused) {
  std::string m = write("m.toml", "name = \"big\"\n[input]\nshape = [4]\n[[layer]]\nname = \"a\"\nrepeat = 1099511627776\n"
                                  "[[layer.body]]\nname = \"r\"\nop = \"relu\"\n");
  expect_refused("analyze '" + m + "'", "repeat = 1099511627776 is more than the limit of 100000 layers");
}

TEST_F(Limits, AModelFileOver16MiBIsRefusedUnread) {
  // A sparse 1 GB file: refused from its size, without reading it.
  std::string m = (root_ / "huge.toml").string();
  { std::ofstream(m) << "name = \"x\"\n"; }
  fs::resize_file(m, uintmax_t{1} << 30);
  expect_refused("analyze '" + m + "'", "the file is 1073741824 bytes, more than the limit of 16 MiB");
}

TEST_F(Limits, ADescriptorFileOver16MiBIsRefused) {
  std::string hw = (root_ / "huge.toml").string();
  { std::ofstream(hw) << "name = \"x\"\n"; }
  fs::resize_file(hw, (uintmax_t{16} << 20) + 1);
  expect_refused("analyze mlp --hw '" + hw + "'", "more than the limit of 16 MiB");
}

std::string descriptor_with_levels(int levels) {
  std::string text = "name = \"h\"\nkind = \"gpu\"\nsource = \"t\"\n[compute]\nfp32 = \"1 TFLOPS\"\n";
  for (int i = 0; i < levels; ++i)
    text += "[[memory]]\nname = \"L" + std::to_string(i) + "\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 TB/s\"\n";
  return text;
}

TEST_F(Limits, MoreThan16MemoryLevelsAreRefused) {
  std::string hw = write("hw.toml", descriptor_with_levels(17));
  expect_refused("analyze mlp --hw '" + hw + "'", "'memory' has 17 levels, more than the limit of 16");
}

TEST_F(Limits, SixteenMemoryLevelsAreFine) {
  std::string hw = write("hw.toml", descriptor_with_levels(16));
  EXPECT_EQ(run_ridge("analyze mlp --hw '" + hw + "'").status, 0);
}

TEST_F(Limits, ASweepJustOverThePointLimitIsRefusedAndOneUnderRuns) {
  // 300 batches x 1,001 bandwidths = 300,300 points > 300,000; 3 x 1,000 runs.
  std::string batches;
  for (int i = 1; i <= 300; ++i) batches += (i > 1 ? "," : "") + std::to_string(i);
  auto sweep = [&](const std::string& b, int count) {
    return "models = [\"mlp\"]\nhardware = [\"" + kChip + "\"]\nbatch = [" + b +
           "]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\nunit = \"GB/s\"\nfrom = 100\nto = 1000\ncount = " +
           std::to_string(count) + "\n";
  };
  std::string over = write("over.toml", sweep(batches, 1001));
  expect_refused("sweep '" + over + "'", "the sweep has 300300 points");
  std::string under = write("under.toml", sweep("1,2,3", 1000));
  EXPECT_EQ(run_ridge("sweep '" + under + "' --output '" + (root_ / "o.csv").string() + "'").status, 0);
}

TEST_F(Limits, ASweepCsvOver16MiBIsRefused) {
  std::string csv = (root_ / "huge.csv").string();
  { std::ofstream(csv) << "hardware,batch,samples_per_s\n"; }
  fs::resize_file(csv, uintmax_t{1} << 30);
  expect_refused("plot sweep '" + csv + "' --output '" + (root_ / "p.png").string() + "'", "more than the limit of 16 MiB");
}

}  // namespace
