// Device-memory checks before times are reported (see fit_check.hpp).
#include "sim/cli/fit_check.hpp"

#include <algorithm>
#include <iostream>
#include <optional>

#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/workload/memory_footprint.hpp"

namespace ridge::cli {

namespace {

struct Verdict {
  MemoryFootprint footprint;
  DeviceFit fit;
};

Verdict judge(const StepToFit& step, const HardwareSpec& hw, const HardwareModel& hw_model) {
  MemoryFootprint fp = memory_footprint(*step.model, step.settings, CheckpointPolicy{});
  DeviceFit fit = fit_on_device(*step.model, fp, hw, hw_model, kDefaultReserveFraction);
  return {std::move(fp), fit};
}

// "does not fit in device memory: llama-2-7b at batch 64 needs 146.3 GB (weights 13.5 GB, KV cache 134.2 GB,
// activations 0.1 GB) but NVIDIA L4 holds 22.8 GB (24 GB GDDR6 less a 5 % reserve)".
std::string needs_sentence(const Model& model, const Verdict& v) {
  const MemoryFootprint& fp = v.footprint;
  const int64_t state = fp.model_bytes() - fp.parameters_bytes + fp.statistics_bytes;
  const int64_t activations = fp.peak_bytes() - fp.fixed_bytes() - fp.kv_cache_bytes();
  std::string parts = "weights " + format_bytes(static_cast<double>(fp.parameters_bytes));
  if (state > 0) parts += ", gradients and optimizer state " + format_bytes(static_cast<double>(state));
  if (fp.kv_cache_bytes() > 0) parts += ", KV cache " + format_bytes(static_cast<double>(fp.kv_cache_bytes()));
  parts += ", activations " + format_bytes(static_cast<double>(activations));
  return "does not fit in device memory: " + model.name + " at batch " + std::to_string(fp.settings.batch) + " needs " +
         format_bytes(static_cast<double>(fp.peak_bytes())) + " of device memory (" + parts + ") but " + v.fit.hardware +
         " holds " + format_bytes(static_cast<double>(v.fit.capacity_bytes)) + " (" + format_bytes(v.fit.dram_bytes) +
         " " + v.fit.level + " less a " + format_fixed(v.fit.reserve_fraction * 100, 0) + " % runtime reserve)";
}

std::string largest_batch_hint(int64_t max_batch, const Verdict& worst) {
  if (max_batch > 0) return "the largest batch that fits is " + std::to_string(max_batch) + " (--batch " + std::to_string(max_batch) + ")";
  return "no batch fits: the weights alone need " + format_bytes(static_cast<double>(worst.footprint.fixed_bytes())) +
         "; narrower weights (--weight-dtype int8 or int4) or a device with more memory";
}

}  // namespace

void require_fit(const std::vector<StepToFit>& steps, const HardwareSpec& hw, const HardwareModel& hw_model) {
  if (hw.memory.empty()) return;  // no memory level: nothing to hold it in, nothing to judge
  std::optional<Verdict> worst;
  int64_t max_batch = INT64_MAX;
  for (const StepToFit& s : steps) {
    Verdict v = judge(s, hw, hw_model);
    max_batch = std::min(max_batch, v.fit.max_batch);
    if (!v.fit.fits && (!worst || v.footprint.peak_bytes() > worst->footprint.peak_bytes())) worst = std::move(v);
  }
  if (!worst) return;
  throw InputError({}, needs_sentence(*steps.front().model, *worst), largest_batch_hint(max_batch, *worst));
}

void warn_unless_fits(const Model& model, const RunSettings& settings, const HardwareSpec& hw,
                      const HardwareModel& hw_model) {
  if (hw.memory.empty()) return;
  Verdict v = judge({&model, settings}, hw, hw_model);
  if (v.fit.fits) return;
  std::cerr << "warning: " << needs_sentence(model, v) << "; the times are for a device that could hold it ("
            << largest_batch_hint(v.fit.max_batch, v) << ")\n";
}

}  // namespace ridge::cli
