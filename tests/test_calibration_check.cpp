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

}  // namespace
}  // namespace ridge
