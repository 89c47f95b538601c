// `ridge query` from the engine up, on the worked example's 120 TFLOP/s fp32, 900 GB/s
// chip built in code; every expected figure is worked out by hand in the comments.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/run_ridge.hpp"

#include <cstdio>
#include <sys/wait.h>

#include "hw/model_registry.hpp"
#include "tests/test_chips.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/layer_query.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/views/query_report.hpp"

namespace ridge {
namespace {

HardwareSpec chip() { return test::chip120(); }

LayerQuery query(const std::string& layer, int64_t batch = 1, const HardwareSpec& hw = chip(),
                 const std::string& model = "roofline") {
  RunSettings s;
  s.batch = batch;
  return query_layer(load_model("alexnet"), s, hw, find_hardware_model(model), layer);
}

TEST(Query, Conv1IsBandwidthLimitedAtAnyBatch) {
  LayerQuery q = query("conv1");
  EXPECT_TRUE(q.layer.timing.memory_bound());
  EXPECT_EQ(q.layer.intensity_level, 0);
  // Timed FLOPs (2 x MACs = 210,830,400; the bias adds run in the fused epilogue) over
  // 1,919,724 B = 109.823 FLOP/B, under the ridge point 120e12 / 900e9 = 133.33 FLOP/B.
  EXPECT_NEAR(q.layer.arithmetic_intensity, 109.823, 0.001);
  EXPECT_NEAR(q.layer.ridge_point, 133.333, 0.001);
  // Needed: 1,919,724 B / 1.75692 us (2 x MACs / 120e12; the bias adds run in the fused
  // epilogue) = 1.0927 TB/s, against 900 GB/s.
  EXPECT_NEAR(q.layer.required_level_Bps, 1.0927e12, 0.0001e12);
  EXPECT_DOUBLE_EQ(q.layer.available_level_Bps, 900e9);
  EXPECT_NEAR(q.layer.streams[0].required_Bps, 618'348 / 1.75692e-6, 0.001e9);  // input 351.95 GB/s
  // Per sample: 210,830,400 timed FLOPs on 1,779,948 B of activations = 118.448 FLOP/B <
  // 133.33, so batching (which amortises only the 139,776 B of weights) never flips it.
  EXPECT_NEAR(q.per_sample_intensity, 118.448, 0.001);
  EXPECT_FALSE(q.compute_bound_at_batch.has_value());
  EXPECT_EQ(q.searched_to_batch, kFlipBatchLimit);
}

TEST(Query, Fc6TurnsComputeBoundAtBatch295) {
  // fc6: 9216 -> 4096 with bias. Per sample 2 x 37,748,736 = 75,497,472 timed FLOPs (the
  // 4096 bias adds run in the fused epilogue) and
  // (9216 + 4096) x 4 = 53,248 B of activations; weights (37,748,736 + 4096) x 4 =
  // 151,011,328 B. Compute-bound when 75,497,472 b / (53,248 b + 151,011,328) >= 133.33:
  // b >= 294.38. At 294 the intensity is 133.18, at 295 it is 133.59.
  LayerQuery q = query("fc6");
  EXPECT_TRUE(q.layer.timing.memory_bound());
  ASSERT_TRUE(q.compute_bound_at_batch.has_value());
  EXPECT_EQ(*q.compute_bound_at_batch, 295);
  EXPECT_TRUE(query("fc6", 294).layer.timing.memory_bound());
  EXPECT_FALSE(query("fc6", 295).layer.timing.memory_bound());
}

TEST(Query, ComputeBoundLayer) {
  // conv2 at batch 4: 27*27*256*(48*5*5) = 223,948,800 MACs per sample; timed are the
  // 2 x MACs (the bias adds run in the fused epilogue): 4 x 447,897,600 / 120e12 = 14.930 us.
  LayerQuery q = query("conv2", 4);
  EXPECT_FALSE(q.layer.timing.memory_bound());
  EXPECT_NEAR(q.layer.timing.compute_s, 4 * 447'897'600 / 120e12, 1e-15);
  EXPECT_LT(q.layer.required_level_Bps, q.layer.available_level_Bps);
  EXPECT_GT(q.layer.arithmetic_intensity, q.layer.ridge_point);
  EXPECT_FALSE(q.compute_bound_at_batch.has_value());
  EXPECT_NE(query_text(q, chip()).find("compute-bound"), std::string::npos);
}

TEST(Query, HierarchicalNamesTheLevelOfEachStream) {
  // fc6's 151 MB of weights do not fit a 6 MiB L2; its 53,248 B of activations do.
  HardwareSpec hw = chip();
  hw.memory.push_back({"L2", 6.0 * (1 << 20), 3e12});
  LayerQuery q = query("fc6", 1, hw, "hierarchical");
  EXPECT_EQ(q.layer.streams[0].level, 1);
  EXPECT_EQ(q.layer.streams[1].level, 1);
  EXPECT_EQ(q.layer.streams[2].level, 0);
  EXPECT_EQ(q.layer.intensity_level, 0);
  EXPECT_DOUBLE_EQ(q.layer.level_bytes, 151'011'328.0);
  EXPECT_DOUBLE_EQ(q.layer.streams[0].available_Bps, 3e12);
}

TEST(Query, ActivationsSplitOverLevelsAreSaidToBe) {
  // conv1 at batch 1: 1,779,948 B of input + output; a 1 MB level holds 1,000,000 B of
  // them (alexnet's weights do not fit it). DRAM serves the other 779,948 B and the
  // 139,776 B of weights: 919,724 B / 900 GB/s = 1.0219 us, longer than the level's
  // 1e6 / 3e12 = 0.333 us, so DRAM is the level in question, serving part of the streams.
  HardwareSpec hw = chip();
  hw.memory.push_back({"SRAM", 1e6, 3e12});
  LayerQuery q = query("conv1", 1, hw, "hierarchical");
  EXPECT_TRUE(q.layer.streams_split);
  EXPECT_EQ(q.layer.intensity_level, 0);
  EXPECT_DOUBLE_EQ(q.layer.level_bytes, 919'724.0);
  EXPECT_EQ(q.layer.streams[0].level, 1);  // named by the level serving most of them
  const std::string text = query_text(q, hw);
  EXPECT_NE(text.find("split over the levels: " + hw.memory[0].name + " serves"), std::string::npos) << text;
}

TEST(Query, TextAndJson) {
  LayerQuery q = query("conv1");
  std::string text = query_text(q, chip());
  EXPECT_NE(text.find("bandwidth-limited at HBM2"), std::string::npos) << text;
  EXPECT_NE(text.find("1.093 TB/s"), std::string::npos) << text;  // 1,919,724 B / 1.75692 us
  EXPECT_NE(text.find("900.0 GB/s"), std::string::npos) << text;
  nlohmann::json j = nlohmann::json::parse(dump_json(query_json(q, chip())));
  EXPECT_EQ(j["layer"], "conv1");
  EXPECT_EQ(j["bound"], "memory:HBM2");
  EXPECT_EQ(j["bandwidth_limited"], true);
  EXPECT_NEAR(j["arithmetic_intensity"].get<double>(), 210'830'400.0 / 1'919'724, 1e-9);  // timed FLOPs / bytes
  EXPECT_NEAR(j["ridge_point"].get<double>(), 120e12 / 900e9, 1e-9);
  EXPECT_NEAR(j["required_bandwidth_Bps"].get<double>(), 1'919'724 / (210'830'400 / 120e12), 1e3);
  EXPECT_EQ(j["available_bandwidth_Bps"].get<double>(), 900e9);
}

TEST(Query, UnknownLayerListsCloseNames) {
  try {
    query("conv");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no layer 'conv'"), std::string::npos);
    EXPECT_NE(e.hint().find("conv1"), std::string::npos);
  }
}

// The built binary, run from the source root: exit status and stdout + stderr.
std::pair<int, std::string> ridge(const std::string& args) {
  ridge_test::RidgeRun r = ridge_test::run_ridge(args);
  return {r.status, r.out + r.err};
}

TEST(QueryCli, AnswersInSentencesAndJson) {
  auto [rc, out] = ridge("query alexnet --hw tests/data/chip120.toml --layer conv1");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("bandwidth-limited at HBM2"), std::string::npos) << out;
  std::tie(rc, out) = ridge("query alexnet --hw tests/data/chip120.toml --layer fc6 --format json");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"compute_bound_at_batch\": 295"), std::string::npos) << out;
}

TEST(QueryCli, BadInputExitsTwo) {
  auto [rc, out] = ridge("query alexnet --hw tests/data/chip120.toml --layer conv");
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("did you mean 'conv1'"), std::string::npos) << out;
  std::tie(rc, out) = ridge("query alexnet --layer conv1");
  EXPECT_EQ(rc, 2) << out;
}

TEST(AnalyzeCli, HardwareColumnsAndErrors) {
  auto [rc, out] = ridge("analyze alexnet --hw tests/data/chip120.toml --format json");
  EXPECT_EQ(rc, 0) << out;
  for (const char* key : {"\"hardware\"", "\"compute_time_s\"", "\"memory_time_s\"", "\"time_s\"",
                          "\"bound\": \"memory:HBM2\"", "\"attained_flops\"", "\"required_bandwidth_Bps\"",
                          "\"required_bandwidth_by_tensor_Bps\"", "\"samples_per_s\"", "\"memory_bound_share\""})
    EXPECT_NE(out.find(key), std::string::npos) << key;
  std::tie(rc, out) = ridge("analyze alexnet --hw tests/data/chip120.toml --dtype fp8");
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("error: tests/data/chip120.toml has no fp8 peak"), std::string::npos) << out;
  std::tie(rc, out) = ridge("analyze alexnet --hw-model hierarchical");
  EXPECT_EQ(rc, 2) << out;
  std::tie(rc, out) = ridge("list hw-models");
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("hierarchical"), std::string::npos) << out;
  // The summary wraps onto a second line rather than being cut with "…".
  EXPECT_EQ(out.find("\u2026"), std::string::npos) << out;
  EXPECT_NE(out.find("the slowest level binds"), std::string::npos) << out;
}

TEST(AnalyzeCli, CsvCarriesTheTableColumns) {
  auto [rc, out] = ridge("analyze alexnet --hw tests/data/chip120.toml --format csv");
  EXPECT_EQ(rc, 0) << out;
  // Every field of the schema, under the keys JSON uses (docs/reference/json-schema.md).
  EXPECT_NE(out.find("compute_time_s,memory_time_by_level_s.HBM2,memory_time_s,link_time_s,overhead_time_s,time_s,bound,"
                     "step_share,attained_flops,roofline_attained_flops,peak_fraction,required_bandwidth_Bps"),
            std::string::npos) << out;
  EXPECT_NE(out.find("required_bandwidth_by_tensor_Bps.input,required_bandwidth_by_tensor_Bps.output,"
                     "required_bandwidth_by_tensor_Bps.weights"),
            std::string::npos);
}

}  // namespace
}  // namespace ridge
