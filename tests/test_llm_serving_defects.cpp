// Regression tests for the defects of issue #25 (LLM serving as a new user tries it):
// each runs the command that misled and checks the answer it must now give, with the
// expected values computed by hand here (or taken from the published measurement named).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

using ridge_test::run_ridge;
using ridge_test::RidgeRun;

class LlmServing : public ridge_test::FolderTest {};

// The layer named `name` of `analyze --format json` output.
nlohmann::json layer_of(const std::string& json, const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(json);
  for (const nlohmann::json& l : j["layers"])
    if (l["name"] == name) return l;
  ADD_FAILURE() << "no layer " << name;
  return {};
}

TEST_F(LlmServing, SetModelParameterWorksWithHw) {
  // Every --set reached the hardware descriptor: "unknown hardware key 'model.seq'".
  RidgeRun r = run_ridge("analyze gpt2 --hw h200 --set model.seq=512 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  // lm_head at 512 tokens: 512 x 768 x 50257 MACs.
  EXPECT_EQ(layer_of(r.out, "lm_head")["macs"].get<int64_t>(), int64_t{512} * 768 * 50257);
  // A hardware --set beside it still reaches the descriptor.
  RidgeRun both = run_ridge("analyze gpt2 --hw h200 --set model.seq=512 --set 'compute.fp32=\"1 TFLOPS\"' --format json");
  ASSERT_EQ(both.status, 0) << both.err;
  // lm_head is compute-bound at 1 TFLOP/s: 2 x 512 x 768 x 50257 FLOPs / 1e12 = 39.52 ms.
  EXPECT_NEAR(layer_of(both.out, "lm_head")["compute_time_s"].get<double>(), 2.0 * 512 * 768 * 50257 / 1e12, 1e-9);
}

TEST_F(LlmServing, OneGemmIsOneTimeWhereverItsRowsComeFrom) {
  // 4096 x 16 x 4096 fp16 on v100-calibrated, its 16 rows once from the batch and once
  // from the sequence: the GEMM-shape term took rows per sample (1 against 16), and
  // priced the batch encoding 14x slower (807 us against 57.8 us).
  const std::string by_batch = write("batch.toml",
      "name = \"rows-from-batch\"\n[input]\nshape = [4096]\n[[layer]]\nname = \"fc\"\nop = \"linear\"\n"
      "out_features = 4096\nbias = false\n");
  const std::string by_seq = write("seq.toml",
      "name = \"rows-from-sequence\"\n[input]\nshape = [16, 4096]\n[[layer]]\nname = \"fc\"\nop = \"linear\"\n"
      "out_features = 4096\nbias = false\n");
  RidgeRun b = run_ridge("analyze '" + by_batch + "' --hw v100-calibrated --dtype fp16 --batch 16 --format json");
  RidgeRun s = run_ridge("analyze '" + by_seq + "' --hw v100-calibrated --dtype fp16 --format json");
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(s.status, 0) << s.err;
  const double tb = layer_of(b.out, "fc")["time_s"].get<double>();
  const double ts = layer_of(s.out, "fc")["time_s"].get<double>();
  EXPECT_DOUBLE_EQ(tb, ts);
  // DeepBench (V100, results/train/DeepBench_NV_V100.xlsx) measured this GEMM at 51 us
  // (NN) and 58 us (TN); the calibration's held-out GEMM error is about 10 %, so 20 %
  // either side of that range.
  EXPECT_GT(tb, 51e-6 * 0.8);
  EXPECT_LT(tb, 58e-6 * 1.2);
}

TEST_F(LlmServing, GenerateRefusesAKvCacheLargerThanTheDevice) {
  // llama-2-7b on an L4 (24 GiB), 3000 + 1000 tokens, batch 64. Usable: 24 x 2^30 x 0.95
  // = 24,481,313,587 B. Weights: 6,738,415,616 x 2 B = 13,476,831,232 B. The last step
  // caches 3000 + 999 tokens of 32 layers x 2 x 4096 x 2 B = 524,288 B each:
  // 2,096,627,712 B per sequence (decode's activations add a few hundred kB).
  // Largest batch: floor((24,481,313,587 - 13,476,831,232) / 2,096,627,712) = 5.
  RidgeRun r = run_ridge("generate llama-2-7b --hw l4 --prompt 3000 --gen 1000 --batch 64");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: does not fit in device memory: llama-2-7b at batch 64", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("weights 13.48 GB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hint: the largest batch that fits is 5 (--batch 5)"), std::string::npos) << r.err;
  RidgeRun five = run_ridge("generate llama-2-7b --hw l4 --prompt 3000 --gen 1000 --batch 5");
  EXPECT_EQ(five.status, 0) << five.err;
  EXPECT_EQ(run_ridge("generate llama-2-7b --hw l4 --prompt 3000 --gen 1000 --batch 6").status, 2);
}

TEST_F(LlmServing, GenerateRefusesWeightsLargerThanTheDevice) {
  // Mixtral 8x7B: 46,702,792,704 parameters x 2 B = 93.4 GB against an A100's 80 GiB x
  // 0.95 = 81,604,378,624 B: no batch fits.
  RidgeRun r = run_ridge("generate mixtral-8x7b --hw a100 --prompt 128 --gen 128");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("weights 93.41 GB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hint: no batch fits"), std::string::npos) << r.err;
  // int4 weights (a quarter, plus scales) fit.
  EXPECT_EQ(run_ridge("generate mixtral-8x7b --hw a100 --prompt 128 --gen 128 --weight-dtype int4").status, 0);
}

TEST_F(LlmServing, AnalyzeAndQuerySayWhenItDoesNotFit) {
  for (const char* cmd : {"analyze", "query"}) {
    SCOPED_TRACE(cmd);
    RidgeRun r = run_ridge(std::string(cmd) + " llama-2-7b --hw l4 --phase decode --context 3998 --batch 64");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(r.out.empty());
    EXPECT_EQ(r.err.rfind("warning: does not fit in device memory: llama-2-7b at batch 64", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("the largest batch that fits is 5"), std::string::npos) << r.err;
    EXPECT_EQ(run_ridge(std::string(cmd) + " llama-2-7b --hw l4 --phase decode --context 3998 --batch 5").err, "");
  }
}

TEST_F(LlmServing, HierarchicalDecodeIsNoFasterThanItsWeightsFromHbm) {
  // The hierarchical model kept each layer's weights in the 50 MB L2 whenever that layer's
  // alone fit (q/k/v/o: 33.5 MB), so decode took 3.28 ms. The step's linear weights,
  // 32 x (4 x 4096^2 + 3 x 4096 x 11008) + 4096 x 32000 = 6,607,077,376 parameters x 2 B
  // = 13,214,154,752 B, cannot stay in L2 and stream from HBM3 at 3.35 TB/s: 3.9445 ms.
  RidgeRun r = run_ridge("analyze llama-2-7b --hw h100 --phase decode --context 1024 --overhead none "
                         "--hw-model hierarchical --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["totals"]["time_s"].get<double>(), 13'214'154'752 / 3.35e12);
}

TEST_F(LlmServing, PrefillComputesTheLastTokensLogitsOnly) {
  // vLLM and TensorRT-LLM compute lm_head for the last prompt token of each sequence:
  // 4096 x 32000 = 131,072,000 MACs per sequence, not 512 times that; --all-logits
  // (scoring a text) computes them all. Batch 2: twice each.
  RidgeRun last = run_ridge("analyze llama-2-7b --phase prefill --seq 512 --batch 2 --format json");
  RidgeRun all = run_ridge("analyze llama-2-7b --phase prefill --seq 512 --batch 2 --all-logits --format json");
  ASSERT_EQ(last.status, 0) << last.err;
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(layer_of(last.out, "lm_head")["macs"].get<int64_t>(), int64_t{2} * 4096 * 32000);
  EXPECT_EQ(layer_of(all.out, "lm_head")["macs"].get<int64_t>(), int64_t{2} * 512 * 4096 * 32000);
  // It reads one 4096-wide row per sequence and writes one row of 32000 logits (fp16).
  EXPECT_EQ(layer_of(last.out, "lm_head")["input_bytes"].get<int64_t>(), 2 * 4096 * 2);
  EXPECT_EQ(layer_of(last.out, "lm_head")["output_bytes"].get<int64_t>(), 2 * 32000 * 2);
}

TEST_F(LlmServing, WeightOnlyQuantisationKeepsLmHeadIn16BitUnlessAsked) {
  // lm_head of llama-2-7b, 4096 x 32000 = 131,072,000 weights: 262,144,000 B in fp16.
  // With --quantize-lm-head and int4 in groups of 64: 65,536,000 B + 2,048,000 scales x 2 B.
  const std::string run = "analyze llama-2-7b --phase decode --context 16 --weight-dtype int4 --format json";
  RidgeRun kept = run_ridge(run);
  RidgeRun asked = run_ridge(run + " --weight-group 64 --quantize-lm-head");
  ASSERT_EQ(kept.status, 0) << kept.err;
  ASSERT_EQ(asked.status, 0) << asked.err;
  EXPECT_EQ(layer_of(kept.out, "lm_head")["weight_bytes"].get<int64_t>(), 262'144'000);
  EXPECT_EQ(layer_of(asked.out, "lm_head")["weight_bytes"].get<int64_t>(), 65'536'000 + 4'096'000);
}

TEST_F(LlmServing, MistralsSlidingWindowBoundsItsKvCacheAndTraffic) {
  // Decode at context 8000: a query sees the last 4095 cached tokens and itself, so each
  // attention layer moves (4095 read + 1 written) x 2 x 8 KV heads x 128 x 2 B =
  // 16,777,216 B per sequence, not 8001 x 4096 B.
  RidgeRun r = run_ridge("analyze mistral-7b --phase decode --context 8000 --format json --columns all");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json attn = layer_of(r.out, "layers.0.attn");
  EXPECT_EQ(attn["kv_bytes"].get<int64_t>(), 4096 * 4096);
  // The cache holds 4096 tokens x 32 layers x 4096 B = 536,870,912 B per sequence.
  RidgeRun m = run_ridge("memory mistral-7b --phase decode --context 8000 --format json");
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_NE(m.out.find("\"kv_cache_tokens\": 4096"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("\"kv_cache_bytes\": 536870912"), std::string::npos) << m.out;
  // Prefill of 5000 tokens: query i sees min(i + 1, 4096) keys, 4096 x 4097 / 2 + 904 x
  // 4096 = 12,093,440 pairs per head; 32 heads x 2 products x 128 MACs each.
  RidgeRun p = run_ridge("analyze mistral-7b --phase prefill --seq 5000 --format json");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(layer_of(p.out, "layers.0.attn")["macs"].get<int64_t>(), int64_t{12'093'440} * 32 * 2 * 128);
}

TEST_F(LlmServing, SweepsVaryKvDtypeWeightDtypeAndOverhead) {
  const std::string file = write("serve.toml",
      "models = [\"llama-2-7b\"]\nhardware = [\"a100\"]\ndtype = [\"fp16\"]\nphase = [\"decode\"]\ncontext = [1024]\n"
      "kv_dtype = [\"fp16\", \"fp8\"]\nweight_dtype = [\"none\", \"int4\"]\noverhead = [\"kernel\", \"none\"]\n");
  RidgeRun r = run_ridge("sweep '" + file + "' --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string header;
  while (std::getline(lines, header) && header.starts_with("#")) {
  }
  std::vector<std::string> columns;
  std::istringstream hs(header);
  for (std::string c; std::getline(hs, c, ',');) columns.push_back(c);
  auto column = [&](const std::string& key) {
    size_t i = std::find(columns.begin(), columns.end(), key) - columns.begin();
    EXPECT_LT(i, columns.size()) << key << " in " << header;
    return i;
  };
  const size_t kv = column("kv_dtype"), weights = column("weight_dtype"), overhead = column("overhead"),
               time = column("time_s");
  // 2 x 2 x 2 points, each the step `analyze` gives with the same options.
  int rows = 0;
  for (std::string line; std::getline(lines, line) && !line.empty() && !line.starts_with("#");) {
    std::vector<std::string> f;
    std::istringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) f.push_back(c);
    ASSERT_EQ(f.size(), columns.size()) << line;
    ++rows;
    RidgeRun a = run_ridge("analyze llama-2-7b --hw a100 --dtype fp16 --phase decode --context 1024 --kv-dtype " + f[kv] +
                           (f[weights] == "none" ? "" : " --weight-dtype " + f[weights]) + " --overhead " + f[overhead] +
                           " --format json");
    ASSERT_EQ(a.status, 0) << a.err;
    const double step = nlohmann::json::parse(a.out)["totals"]["time_s"].get<double>();
    EXPECT_NEAR(std::stod(f[time]), step, 1e-5 * step) << line;
  }
  EXPECT_EQ(rows, 8);
}

}  // namespace
