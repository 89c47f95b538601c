// Sweep files (configs/sweeps/*.toml): the lists whose cartesian product is a sweep,
// parsed strictly with every value's file:line:col kept for later errors (an unknown
// model or hardware is reported where it was written). See docs/guide/sweep-hardware.md.
//
//   models   = ["alexnet", "gpt2"]              # zoo names or model files; "*": the zoo
//   hardware = ["v100", "my-gpu.toml"]          # shipped names or files; "*": all shipped
//                                               # (file paths relative to the sweep file)
//   batch    = [1, 8, 64]                       # default [1]
//   dtype    = ["fp32", "fp16"]                 # default ["fp32"]
//   phase    = ["inference", "training"]        # default ["inference"]
//   hw_model = ["roofline", "hierarchical"]     # default: each descriptor's own model
//   optimizer = ["adam"]                        # default ["adam"] (training only)
//   kv_dtype = ["fp16", "fp8"]                  # default: dtype's (prefill / decode only)
//   weight_dtype = ["none", "int8", "int4"]     # default ["none"]; not with training
//   overhead = ["kernel", "graph", "none"]      # default ["kernel"]
//
//   [cost]                                      # the basis of usd_per_hour, samples_per_usd
//   basis = "purchase"                          # or "cloud" (on-demand $/h); default purchase
//   years = 3                                   # purchase: amortisation, default 1
//   usd_per_kwh = 0.10                          # purchase: electricity, default 0.13
//
//   [[vary]]                                    # any number; each multiplies the sweep
//   key    = "memory.HBM2.bandwidth"            # a --set key path
//   values = ["900 GB/s", "1.5 TB/s"]           # values as a descriptor writes them,
//                                               # or numbers (with `unit` appended)
//   # or a range, in the key's unit:
//   unit = "GB/s"    from = 900    to = 3600
//   step = 900       # linear: from, from+step, ... <= to; log: from, from*step, ... <= to
//   count = 4        # instead of step: count values from `from` to `to`, both included
//   scale = "linear" # or "log" (evenly spaced exponents; from and to > 0)
//
// A parallel sweep (many devices) names systems instead of hardware; its plan keys are
// kept here as written and parsed, checked and evaluated by sim/parallel/parallel_sweep
// (this layer sits below sim/parallel):
//   system = ["dgx-a100"]                       # system names or files
//   gpus   = [64]                               # optional: dp = gpus / (tp x pp) when dp is not given
//   [parallel]                                  # each key a value or a list of values
//   tp = [1, 2, 4, 8]   pp = 8   microbatch = 1   global_batch = 512   zero = 1
//   recompute = "selective"   interleave = 1   sequence_parallel = true   overlap = true
//   expert_imbalance = [1.0, 1.5]               # a mixture of experts' routing (ep > 1)
//   [[vary]]  key = "parallel.tp"  values = [1, 2, 4, 8]   # the same as a [parallel] list
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/error.hpp"
#include "sim/engine/cost_of_use.hpp"
#include "sim/workload/run_settings.hpp"

namespace ridge {

// A value as written and where.
struct SweepItem {
  std::string text;
  SourceLoc where;
};

struct SweepVary {
  std::string key;  // "memory.HBM2.bandwidth"
  SourceLoc key_where;
  std::vector<SweepItem> values;  // override values: "900 GB/s", "0.8"
};

// A [parallel] key (or a [[vary]] "parallel.KEY"): its values as written ("8", "true",
// "selective"), parsed by sim/parallel/parallel_sweep.
struct SweepParallelKey {
  std::string key;  // "tp"
  SourceLoc where;
  std::vector<SweepItem> values;
};

// The keys a [parallel] table may hold, in the order a parallel sweep's rows vary them
// (the last fastest).
const std::vector<std::string>& sweep_parallel_key_names();

struct SweepFile {
  std::string path;
  std::vector<SweepItem> models;
  std::vector<SweepItem> hardware;
  std::vector<SweepItem> hw_models;  // one empty text: each descriptor's default model
  std::vector<int64_t> batches;
  std::vector<DType> dtypes;
  std::vector<Phase> phases;
  std::vector<Optimizer> optimizers;
  // Decode: tokens already in the KV cache (`context = [...]`, required with phase
  // "decode", which must then be the only phase); {0} otherwise.
  std::vector<int64_t> contexts;
  // Prefill: prompt tokens per sequence (`seq = [...]`; phase "prefill" must then be
  // the only phase): each model is read at each length. {0} otherwise: the model file's.
  std::vector<int64_t> seqs;
  // Serving choices (the options of the same names): the KV cache's type (nothing: the
  // dtype's; prefill and decode only), weight-only quantization (not in training), and
  // how launches are charged. One default entry each when the file gives none.
  std::vector<std::optional<DType>> kv_dtypes;
  std::vector<WeightFormat> weight_formats;
  std::vector<LaunchOverhead> overheads;
  std::vector<SweepVary> vary;
  CostBasis cost;  // [cost]; the defaults of `ridge compare` without it
  // A parallel sweep: systems instead of hardware (which is then empty, and the
  // single-device lists above keep their one default entry), device counts (empty: not
  // given) and plan keys in sweep_parallel_key_names() order.
  std::vector<SweepItem> systems;
  std::vector<SweepItem> gpus;
  std::vector<SweepParallelKey> parallel;
  bool parallel_sweep() const { return !systems.empty(); }

  // A model or hardware entry as it is read: a relative file path ("my-gpu.toml",
  // "../models/x.toml") is taken from the sweep file's folder, not the working directory;
  // shipped names and absolute paths are unchanged.
  std::string resolve(const std::string& name) const;

  // The number of points: the product of every list's length (parse_sweep has checked
  // that it is at most kMaxSweepPoints, so it cannot wrap).
  size_t point_count() const;
};

// The most points a sweep may have. Each point keeps its result, its output row and the
// rendered text in memory until the run ends: 3.2 KB per point measured (10^6 points of
// mlp reached 3.2 GB), so a sweep at the limit needs about 1 GB; a larger one is refused
// before anything runs rather than exhausting memory.
constexpr size_t kMaxSweepPoints = 300'000;

// Reads and validates a sweep file; every problem is an InputError with its location.
SweepFile read_sweep_file(const std::string& path);
// The same from text (tests), as if read from `path`.
SweepFile parse_sweep(const std::string& text, const std::string& path);

// The numbers a [[vary]] range denotes, rounded to 12 significant digits (so that
// 0.1 + 2 x 0.1 is 0.3 and 10^(1/3 x 3) is 1000). Throws InputError at `where`.
struct VaryRange {
  double from = 0;
  double to = 0;
  double step = 0;  // 0: not given
  int64_t count = 0;  // 0: not given
  bool log = false;
};
std::vector<double> range_values(const VaryRange& r, const SourceLoc& where);

}  // namespace ridge
