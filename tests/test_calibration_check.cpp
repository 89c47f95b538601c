// `ridge calibrate --check`: a descriptor's predictions on measured rows it was not fitted
// on, against times computed by hand from the descriptor's numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/run_ridge.hpp"
#include "tests/test_chips.hpp"
#include "tests/test_folder.hpp"

namespace ridge {
namespace {

// The calibration test chip (100 GFLOP/s fp32, no launch time) with one calibrated class:
// linear fp32 at half the peak, 1 GFLOP to half speed.
std::string calibrated_chip() {
  return std::string(test::kCalibrationChip) +
         "\n[calibration]\ndata = \"hand-made\"\ndate = \"2026-11-26\"\n[[calibration.class]]\n"
         "op_class = \"linear\"\ndtype = \"fp32\"\ncompute = 0.5\nn_half_flops = 1e9\nmemory = 0.5\n";
}

TEST(CalibrateCheck, PredictsEachRowByTheRooflineAndByTheCalibrationWithoutFitting) {
  namespace fs = std::filesystem;
  ridge_test::TempDir temp;
  const fs::path dir = temp.path();
  std::ofstream(dir / "chip.toml") << calibrated_chip();
  // 100 GFLOP in 1.5 s, 1 MB moved (10 us from the cache: compute-bound); a `pass` column rides along.
  std::ofstream(dir / "m.csv") << "model,layer,op_class,dtype,flops,bytes,seconds,pass\n"
                                  "a,big,linear,fp32,1e11,1e6,1.5,bwd_data\n";
  auto r = ridge_test::run_ridge("calibrate " + (dir / "m.csv").string() + " --hw " + (dir / "chip.toml").string() +
                                 " --check --predictions " + (dir / "p.csv").string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(dir / "p.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "model,layer,op_class,dtype,batch,flops,measured_s,pure_s,predicted_s,pass");
  // Pure: 1e11 / 1e11 FLOP/s = 1 s. Calibrated: (1e11 + 1e9) / (1e11 x 0.5) = 2.02 s.
  EXPECT_EQ(row, "a,big,linear,fp32,1,1e+11,1.5,1,2.02,bwd_data");
  // |1 / 1.5 - 1| = 33.3 %, |2.02 / 1.5 - 1| = 34.7 %; 1.5 s >= 1 s: the bound holds.
  EXPECT_NE(r.out.find("33.3%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("34.7%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing fitted"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(CalibrateCheck, OverheadNoneChecksTheRooflineWithoutTheLaunchTime) {
  namespace fs = std::filesystem;
  ridge_test::TempDir temp;
  const fs::path dir = temp.path();
  // The test chip with a 5 us launch per kernel: 100 GFLOP/s fp32, 1 GB/s from its one memory.
  std::ofstream(dir / "chip.toml") << "name = \"launching chip\"\nkind = \"gpu\"\nsource = \"test\"\n[compute]\nfp32 = \"100 GFLOPS\"\n"
                                      "[[memory]]\nname = \"DRAM\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 GB/s\"\n"
                                      "[overhead]\nkernel_launch = \"5 us\"\n";
  // 1 MFLOP and 8 kB: 10 us of compute, 8 us of bytes; measured 12 us, as a kernel from a CUDA graph.
  std::ofstream(dir / "m.csv") << "model,layer,op_class,dtype,flops,bytes,seconds\na,small,linear,fp32,1e6,8000,1.2e-5\n";
  auto check = [&](const std::string& overhead) {
    auto r = ridge_test::run_ridge("calibrate " + (dir / "m.csv").string() + " --hw " + (dir / "chip.toml").string() +
                                   " --check --predictions " + (dir / "p.csv").string() + overhead);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ifstream in(dir / "p.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    return row;
  };
  // kernel: 5 us + max(10 us, 8 us) = 15 us, slower than the 12 us measured: no bound.
  EXPECT_EQ(check(""), "a,small,linear,fp32,1,1000000,1.2e-05,1.5e-05,1.5e-05");
  // none: max(10 us, 8 us) = 10 us, at or below the measurement.
  EXPECT_EQ(check(" --overhead none"), "a,small,linear,fp32,1,1000000,1.2e-05,1e-05,1e-05");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ridge
