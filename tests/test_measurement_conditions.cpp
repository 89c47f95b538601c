// Measurement conditions: a measured CSV's `# conditions:` lines, refused when they
// disagree, carried by `ridge calibrate` into [calibration.conditions] (quoted by the TOML
// writer, so a value cannot add keys), read back and shown by `ridge list`'s reader; and
// the conditions line `ridge probe` writes.
#include <gtest/gtest.h>

#include "hw/descriptor_reader.hpp"
#include "sim/engine/host_probe.hpp"
#include "sim/engine/measurement_conditions.hpp"

namespace ridge {
namespace {

TEST(MeasurementConditions, ReadFromCommentLines) {
  auto c = parse_measurement_conditions(
      "# measured by hand\n# conditions: threads = 1; library = torch 1.13 (oneDNN 2.6.3)\n"
      "# conditions: dtype = fp32; threads = 1\nmodel,layer\n",
      "m.csv");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c.at("threads"), "1");
  EXPECT_EQ(c.at("library"), "torch 1.13 (oneDNN 2.6.3)");
  EXPECT_EQ(c.at("dtype"), "fp32");
}

TEST(MeasurementConditions, MixedConditionsAreRefusedAtTheLineThatDisagrees) {
  try {
    parse_measurement_conditions("# conditions: threads = 1\nmodel,layer\n# conditions: threads = 2\n", "m.csv");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("threads = '2' here, '1' on an earlier line"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_measurement_conditions("# conditions: Threads: 1\n", "m.csv"), InputError);
}

constexpr const char* kChip = "name = \"c\"\nkind = \"cpu\"\nsource = \"t\"\n[compute]\nfp32 = \"1 GFLOPS\"\n"
                              "[[memory]]\nname = \"D\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 GB/s\"\n";

TEST(MeasurementConditions, TheDescriptorRecordsThemQuotedAndReadsThemBack) {
  Calibration c;
  c.data = "d.csv";
  c.date = "2026-11-26";
  c.conditions = {{"threads", "1"}, {"library", "torch\"\n[compute]\nfp64 = \"9 GFLOPS"}};  // an injection attempt
  HardwareSpec hw = HardwareDescriptor::from_text(std::string(kChip) + "\n" + calibration_toml(c), "c.toml", "c").spec();
  ASSERT_TRUE(hw.calibration);
  EXPECT_EQ(hw.calibration->conditions, c.conditions);
  EXPECT_FALSE(hw.peak(DType::fp64));  // the value stayed a string
  EXPECT_EQ(conditions_text(c.conditions), "library = torch\"\n[compute]\nfp64 = \"9 GFLOPS; threads = 1");
}

TEST(MeasurementConditions, TheProbeDescriptorSaysWhatItWasMeasuredUnder) {
  ProbeResult r;
  r.threads = 1;
  r.conditions = {"avx512", "2596.146 MHz (cpu MHz, /proc/cpuinfo)", "not\nreadable", 21.7};
  r.peaks = {{"fp32", 101e9, "GEMM"}};
  r.levels = {{"DRAM", 1e9, 5e9, "triad"}};
  std::string text = probe_descriptor(r, "2026-11-26");
  EXPECT_NE(text.find("# conditions: threads = 1; isa = avx512; clock = 2596.146 MHz (cpu MHz, /proc/cpuinfo); "
                      "governor = not\\u000Areadable; load1 = 21.70; date = 2026-11-26\n"),
            std::string::npos)
      << text;
  HardwareDescriptor::from_text(text, "p.toml", "p").spec();  // still reads back
}

}  // namespace
}  // namespace ridge
