// The work one layer asks of hardware in one step: arithmetic and the bytes of each
// tensor stream, already summed over forward (and, in training, backward and the
// optimizer update). Hardware models time this; they never look at layer types.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/workload/layer_counts.hpp"
#include "sim/workload/op_class.hpp"

namespace ridge {

struct LayerWork {
  double flops = 0;           // arithmetic the compute units are timed for
  double epilogue_flops = 0;  // counted FLOPs done in a fused epilogue beside the MACs: not timed
  double input_bytes = 0;   // activations read
  double output_bytes = 0;  // activations written
  double weight_bytes = 0;  // weights (and, in training, gradients and optimizer state) moved
  double kv_bytes = 0;      // KV cache read and written (prefill, decode)
  double dequant_weights = 0;  // weight-only quantised weights the kernel widens (LayerCost::dequant_weights)
  double link_bytes = 0;    // bytes that cross the host link (with --data-on host)
  int kernels = 1;          // kernel launches (0 for a view that moves nothing)
  OpClass op_class = OpClass::data_movement;  // selects the calibrated efficiency, if any
  // The GEMM of a conv or linear layer, which a calibration's shape terms read: its rows
  // (LayerCost::gemm_rows: a linear layer's batch x tokens, a conv's positions per image)
  // and its dot-product length (LayerCounts::gemm_reduction); 0: none.
  double gemm_positions = 0;
  double gemm_reduction = 0;
  // The whole step's weights and KV cache (every layer's): what must fit in a memory
  // level together to stay resident there from one step to the next (the hierarchical
  // model). 0: judge by this layer's own streams (a measured layer timed alone).
  double step_weight_bytes = 0;
  double step_kv_bytes = 0;
  // What a framework's choice of kernel library reads (hw/kernel_library.hpp): the
  // samples in the step, the forward input's elements over all of them, and a
  // convolution's geometry (groups 0: not a convolution).
  double batch = 0;
  double input_elements = 0;
  ConvShape conv;
  // The output overwrites the input (an in-place ReLU, LayerCounts::inplace, forward
  // only): one buffer, so the activations occupy max(input, output) bytes of a cache,
  // not their sum. The traffic is the same.
  bool in_place = false;

  double bytes() const { return input_bytes + output_bytes + weight_bytes + kv_bytes; }
  // The bytes the layer's activations occupy at once (what must fit a cache level).
  double activation_footprint() const {
    return in_place ? (input_bytes > output_bytes ? input_bytes : output_bytes) : input_bytes + output_bytes;
  }
};

}  // namespace ridge

namespace ridge {

struct Model;
struct CostAnalysis;

// The work of every layer of `model` in one step of `costs.settings`. With data on the
// host, the model's input crosses the link once (charged to the first layer reading
// it) and the last layer's output crosses back.
std::vector<LayerWork> layer_work(const Model& model, const CostAnalysis& costs);

}  // namespace ridge
