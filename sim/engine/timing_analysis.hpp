// Timing a model on a piece of hardware: every layer's work (layer_work) through a
// hardware model, plus what reports and sweeps derive from it: attained FLOP/s, share
// of peak, arithmetic intensity, step time, samples/s and the memory-bound share.
// A pure function of its inputs; views only format the result.
#pragma once

#include <string>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/model.hpp"

namespace ridge {

struct LayerTimed {
  LayerWork work;
  LayerTiming timing;
  double attained_flops = 0;        // work.flops (timed, without the fused epilogue) / time_s; 0 when no time
  double peak_fraction = 0;         // attained_flops / nominal peak[dtype], 0..1
  double arithmetic_intensity = 0;  // all counted flops (epilogue included) / work.bytes(); 0 when nothing moves
};

struct TimingTotals {
  double flops = 0;
  double bytes = 0;
  double compute_s = 0;   // sums over layers
  double memory_s = 0;
  double link_s = 0;
  double overhead_s = 0;
  double time_s = 0;      // the step time: sum of the layer times
  double samples_per_s = 0;       // batch / step time (0 when the step takes no time)
  double memory_bound_share = 0;  // share of the step time spent in memory-bound layers, 0..1
  double attained_flops = 0;      // flops / step time
  double peak_fraction = 0;       // attained_flops / nominal peak[dtype]
};

struct TimingAnalysis {
  std::string hardware_model;  // the hardware model's registry name ("roofline")
  DType dtype = DType::fp32;
  double peak_flops = 0;       // nominal peak of the hardware at `dtype`
  std::vector<LayerTimed> layers;  // parallel to Model::layers
  TimingTotals totals;
};

// Throws InputError ("v100 has no fp8 peak") when `hw` does not support `dtype`.
void check_dtype_supported(const HardwareSpec& hw, DType dtype);

// Times every layer of `model` at `costs.settings` on `hw` with `hw_model`.
// Throws InputError when the dtype is not supported by `hw`.
TimingAnalysis analyze_timing(const Model& model, const CostAnalysis& costs, const HardwareSpec& hw,
                              const HardwareModel& hw_model);

// The ridge point of a memory level: the arithmetic intensity (FLOP/B) at which its
// achievable bandwidth just feeds the achievable compute peak at `dtype`.
double ridge_point(const HardwareSpec& hw, DType dtype, size_t level);

}  // namespace ridge
