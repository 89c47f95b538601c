// Names of phases and optimizers (see run_settings.hpp).
#include "sim/workload/run_settings.hpp"

#include "sim/base/checked_math.hpp"

namespace ridge {

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::inference: return "inference";
    case Phase::training: return "training";
    case Phase::prefill: return "prefill";
    case Phase::decode: return "decode";
  }
  return "?";
}

std::optional<Phase> parse_phase(std::string_view s) {
  for (Phase p : {Phase::inference, Phase::training, Phase::prefill, Phase::decode})
    if (phase_name(p) == s) return p;
  return std::nullopt;
}

std::string_view launch_overhead_name(LaunchOverhead o) {
  switch (o) {
    case LaunchOverhead::per_kernel: return "kernel";
    case LaunchOverhead::per_step: return "graph";
    case LaunchOverhead::none: return "none";
  }
  return "?";
}

std::optional<LaunchOverhead> parse_launch_overhead(std::string_view s) {
  for (LaunchOverhead o : {LaunchOverhead::per_kernel, LaunchOverhead::per_step, LaunchOverhead::none})
    if (launch_overhead_name(o) == s) return o;
  return std::nullopt;
}

std::string_view weight_format_name(WeightFormat w) {
  switch (w) {
    case WeightFormat::same: return "same";
    case WeightFormat::int8: return "int8";
    case WeightFormat::int4: return "int4";
    case WeightFormat::fp8: return "fp8";
  }
  return "?";
}

std::optional<WeightFormat> parse_weight_format(std::string_view s) {
  for (WeightFormat w : {WeightFormat::int8, WeightFormat::int4, WeightFormat::fp8})
    if (weight_format_name(w) == s) return w;
  return std::nullopt;
}

bool is_weight_group(int64_t g) { return g == 32 || g == 64 || g == 128; }

int64_t quantized_weight_bytes(int64_t elems, WeightFormat w, DType dtype, int64_t group) {
  if (w == WeightFormat::same) return checked_mul(elems, dtype_bytes(dtype));
  int64_t bits = w == WeightFormat::int4 ? 4 : 8;
  int64_t groups = (elems + group - 1) / group;
  return checked_add((checked_mul(elems, bits) + 7) / 8, checked_mul(groups, 2));  // + one fp16 scale per group
}

std::optional<int64_t> RunSettings::tokens_per_step() const {
  if (phase == Phase::decode) return 1;
  if (phase == Phase::prefill && seq > 0) return seq;
  return std::nullopt;
}

std::string_view optimizer_name(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return "sgd";
    case Optimizer::momentum: return "momentum";
    case Optimizer::adam: return "adam";
    case Optimizer::adamw: return "adamw";
  }
  return "?";
}

std::optional<Optimizer> parse_optimizer(std::string_view s) {
  for (Optimizer o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam, Optimizer::adamw})
    if (optimizer_name(o) == s) return o;
  return std::nullopt;
}

std::string_view precision_name(Precision p) { return p == Precision::uniform ? "uniform" : "mixed"; }

std::optional<Precision> parse_precision(std::string_view s) {
  if (s == "uniform") return Precision::uniform;
  if (s == "mixed") return Precision::mixed;
  return std::nullopt;
}

int optimizer_state_slots(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return 0;
    case Optimizer::momentum: return 1;
    case Optimizer::adam:
    case Optimizer::adamw: return 2;
  }
  return 0;
}

int optimizer_flops_per_param(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return 2;
    case Optimizer::momentum: return 4;
    case Optimizer::adam: return 12;
    case Optimizer::adamw: return 14;
  }
  return 0;
}

ByteSizes byte_sizes(const RunSettings& s) {
  ByteSizes b;
  int d = dtype_bytes(s.dtype);
  b.activation = b.weight = b.gradient = d;
  b.state = d;
  if (s.precision == Precision::mixed) {
    b.master = 4;
    b.state = 4;
  }
  b.state_slots = optimizer_state_slots(s.optimizer);
  return b;
}

std::string precision_recipe(const RunSettings& s) {
  std::string d(dtype_name(s.dtype));
  if (s.precision == Precision::uniform) return d + " throughout";
  return "mixed " + d + " (" + d + " weights, activations and gradients; fp32 master weights and optimizer state)";
}

}  // namespace ridge
