// Fitting a footprint on a device (see device_fit.hpp).
#include "sim/engine/device_fit.hpp"

#include <algorithm>

#include "sim/base/checked_math.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"

namespace ridge {

int64_t usable_capacity(const HardwareSpec& hw, double reserve_fraction) {
  return static_cast<int64_t>(std::min(hw.dram().capacity_bytes * (1.0 - reserve_fraction), 0x1p62));  // 4.6 EB: no overflow
}

DeviceFit fit_on_device(const Model& model, const MemoryFootprint& fp, const HardwareSpec& hw,
                        const HardwareModel& hw_model, double reserve_fraction) {
  DeviceFit d;
  d.hardware = hw.name;
  d.level = hw.dram().name;
  d.dram_bytes = hw.dram().capacity_bytes;
  d.reserve_fraction = reserve_fraction;
  d.capacity_bytes = usable_capacity(hw, reserve_fraction);
  d.fits = fp.peak_bytes() <= d.capacity_bytes;
  // peak(N) = fixed + N x per_sample, exactly (every timeline tensor scales with N).
  int64_t room = d.capacity_bytes - fp.fixed_bytes();
  d.max_batch = (room <= 0 || fp.peak_per_sample <= 0) ? 0 : room / fp.peak_per_sample;
  RunSettings s = fp.settings;
  if (d.max_batch > 0) {
    s.batch = d.max_batch;
    d.max_batch_peak = memory_footprint(model, s, fp.checkpoint).peak_bytes();
  } else {
    d.max_batch_peak = fp.fixed_bytes();  // no batch fits: what the batch-independent part alone needs
  }
  s.batch = d.max_batch + 1;  // max_batch <= capacity / per-sample, far below 2^63
  d.next_batch_peak = memory_footprint(model, s, fp.checkpoint).peak_bytes();
  if ((d.max_batch > 0 && d.max_batch_peak > d.capacity_bytes) || d.next_batch_peak <= d.capacity_bytes)
    throw RunError("internal: the largest batch that fits (" + std::to_string(d.max_batch) +
                   ") did not verify against the timeline");
  if (fp.settings.phase == Phase::decode && fp.kv_bytes_per_token > 0) {
    // peak = model + batch x (activations + kv_bytes_per_token x (context + 1)).
    const int64_t batch = fp.settings.batch;
    const int64_t other = checked_mul(batch, fp.peak_per_sample - fp.kv_cache_per_sample);
    const int64_t left = d.capacity_bytes - fp.fixed_bytes() - other;
    const int64_t tokens = left <= 0 ? 0 : left / checked_mul(batch, fp.kv_bytes_per_token);
    int64_t ctx = std::max<int64_t>(tokens - 1, 0);
    auto fits_at = [&](int64_t c) {
      RunSettings at = fp.settings;
      at.context = c;
      return memory_footprint(model, at, fp.checkpoint).peak_bytes() <= d.capacity_bytes;
    };
    // A sliding-window cache stops growing at its window: the longest context may then
    // be the model's whole max_positions though the closed form says less.
    if (model.max_positions > 0 && (ctx > model.max_positions - 1 || fits_at(model.max_positions - 1))) {
      ctx = model.max_positions - 1;
      d.max_context_capped = true;
    }
    // Activations that grow with the context (an unfused attention's scores) make the
    // closed form optimistic: verified, and bisected down when it does not fit.
    if (!fits_at(ctx)) {
      d.max_context_capped = false;
      int64_t lo = -1, hi = ctx;  // fits at lo (or nothing does), not at hi
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        (fits_at(mid) ? lo : hi) = mid;
      }
      ctx = lo;  // -1: not even an empty cache fits at this batch
    }
    if (ctx >= 0) d.max_context = ctx;
  }
  if (fp.recompute_flops > 0 && hw.peak(fp.settings.dtype)) {
    CostAnalysis costs = analyze_costs(model, fp.settings);
    double t = 0;
    for (size_t i = 0; i < model.layers.size(); ++i) {
      if (!fp.layers[i].recomputed) continue;
      const LayerCost& c = costs.layers[i];
      LayerWork w;
      w.flops = static_cast<double>(c.flops);
      w.input_bytes = static_cast<double>(c.input_bytes);
      w.output_bytes = static_cast<double>(c.output_bytes);
      w.weight_bytes = static_cast<double>(c.weight_bytes);
      w.kernels = (c.flops == 0 && c.bytes() == 0) ? 0 : 1;
      t += hw_model.time_layer(w, hw, fp.settings.dtype).time_s;
    }
    d.recompute_s = t;
  }
  return d;
}

}  // namespace ridge
