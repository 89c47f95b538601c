// `ridge probe`: the descriptor it writes from measured figures (a synthetic result, so
// the test is fast and does not depend on the machine's load), and its bad input.
#include <gtest/gtest.h>

#include <vector>

#include "hw/descriptor_reader.hpp"
#include "sim/engine/host_probe.hpp"
#include "sim/engine/probe_kernels.hpp"
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

// What no timing measures, the probe writes from PyTorch 1.13.1's source
// (aten/src/ATen/native/Convolution.cpp, ConvParams::use_mkldnn): convolutions in oneDNN,
// im2col + BLAS when batch * C * H * W <= 20480 at batch 1, one group and a kernel side
// <= 3, or, with one thread only (at::get_num_threads() > 1 skips it), a 1 x 1 unstrided
// convolution at batch < 16; nn.Linear is aten::addmm (BLAS).
TEST(Probe, DescriptorCarriesPyTorchsKernelLibraryRuleForItsThreads) {
  ProbeResult r;
  r.peaks = {{"fp32", 100e9, "GEMM"}};
  r.levels = {{"DRAM", 25e9, 7e9, "triad"}};
  for (unsigned threads : {1u, 4u}) {
    r.threads = threads;
    HardwareSpec hw = HardwareDescriptor::from_text(probe_descriptor(r, "2026-11-26"), "host.toml", "host").spec();
    ASSERT_TRUE(hw.library.has_value());
    EXPECT_EQ(hw.library->convolution, "onednn");
    EXPECT_EQ(hw.library->fallback, "blas");
    EXPECT_EQ(hw.library->linear, "blas");
    EXPECT_EQ(hw.library->fallback_small_input_elements, 20480);
    EXPECT_EQ(hw.library->fallback_small_kernel_side, 3);
    EXPECT_EQ(hw.library->fallback_pointwise_below_batch, threads == 1 ? 16 : 0) << threads;
    EXPECT_EQ(hw.library->framework, threads == 1 ? "PyTorch 1.13.1, CPU, fp32, 1 thread" : "PyTorch 1.13.1, CPU, fp32, 4 threads");
  }
}

// The shipped probed descriptor's [library] table, with its comment, is what
// `ridge probe --threads 1` writes: the descriptor is reproducible from the probe.
TEST(Probe, ShippedProbedDescriptorsLibraryTableIsTheProbes) {
  ProbeResult r;
  r.threads = 1;
  r.peaks = {{"fp32", 100e9, "GEMM"}};
  r.levels = {{"DRAM", 25e9, 7e9, "triad"}};
  const std::string probed = probe_descriptor(r, "2026-11-26");
  const std::string shipped = ridge_test::slurp("configs/calibration/dev-host2-1core-probed.toml");
  const std::string start = "\n# Which library PyTorch runs";
  ASSERT_NE(probed.find(start), std::string::npos);
  ASSERT_NE(shipped.find(start), std::string::npos);
  EXPECT_EQ(shipped.substr(shipped.find(start)), probed.substr(probed.find(start)));
}

// The kernels the probe times compute what they say, in every instruction set this CPU
// runs (values worked by hand: 2 x 3 identity-like products, a triad, a negation), tails
// past the last whole vector included.
TEST(Probe, EveryKernelVariantComputesItsFormula) {
  for (const ProbeKernels& k : supported_probe_kernels()) {
    const int n = kProbeGemmStep;
    std::vector<float> a(n * n, 0.0f), b(n * n, 3.0f), c(n * n, -1.0f);
    for (int i = 0; i < n; ++i) a[i * n + i] = 2.0f;  // 2 I x 3 = 6 everywhere
    k.sgemm(n, a.data(), b.data(), c.data());
    for (float v : c) ASSERT_EQ(v, 6.0f) << k.isa;
    const long m = 37;  // not a multiple of any vector width
    std::vector<double> x(m), y(m, 1.0), z(m);
    for (long i = 0; i < m; ++i) z[i] = static_cast<double>(i);
    k.triad(m, x.data(), y.data(), z.data(), 0.5);
    for (long i = 0; i < m; ++i) ASSERT_EQ(x[i], 1.0 + 0.5 * static_cast<double>(i)) << k.isa << " triad " << i;
    k.scale_in_place(m, x.data(), -1.0);
    for (long i = 0; i < m; ++i) ASSERT_EQ(x[i], -(1.0 + 0.5 * static_cast<double>(i))) << k.isa << " in place " << i;
  }
}

TEST(Probe, NegativeThreadsIsAnError) {
  auto r = ridge_test::run_ridge("probe --threads -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--threads must be between 0 and "), std::string::npos) << r.err;  // the bound is the machine's
  EXPECT_NE(r.err.find("(got -1)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ridge
