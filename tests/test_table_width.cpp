// Every default text report fits a 120-column terminal (docs/reference/conventions.md):
// each table-producing command over every zoo model and every shipped descriptor, at
// batch 1 and 256 and in every phase, and no stdout line is wider than 120 code points
// (UTF-8 counted by code point: "…" and "µ" are one column). The full product of models,
// descriptors, batches and phases is ~1,000 runs; this takes every model on four
// descriptors that span the widths (GPU with L2, calibrated, host, many-level) and every
// descriptor on two models (a CNN and an LLM with the longest layer names).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/hardware_catalog.hpp"
#include "sim/workload/model_catalog.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

using ridge_test::run_ridge;

constexpr size_t kWidth = 120;

size_t code_points(const std::string& line) {
  size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

// "" when every line of `text` fits, else the widest line and its width.
std::string widest_over(const std::string& text) {
  size_t start = 0, widest = 0;
  std::string line_found;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (code_points(line) > kWidth && code_points(line) > widest) widest = code_points(line), line_found = line;
    start = end + 1;
  }
  return widest ? std::to_string(widest) + " columns: " + line_found : "";
}

std::vector<std::string> commands_to_check() {
  std::vector<std::string> cmds = {"list models", "list hardware", "list systems", "list hw-models"};
  const std::vector<std::string> spread = {"v100", "h200", "v100-calibrated", "ddr4-desktop"};
  const std::string src = RIDGE_SOURCE_DIR;
  for (const std::string& m : zoo_names()) {
    cmds.push_back("analyze " + m);
    for (const std::string& hw : spread)
      for (const char* batch : {"1", "256"}) cmds.push_back("analyze " + m + " --hw " + hw + " --batch " + batch);
    cmds.push_back("analyze " + m + " --hw a100 --phase training --batch 64");
    cmds.push_back("memory " + m + " --hw h200 --batch 8");
    cmds.push_back("memory " + m + " --hw h200 --timeline --checkpoint sqrt");
    cmds.push_back("query " + m + " --hw v100");
    cmds.push_back("compare " + m + " --hw v100 --hw h200 --hw mi300x --hw ddr4-desktop");
  }
  for (const std::string& hw : shipped_hardware_names())
    for (const char* m : {"resnet50", "llama-3-8b"}) cmds.push_back(std::string("analyze ") + m + " --hw " + hw + " --batch 64");
  for (const char* m : {"gpt2", "llama-2-70b", "mixtral-8x7b", "gpt3"}) {
    cmds.push_back(std::string("analyze ") + m + " --hw h100 --phase decode --context 1000 --batch 256");
    cmds.push_back(std::string("analyze ") + m + " --hw h100 --phase prefill --batch 8");
    cmds.push_back(std::string("query ") + m + " --hw h100 --phase decode --context 1000");
  }
  for (const char* m : {"gpt2", "llama-3-8b", "llama-2-70b", "mixtral-8x7b"})  // that fit an MI300X's 192 GiB
    cmds.push_back(std::string("generate ") + m + " --hw mi300x --prompt 512 --gen 256");
  cmds.push_back("query alexnet --hw v100 --layer conv1");
  cmds.push_back("query llama-3-8b --hw ddr4-desktop --dtype fp32 --phase decode --context 4096 --layer layers.0.q_proj");
  cmds.push_back("plan gpt3 --system dgx-a100 --gpus 1024 --global-batch 1536");
  cmds.push_back("plan llama-2-70b --system dgx-h100 --gpus 64 --global-batch 512");
  cmds.push_back("query gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=4 --global-batch 256");
  cmds.push_back("analyze gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=4 --global-batch 256");
  cmds.push_back("memory gpt3 --system dgx-a100 --parallel tp=8,pp=8,dp=4 --global-batch 256");
  cmds.push_back("analyze resnet50 --system dgx1-v100 --parallel dp=8 --global-batch 256");
  cmds.push_back("generate llama-2-70b --system dgx-a100 --parallel tp=8 --prompt 128 --gen 128");
  cmds.push_back("compare resnet50 --hw v100 --hw a100 --hw h100 --hw k80 --hw gtx1080ti --phase training --batch 64");
  cmds.push_back("sweep " + src + "/configs/sweeps/gpt3-dgx-a100-parallel.toml --format table");
  for (const char* sweep : {"ddr4-vs-gpu-batch", "full-zoo", "gpu-generations", "hbm-bandwidth-whatif", "llm-prefill",
                            "llm-serving"})
    cmds.push_back("sweep " + src + "/configs/sweeps/" + sweep + ".toml --format table");
  cmds.push_back("calibrate " + src + "/configs/calibration/data/deepbench-v100.csv --hw v100 --cv-by fold");
  return cmds;
}

TEST(TableWidth, EveryDefaultReportFits120Columns) {
  for (const std::string& cmd : commands_to_check()) {
    ridge_test::RidgeRun r = run_ridge(cmd);
    ASSERT_EQ(r.status, 0) << "ridge " << cmd << "\n" << r.err;
    EXPECT_EQ(widest_over(r.out), "") << "ridge " << cmd;
  }
}

}  // namespace
}  // namespace ridge
