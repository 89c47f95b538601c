// Hardware descriptors: SI numbers, CPU derivations, overrides and located errors,
// each checked against values worked out by hand.
#include <gtest/gtest.h>

#include "tests/run_ridge.hpp"

#include <cstdio>

#include "hw/descriptor_reader.hpp"
#include "hw/hardware_catalog.hpp"

namespace ridge {
namespace {

constexpr double GiB = 1024.0 * 1024 * 1024;
constexpr double MiB = 1024.0 * 1024;

const char* kGpu = R"(name = "Test GPU"
kind = "gpu"
source = "hand-written for tests"

[compute]
fp32 = "15.7 TFLOPS"
fp16 = "125 TFLOPS"
int8 = "62 TOPS"

[[memory]]
name = "HBM2"
capacity = "16 GiB"
bandwidth = "900 GB/s"

[[memory]]
name = "L2"
capacity = "6 MiB"
bandwidth = "3 TB/s"

[link]
name = "PCIe 3.0 x16"
bandwidth = "15.75 GB/s"

[overhead]
kernel_launch = "5 us"
)";

// Two sockets of 20 cores at 2.5 GHz with AVX2-style 2 FMA units (fp32: 8 lanes x 2
// FLOPs x 2 units = 32 FLOP/cycle): 2 x 20 x 2.5e9 x 32 = 3.2e12 FLOP/s fp32 and
// 2 x 20 x 2.5e9 x 16 = 1.6e12 fp64. DRAM: 6 channels DDR4-2933 x 8 B per socket =
// 6 x 2933e6 x 8 = 140.784e9 B/s, x 2 sockets = 281.568e9 B/s.
const char* kCpu = R"(name = "Test host"
kind = "cpu"
source = "hand-written for tests"
sockets = 2

[compute]
cores = 20
clock = "2.5 GHz"
flops_per_cycle = { fp64 = 16, fp32 = 32 }

[[memory]]
name = "DDR4"
capacity = "384 GiB"
channels = 6
transfer_rate = "2933 MT/s"
bus_bytes = 8

[[memory]]
name = "LLC"
capacity = "55 MiB"
bandwidth = "1 TB/s"
)";

HardwareSpec parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  std::vector<HardwareOverride> parsed;
  for (const auto& o : overrides) parsed.push_back(parse_override(o));
  return HardwareDescriptor::from_text(text, "test.toml", "test").spec(parsed);
}

// Replaces the first occurrence of `from` in `text`.
std::string edit(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct Failure {
  std::string where;    // file:line:col
  std::string message;
  std::string hint;
};

Failure failure(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse(text, overrides);
  } catch (const InputError& e) {
    return {to_string(e.where()), e.what(), e.hint()};
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Descriptor, GpuParsesToSiNumbers) {
  HardwareSpec s = parse(kGpu);
  EXPECT_EQ(s.name, "Test GPU");
  EXPECT_EQ(s.kind, "gpu");
  EXPECT_EQ(s.default_model, "roofline");  // the default
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp32), 15.7e12);
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp16), 125e12);
  EXPECT_DOUBLE_EQ(*s.peak(DType::int8), 62e12);
  EXPECT_FALSE(s.peak(DType::bf16));
  ASSERT_EQ(s.memory.size(), 2u);
  EXPECT_EQ(s.dram().name, "HBM2");
  EXPECT_DOUBLE_EQ(s.dram().capacity_bytes, 16 * GiB);
  EXPECT_DOUBLE_EQ(s.dram().bandwidth_Bps, 900e9);
  EXPECT_DOUBLE_EQ(s.memory[1].capacity_bytes, 6 * MiB);
  EXPECT_DOUBLE_EQ(s.memory[1].bandwidth_Bps, 3e12);
  ASSERT_TRUE(s.link);
  EXPECT_DOUBLE_EQ(s.link->bandwidth_Bps, 15.75e9);
  EXPECT_DOUBLE_EQ(s.kernel_launch_s, 5e-6);
  EXPECT_EQ(s.compute_efficiency, 1.0);
  EXPECT_TRUE(s.derivations.empty());
}

TEST(Descriptor, CpuPeakAndBandwidthAreDerived) {
  HardwareSpec s = parse(kCpu);
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp32), 3.2e12);
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp64), 1.6e12);
  EXPECT_DOUBLE_EQ(s.dram().bandwidth_Bps, 281.568e9);
  EXPECT_DOUBLE_EQ(s.memory[1].bandwidth_Bps, 1e12);
  EXPECT_FALSE(s.link);
  ASSERT_EQ(s.derivations.size(), 3u);
  EXPECT_EQ(s.derivations[0], "fp32 peak = 2 sockets x 20 cores x 2.5 GHz x 32 FLOP/cycle = 3.200 TFLOP/s");
  EXPECT_EQ(s.derivations[2], "DDR4 bandwidth = 2 sockets x 6 channels x 2933 MT/s x 8 B = 281.6 GB/s");
}

TEST(Descriptor, EfficiencyCarriesItsSource) {
  HardwareSpec s = parse(std::string(kGpu) + "[efficiency]\ncompute = 0.8\nmemory = 0.9\nsource = \"STREAM run\"\n");
  EXPECT_DOUBLE_EQ(s.compute_efficiency, 0.8);
  EXPECT_DOUBLE_EQ(s.memory_efficiency, 0.9);
  EXPECT_EQ(s.efficiency_source, "STREAM run");
  Failure f = failure(std::string(kGpu) + "[efficiency]\ncompute = 0.8\n");
  EXPECT_TRUE(contains(f.message, "missing required key 'source'")) << f.message;
  f = failure(std::string(kGpu) + "[efficiency]\ncompute = 1.5\nsource = \"x\"\n");
  EXPECT_EQ(f.where, "test.toml:27:11");
}

TEST(Descriptor, OverridesApplyBeforeValidation) {
  HardwareSpec s = parse(kGpu, {"compute.fp32=120 TFLOPS", "memory.HBM2.bandwidth=\"2 TB/s\"",
                                "link.bandwidth=64 GB/s", "overhead.kernel_launch=0 us", "memory.L2.capacity=40 MiB",
                                "compute.bf16=250 TFLOPS"});
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp32), 120e12);
  EXPECT_DOUBLE_EQ(*s.peak(DType::bf16), 250e12);  // an override may add a dtype
  EXPECT_DOUBLE_EQ(s.dram().bandwidth_Bps, 2e12);
  EXPECT_DOUBLE_EQ(s.memory[1].capacity_bytes, 40 * MiB);
  EXPECT_DOUBLE_EQ(s.link->bandwidth_Bps, 64e9);
  EXPECT_EQ(s.kernel_launch_s, 0.0);
  // Plain numbers for plain numeric keys; derived figures follow.
  HardwareSpec c = parse(kCpu, {"compute.cores=28", "memory.DDR4.channels=8", "compute.clock=2 GHz"});
  EXPECT_DOUBLE_EQ(*c.peak(DType::fp32), 2 * 28 * 2e9 * 32);           // 3.584e12
  EXPECT_DOUBLE_EQ(c.dram().bandwidth_Bps, 2 * 8 * 2933e6 * 8);       // 375.424e9
  // The base descriptor is untouched by a spec built with overrides.
  HardwareDescriptor d = HardwareDescriptor::from_text(kGpu, "test.toml", "test");
  d.spec({parse_override("compute.fp32=1 TFLOPS")});
  EXPECT_DOUBLE_EQ(*d.spec().peak(DType::fp32), 15.7e12);
}

TEST(Descriptor, BadOverridesAreLocatedAtTheOverride) {
  Failure f = failure(kGpu, {"memory.HBM3.bandwidth=2 TB/s"});
  EXPECT_EQ(f.where, "--set memory.HBM3.bandwidth=2 TB/s");
  EXPECT_TRUE(contains(f.message, "no memory level 'HBM3'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "'HBM2'")) << f.hint;
  f = failure(kGpu, {"compute.fp23=1 TFLOPS"});
  EXPECT_TRUE(contains(f.message, "unknown hardware key 'compute.fp23'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "compute.fp32")) << f.hint;
  f = failure(kGpu, {"memory.HBM2.bandwith=1 TB/s"});
  EXPECT_TRUE(contains(f.hint, "memory.HBM2.bandwidth")) << f.hint;
  // A bad value is validated like file content and reported at the override.
  f = failure(kGpu, {"memory.HBM2.bandwidth=0 GB/s"});
  EXPECT_EQ(f.where, "--set memory.HBM2.bandwidth=0 GB/s");
  EXPECT_TRUE(contains(f.message, "'bandwidth' must be greater than zero")) << f.message;
  f = failure(kGpu, {"compute.fp32"});
  EXPECT_TRUE(contains(f.message, "KEY=VALUE")) << f.message;
}

// One bad descriptor per class of error, each located at file:line:col.
TEST(Descriptor, UnknownUnit) {
  Failure f = failure(edit(kGpu, "\"900 GB/s\"", "\"900 Gb/s\""));
  EXPECT_EQ(f.where, "test.toml:13:13");
  EXPECT_TRUE(contains(f.message, "memory 'HBM2': 'bandwidth' has an unknown unit 'Gb/s'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "GB/s")) << f.hint;
}

TEST(Descriptor, ZeroBandwidth) {
  Failure f = failure(edit(kGpu, "\"3 TB/s\"", "\"0 TB/s\""));
  EXPECT_EQ(f.where, "test.toml:18:13");
  EXPECT_TRUE(contains(f.message, "memory 'L2': 'bandwidth' must be greater than zero")) << f.message;
}

TEST(Descriptor, NegativeValue) {
  Failure f = failure(edit(kGpu, "\"15.7 TFLOPS\"", "\"-15.7 TFLOPS\""));
  EXPECT_EQ(f.where, "test.toml:6:8");
  EXPECT_TRUE(contains(f.message, "compute: 'fp32' must be positive")) << f.message;
  f = failure(edit(kCpu, "cores = 20", "cores = -20"));
  EXPECT_EQ(f.where, "test.toml:7:9");
}

TEST(Descriptor, MissingRequiredKey) {
  Failure f = failure(edit(kGpu, "capacity = \"16 GiB\"\n", ""));
  EXPECT_EQ(f.where, "test.toml:10:1");  // the [[memory]] table it belongs in
  EXPECT_TRUE(contains(f.message, "memory 'HBM2': missing required key 'capacity'")) << f.message;
  f = failure(edit(kGpu, "kind = \"gpu\"\n", ""));
  EXPECT_TRUE(contains(f.message, "missing required key 'kind'")) << f.message;
}

TEST(Descriptor, UnknownKeySuggestsTheKnownOne) {
  Failure f = failure(edit(kGpu, "bandwidth = \"900 GB/s\"", "bandwith = \"900 GB/s\""));
  EXPECT_EQ(f.where, "test.toml:13:12");
  EXPECT_TRUE(contains(f.message, "memory 'HBM2': unknown key 'bandwith'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "'bandwidth'")) << f.hint;
  f = failure(edit(kGpu, "[overhead]\nkernel_launch", "[overhead]\nkernel_lunch"));
  EXPECT_EQ(f.where, "test.toml:25:16");
  EXPECT_TRUE(contains(f.message, "unknown key 'kernel_lunch'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "'kernel_launch'")) << f.hint;
}

TEST(Descriptor, UnknownDtypeListsTheDtypes) {
  Failure f = failure(edit(kGpu, "fp16 = ", "fp61 = "));
  EXPECT_EQ(f.where, "test.toml:7:8");
  EXPECT_TRUE(contains(f.message, "compute: unknown dtype 'fp61'")) << f.message;
  EXPECT_TRUE(contains(f.hint, "fp64, fp32, tf32, fp16, bf16, fp8, int8")) << f.hint;
}

TEST(Descriptor, TomlSyntaxError) {
  Failure f = failure(edit(kGpu, "fp16 = \"125 TFLOPS\"", "fp16 = \"125 TFLOPS"));
  EXPECT_EQ(f.where.rfind("test.toml:7:", 0), 0u) << f.where;
  EXPECT_TRUE(contains(f.message, "invalid TOML")) << f.message;
}

TEST(Descriptor, WrongTypesAndShapes) {
  EXPECT_TRUE(contains(failure(edit(kGpu, "\"900 GB/s\"", "900")).message, "with a unit in quotes"));
  EXPECT_TRUE(contains(failure(edit(kGpu, "kind = \"gpu\"", "kind = \"tpu\"")).message, "\"gpu\" or \"cpu\""));
  EXPECT_TRUE(contains(failure(edit(kGpu, "\"15.75 GB/s\"", "\"16 GiB\"")).message, "is a size"));
  EXPECT_TRUE(contains(failure(edit(kGpu, "name = \"L2\"", "name = \"HBM2\"")).message, "names two memory levels"));
  // A bandwidth given both ways, and sockets where nothing is derived.
  EXPECT_TRUE(contains(failure(edit(kCpu, "bus_bytes = 8", "bus_bytes = 8\nbandwidth = \"1 TB/s\"")).message,
                       "together with channels"));
  EXPECT_TRUE(contains(failure(edit(kGpu, "source = ", "sockets = 2\nsource = ")).message, "derives none"));
  // [memory] written as a table rather than [[memory]].
  std::string one_level = edit(kGpu, "[[memory]]\nname = \"L2\"\ncapacity = \"6 MiB\"\nbandwidth = \"3 TB/s\"\n", "");
  EXPECT_TRUE(contains(failure(edit(one_level, "[[memory]]", "[memory]")).message, "array of tables"));
}

TEST(Descriptor, EveryShippedDescriptorParses) {
  std::vector<std::string> names = shipped_hardware_names();
  EXPECT_GE(names.size(), 2u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    HardwareSpec s;
    EXPECT_NO_THROW(s = load_hardware(name)) << name;
    EXPECT_EQ(s.id, name);
    EXPECT_FALSE(s.memory.empty());
    EXPECT_TRUE(s.peak(DType::fp32) || s.peak(DType::fp16)) << name;
  }
}

TEST(Catalog, ShippedV100MatchesItsDatasheet) {
  HardwareSpec s = load_hardware("v100");
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp32), 15.7e12);
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp16), 125e12);
  EXPECT_DOUBLE_EQ(s.dram().bandwidth_Bps, 900e9);
  EXPECT_DOUBLE_EQ(s.dram().capacity_bytes, 16 * GiB);
  EXPECT_DOUBLE_EQ(s.link->bandwidth_Bps, 15.75e9);
  s = load_hardware("v100", {"compute.fp32=120 TFLOPS"});
  EXPECT_DOUBLE_EQ(*s.peak(DType::fp32), 120e12);
}

TEST(Catalog, UnknownNamesListCloseOnes) {
  try {
    load_hardware("v10");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "unknown hardware 'v10'")) << e.what();
    EXPECT_TRUE(contains(e.hint(), "'v100'")) << e.hint();
  }
  EXPECT_THROW(load_hardware("no/such/file.toml"), InputError);
}

}  // namespace
}  // namespace ridge

namespace ridge {
namespace {

TEST(ListHardware, OneLineEachWithRidgePoint) {
  ridge_test::RidgeRun r = ridge_test::run_ridge("list hardware");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string& out = r.out;
  for (const std::string& name : shipped_hardware_names()) EXPECT_NE(out.find("\n" + name + " "), std::string::npos) << name;
  // V100: 15.7 TFLOP/s / 900 GB/s = 17.4 FLOP/B at fp32; 125e12 / 900e9 = 138.9 at fp16.
  // The table wraps at 120 columns into blocks that each start with the id: v100's row
  // is its lines of every block.
  std::string line;
  for (size_t v100 = out.find("\nv100 "); v100 != std::string::npos; v100 = out.find("\nv100 ", v100 + 1))
    line += out.substr(v100 + 1, out.find('\n', v100 + 1) - v100 - 1);
  ASSERT_FALSE(line.empty());
  EXPECT_NE(line.find("900.0 GB/s"), std::string::npos) << line;
  EXPECT_NE(line.find("16 GiB"), std::string::npos) << line;
  EXPECT_NE(line.find("17.4"), std::string::npos) << line;
  EXPECT_NE(line.find("138.9  fp16"), std::string::npos) << line;
  // Derived host figures are printed with how they were derived.
  EXPECT_NE(out.find("xeon-2s-ddr4: DDR4 bandwidth = 2 sockets x 6 channels x 2933 MT/s x 8 B = 281.6 GB/s"),
            std::string::npos);
}

}  // namespace
}  // namespace ridge
