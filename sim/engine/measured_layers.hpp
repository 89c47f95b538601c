// A CSV of measured layer times, the input of `ridge calibrate` (columns in docs/guide/calibrate.md,
// "Calibration"): one row per layer run, with its op class, dtype, counted work and the
// measured seconds. Every bad value is a located InputError.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/base/error.hpp"
#include "sim/workload/dtype.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

struct MeasuredLayer {
  std::string model;
  std::string layer;
  DType dtype = DType::fp32;
  int64_t batch = 1;
  LayerWork work;   // flops, bytes per stream, kernels, op class
  double seconds = 0;
  std::map<std::string, std::string> extra;  // every other column, by header name (e.g. fold, load1)
  SourceLoc loc;    // the row
};

// Reads `path`. Lines starting with '#' and blank lines are skipped; the first other
// line is the header. Required: model, layer, op_class, dtype, flops, the time column
// (`seconds`, or another such as scripts/measure-layers' `min_seconds`), and
// input_bytes, output_bytes, weight_bytes (or one `bytes` column for all traffic);
// optional: batch (default 1), kernels (default 1), and for conv and linear layers the
// GEMM's positions per sample and reduction (default 0: no shape term); the work's
// LayerWork::gemm_positions is a linear row's batch x positions, its GEMM's rows in all
// (a convolution's stay per image, LayerCost::gemm_rows); for a convolution, the
// geometry a descriptor's [library] rule reads: groups, stride (the largest stride or
// dilation) and kernel_side (the smallest kernel side), the three together; without
// them the rule places a convolution in its default library. With them, optionally, what
// a descriptor's [conv_algorithms] rule also reads: kernel_side_max (the largest side),
// in_channels and out_channels (0: unknown); such a convolution is taken as 2-D; and
// in_place (0 or 1; 1 needs equal input_bytes and output_bytes): the layer's output
// overwrites its input (LayerWork::in_place).
std::vector<MeasuredLayer> read_measured_layers(const std::string& path, const std::string& time_column = "seconds");

// The same from text, as if read from `file` (tests).
std::vector<MeasuredLayer> parse_measured_layers(const std::string& text, const std::string& file,
                                                 const std::string& time_column = "seconds");

}  // namespace ridge
