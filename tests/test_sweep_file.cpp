// Sweep files: expansion counts, [[vary]] values and ranges, and located errors, all
// against values worked out by hand.
#include <gtest/gtest.h>

#include "sim/base/error.hpp"
#include "sim/engine/sweep_file.hpp"
#include "sim/engine/sweep_run.hpp"

namespace ridge {
namespace {

std::vector<std::string> texts(const std::vector<SweepItem>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(i.text);
  return out;
}

// The location of the InputError `text` raises, as "line:col", and its message.
std::pair<std::string, std::string> error_of(const std::string& text, bool plan = false) {
  try {
    SweepFile f = parse_sweep(text, "s.toml");
    if (plan) plan_sweep(std::move(f));
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "s.toml") << e.what();
    return {std::to_string(e.where().line) + ":" + std::to_string(e.where().column), e.what()};
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

TEST(SweepFile, CountIsTheProductOfEveryList) {
  SweepFile f = parse_sweep(R"(
models = ["alexnet", "gpt2"]
hardware = ["v100", "a100"]
hw_model = ["roofline", "hierarchical"]
batch = [1, 8, 64]
dtype = ["fp32", "fp16"]
phase = ["inference", "training"]
[[vary]]
key = "efficiency.memory"
values = [0.5, 0.7, 0.9]
[[vary]]
key = "overhead.kernel_launch"
values = ["1 us", "5 us"]
)", "s.toml");
  // 2 models x 2 hardware x 2 hw models x 3 batches x 2 dtypes x 2 phases x 3 x 2 values = 576.
  EXPECT_EQ(f.point_count(), 576u);
  EXPECT_EQ(texts(f.vary[0].values), (std::vector<std::string>{"0.5", "0.7", "0.9"}));
  EXPECT_EQ(texts(f.vary[1].values), (std::vector<std::string>{"1 us", "5 us"}));
}

TEST(SweepFile, DefaultsAreOnePointEach) {
  SweepFile f = parse_sweep("models = [\"alexnet\"]\nhardware = [\"v100\"]\n", "s.toml");
  EXPECT_EQ(f.point_count(), 1u);
  EXPECT_EQ(f.batches, std::vector<int64_t>{1});
  EXPECT_EQ(f.dtypes, std::vector<DType>{DType::fp32});
  EXPECT_EQ(f.phases, std::vector<Phase>{Phase::inference});
  ASSERT_EQ(f.hw_models.size(), 1u);
  EXPECT_EQ(f.hw_models[0].text, "");  // each descriptor's own model
}

TEST(SweepFile, NumericValuesTakeTheUnit) {
  SweepFile f = parse_sweep(R"(
models = ["alexnet"]
hardware = ["v100"]
[[vary]]
key = "memory.HBM2.bandwidth"
unit = "GB/s"
values = [900, 1500.5, "3 TB/s"]
)", "s.toml");
  EXPECT_EQ(texts(f.vary[0].values), (std::vector<std::string>{"900 GB/s", "1500.5 GB/s", "3 TB/s"}));
  EXPECT_EQ(f.vary[0].values[2].where.line, 7);
}

std::vector<std::string> range(const std::string& body) {
  SweepFile f = parse_sweep("models = [\"alexnet\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\n" + body,
                            "s.toml");
  return texts(f.vary[0].values);
}

TEST(SweepFile, LinearRanges) {
  EXPECT_EQ(range("unit = \"GB/s\"\nfrom = 900\nto = 3600\nstep = 900\n"),
            (std::vector<std::string>{"900 GB/s", "1800 GB/s", "2700 GB/s", "3600 GB/s"}));
  // The last step would pass `to`: 1, 4, 7 (10 > 8).
  EXPECT_EQ(range("from = 1\nto = 8\nstep = 3\n"), (std::vector<std::string>{"1", "4", "7"}));
  // 0.1 + 2 x 0.1 is 0.30000000000000004 in binary; 12 significant digits give 0.3.
  EXPECT_EQ(range("from = 0.1\nto = 0.5\nstep = 0.1\n"), (std::vector<std::string>{"0.1", "0.2", "0.3", "0.4", "0.5"}));
  EXPECT_EQ(range("unit = \"TB/s\"\nfrom = 1\nto = 2\ncount = 5\n"),
            (std::vector<std::string>{"1 TB/s", "1.25 TB/s", "1.5 TB/s", "1.75 TB/s", "2 TB/s"}));
}

TEST(SweepFile, LogRanges) {
  EXPECT_EQ(range("unit = \"GB/s\"\nfrom = 1\nto = 1000\ncount = 4\nscale = \"log\"\n"),
            (std::vector<std::string>{"1 GB/s", "10 GB/s", "100 GB/s", "1000 GB/s"}));
  // step is a factor on a log scale: 100, 200, 400, 800 (1600 > 1000).
  EXPECT_EQ(range("from = 100\nto = 1000\nstep = 2\nscale = \"log\"\n"),
            (std::vector<std::string>{"100", "200", "400", "800"}));
  // 10^(0, 1/2, 1): 1, 3.16227766017, 10.
  EXPECT_EQ(range("from = 1\nto = 10\ncount = 3\nscale = \"log\"\n"), (std::vector<std::string>{"1", "3.16227766017", "10"}));
}

TEST(SweepFile, StarMeansEveryShippedName) {
  SweepFile f = parse_sweep("models = [\"*\"]\nhardware = [\"*\", \"v100\"]\n", "s.toml");
  EXPECT_GE(f.models.size(), 3u);  // alexnet, bert-base, gpt2 at least
  EXPECT_EQ(f.models.front().text, "alexnet");
  EXPECT_EQ(f.hardware.back().text, "v100");
}

TEST(SweepFile, ErrorsAreLocated) {
  const std::string head = "models = [\"alexnet\"]\nhardware = [\"v100\"]\n";
  EXPECT_EQ(error_of("models = [\"alexnet\"\nhardware = 3\n").first.substr(0, 2), "2:");  // TOML syntax
  auto e = error_of(head + "batch = []\n");
  EXPECT_EQ(e.first, "3:9");
  EXPECT_NE(e.second.find("empty list"), std::string::npos);
  EXPECT_EQ(error_of(head + "dtype = [\"fp32\", \"fp17\"]\n").first, "3:18");
  EXPECT_EQ(error_of(head + "batch = [1, 0]\n").first, "3:13");
  // A float is not an integer, however large: 1e308 was cast to int64 first (undefined
  // behaviour, found by fuzz_sweep), and is now refused where it stands like 2.5.
  for (const char* list : {"batch = [1e308]\n", "batch = [2.5]\n", "seq = [1e308]\n"})
    EXPECT_EQ(error_of(head + "phase = [\"prefill\"]\n" + list).first, "4:" + std::string(list[0] == 'b' ? "10" : "8")) << list;
  EXPECT_EQ(error_of(head + "phase = [\"decode\"]\ncontext = [-1e308]\n").first, "4:12");
  EXPECT_EQ(error_of(head + "phase = [\"inference\", \"train\"]\n").first, "3:23");
  EXPECT_EQ(error_of(head + "hw_model = [\"rofline\"]\n").first, "3:13");
  EXPECT_EQ(error_of(head + "batches = [1]\n").first, "3:11");  // unknown key
  EXPECT_EQ(error_of("hardware = [\"v100\"]\n").first, "1:1");  // missing models
  EXPECT_EQ(error_of(head + "[[vary]]\nkey = \"efficiency.memory\"\nfrom = 2\nto = 1\nstep = 1\n").first, "7:8");
  EXPECT_EQ(error_of(head + "[[vary]]\nkey = \"efficiency.memory\"\nfrom = 1\nto = 2\nstep = 1\ncount = 2\n").first, "8:9");
  EXPECT_EQ(error_of(head + "[[vary]]\nkey = \"efficiency.memory\"\nvalues = []\n").first, "5:10");
  EXPECT_EQ(error_of(head + "[[vary]]\nkey = \"efficiency.memory\"\nvalues = [0.5]\n[[vary]]\nkey = \"efficiency.memory\"\nvalues = [0.6]\n").first,
            "7:7");
}

TEST(SweepFile, NamesAndKeysAreCheckedWhereWritten) {
  auto e = error_of("models = [\"alexnet\", \"alexnett\"]\nhardware = [\"v100\"]\n", true);
  EXPECT_EQ(e.first, "1:22");
  EXPECT_NE(e.second.find("unknown model 'alexnett'"), std::string::npos);
  EXPECT_EQ(error_of("models = [\"alexnet\"]\nhardware = [\"v100\", \"v1000\"]\n", true).first, "2:21");
  // a100's DRAM is HBM2e, so a key naming v100's HBM2 does not apply to it.
  e = error_of("models = [\"alexnet\"]\nhardware = [\"v100\", \"a100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\nvalues = [\"1 TB/s\"]\n",
               true);
  EXPECT_EQ(e.first, "4:7");
  EXPECT_NE(e.second.find("a100"), std::string::npos);
  EXPECT_EQ(error_of("models = [\"alexnet\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwith\"\nvalues = [1]\n", true).first,
            "4:7");
  // A value the descriptor reader rejects is reported at the value.
  EXPECT_EQ(error_of("models = [\"alexnet\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\nvalues = [\"1 TB/s\", \"-2 GB/s\"]\n",
                     true).first,
            "5:21");
}

TEST(SweepPlan, CoordinatesFollowTheRowOrder) {
  SweepPlan plan = plan_sweep(parse_sweep(R"(
models = ["alexnet", "gpt2"]
hardware = ["v100", "a100"]
batch = [1, 8, 64]
dtype = ["fp32", "fp16"]
phase = ["inference", "training"]
[[vary]]
key = "overhead.kernel_launch"
values = ["1 us", "9 us"]
)", "s.toml"));
  // Row order: model, hardware, [[vary]], phase, dtype, optimizer, batch (fastest).
  // Index of (gpt2, a100, 9 us, training, fp32, batch 8):
  // ((((1*2 + 1)*2 + 1)*2 + 1)*2 + 0)*3 + 1 = (15*2)*3 + 1 = 91.
  SweepCoords c = plan.coords(91);
  EXPECT_EQ(c.model, 1u);
  EXPECT_EQ(plan.hw_points[c.hw_point].hardware, 1u);
  EXPECT_EQ(plan.hw_points[c.hw_point].value, std::vector<size_t>{1});
  EXPECT_EQ(c.phase, Phase::training);
  EXPECT_EQ(c.dtype, DType::fp32);
  EXPECT_EQ(c.batch, 8);
  EXPECT_DOUBLE_EQ(plan.hw_points[c.hw_point].spec.kernel_launch_s, 9e-6);
  EXPECT_EQ(plan.point_count(), 96u);  // 2 x 2 x 2 x 2 x 2 x 3
  EXPECT_EQ(plan.group_count(), 24u);  // 2 models x 2 phases x 2 dtypes x 3 batches
}

}  // namespace
}  // namespace ridge
