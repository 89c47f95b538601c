// `ridge compare`: one model run timed on several devices, side by side. Per device the
// step time, throughput, memory fit and largest batch, how the step's time splits between
// compute-, memory- and launch/link-bound layers, energy and cost per sample; ratios against
// the first device; and the layers whose bound differs between the devices. Derived once
// here; views/compare_report only formats it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/engine/cost_of_use.hpp"
#include "sim/engine/result.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

struct ComparedDevice {
  std::string hardware;  // descriptor id ("v100")
  std::string name;      // "NVIDIA V100 SXM2 16 GB"
  RunResult run;         // the model timed on this device
  double time_s = 0;
  double samples_per_s = 0;
  double tokens_per_s = 0;      // prefill / decode: tokens per step / time (0 otherwise)
  bool fits = false;            // the step's peak memory fits the DRAM (less the runtime reserve)
  int64_t largest_batch = 0;    // largest batch whose peak fits
  // Shares of the step time spent in layers bound by compute, by memory, and by kernel
  // launches or the host link (0..1, summing to 1 when the step takes time).
  double compute_bound_share = 0;
  double memory_bound_share = 0;
  double overhead_bound_share = 0;
  std::optional<double> joules_per_sample;  // with [power]
  std::optional<double> average_power_w;
  std::optional<UseCost> cost;              // with the price the basis needs
  std::optional<double> samples_per_usd;
  std::optional<double> usd_per_1000_samples;
  std::optional<double> usd_per_million_tokens;  // prefill / decode
  // With a training run (TrainingRun): its hours on this device and its cost at usd_per_hour.
  std::optional<double> training_run_hours;
  std::optional<double> training_run_usd;
  // Against the first device (1 for the first): throughput, samples per dollar, energy per sample.
  double speedup = 1;
  std::optional<double> samples_per_usd_ratio;
  std::optional<double> joules_per_sample_ratio;
};

// A layer whose kind of bound (compute, memory, launches, link) is not the same on every
// device: its bound label per device.
struct BoundDifference {
  std::string layer;
  std::vector<std::string> bounds;  // parallel to ComparisonResult::devices
};

// A whole training run: how many samples it processes (epochs x dataset size, or training
// tokens / tokens per sample); none: the comparison is per step only.
struct TrainingRun {
  double samples = 0;
  std::string text;  // "3 epochs of 1281167 samples", for the report
};

struct ComparisonResult {
  std::string model;
  RunSettings settings;
  CostBasis basis;
  std::optional<TrainingRun> training_run;
  bool token_phase = false;  // prefill / decode: tokens are the unit of work
  std::vector<ComparedDevice> devices;
  std::vector<BoundDifference> differing_layers;
};

struct DeviceUnderTest {
  const HardwareSpec* spec = nullptr;
  const HardwareModel* model = nullptr;
};

// Each device must support the run's dtype (an InputError names the one that does not).
ComparisonResult compare_devices(const Model& model, const CostAnalysis& costs, const std::vector<DeviceUnderTest>& devices,
                                 const CostBasis& basis, const std::optional<TrainingRun>& training_run = std::nullopt);

}  // namespace ridge
