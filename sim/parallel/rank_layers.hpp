// One tensor- and context-parallel rank's layers of a transformer, as a parallel plan
// runs them: the model's [params] set for the rank (`tp`, `seq` / cp, `layers` = 1: the
// repeated block once), run as one training microbatch in 16-bit mixed precision with
// Adam, and each layer's forward and backward work timed apart by a hardware model (the
// forward is the layer's work less its fused epilogue's FLOPs, counted with the
// backward; the backward its gradient work, one kernel where it has any). What a
// pipeline stage (sharded_layers.hpp), the backward pass a data-parallel all-reduce
// hides under, and a layer's bar in `ridge plot layers --parallel` are made of.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

// The 16-bit type a plan trains in on `hw`: bf16, or fp16 (with loss scaling, as Megatron-LM
// trains on V100s) on a device without bf16 math.
DType training_dtype(const HardwareSpec& hw);

// One training microbatch of `microbatch` sequences on `hw`: training_dtype, mixed precision, Adam.
RunSettings training_microbatch(int64_t microbatch, const HardwareSpec& hw);

// `overrides` and the rank's [params]: layers = 1, tp, and (cp > 1) seq = `seq` / cp.
std::vector<ParamOverride> rank_overrides(std::vector<ParamOverride> overrides, int64_t tp, int64_t cp, int64_t seq);

// Norms, dropouts and residual adds: the ops tensor parallelism replicates on every rank
// and sequence parallelism shards along the sequence.
bool replicated_by_tp(const std::string& op);

// {forward, backward}.
std::pair<LayerTiming, LayerTiming> time_passes(const Layer& layer, const LayerCost& cost, const HardwareSpec& hw,
                                                const HardwareModel& hw_model, DType dtype);

}  // namespace ridge
