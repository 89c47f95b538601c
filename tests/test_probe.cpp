// `ridge probe`: the descriptor it writes from measured figures (a synthetic result, so
// the test is fast and does not depend on the machine's load), and its bad input.
#include <gtest/gtest.h>

#include "hw/descriptor_reader.hpp"
#include "sim/engine/host_probe.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

TEST(Probe, DescriptorCarriesTheMeasuredFiguresAndReadsBack) {
  ProbeResult r;
  r.threads = 2;
  r.peaks = {{"fp32", 43.69e9, "1 thread x Eigen GEMM 128^3"}, {"fp64", 21.42e9, "1 thread x Eigen GEMM 128^3"}};
  r.levels = {{"DRAM", 25e9, 18.49e9, "stream over 256 MiB"}, {"L2", 1048576, 152.78e9, "stream over 512 KiB"}};
  std::string text = probe_descriptor(r, "2026-11-23");
  HardwareSpec hw = HardwareDescriptor::from_text(text, "host.toml", "host").spec();
  EXPECT_DOUBLE_EQ(*hw.peak(DType::fp32), 43.69e9);  // written as "43.69 GFLOPS"
  EXPECT_DOUBLE_EQ(*hw.peak(DType::fp64), 21.42e9);
  ASSERT_EQ(hw.memory.size(), 2u);
  EXPECT_EQ(hw.memory[0].name, "DRAM");
  EXPECT_DOUBLE_EQ(hw.memory[0].bandwidth_Bps, 18.49e9);
  EXPECT_DOUBLE_EQ(hw.memory[1].capacity_bytes, 1048576);
  EXPECT_NE(text.find("# 1 thread x Eigen GEMM 128^3"), std::string::npos);  // the derivation is recorded
}

TEST(Probe, NegativeThreadsIsAnError) {
  auto r = ridge_test::run_ridge("probe --threads -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--threads must be between 0 and "), std::string::npos) << r.err;  // the bound is the machine's
  EXPECT_NE(r.err.find("(got -1)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ridge
