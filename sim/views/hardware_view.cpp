// Describing the hardware of a timed run (see hardware_view.hpp).
#include "sim/views/hardware_view.hpp"

#include <cmath>

#include "sim/base/format_energy.hpp"
#include "sim/base/format_units.hpp"

namespace ridge {

std::string capacity_text(double bytes) {
  constexpr double kKiB = 1024;
  for (auto [unit, scale] : {std::pair{"TiB", kKiB * kKiB * kKiB * kKiB}, std::pair{"GiB", kKiB * kKiB * kKiB},
                             std::pair{"MiB", kKiB * kKiB}, std::pair{"KiB", kKiB}})
    if (bytes >= scale)
      return (std::fmod(bytes, scale) == 0 ? format_fixed(bytes / scale, 0) : format_count(bytes / scale)) + " " + unit;
  return format_fixed(bytes, 0) + " B";
}

std::string hardware_line(const HardwareContext& ctx, DType dtype) {
  const HardwareSpec& hw = ctx.spec;
  std::string line = "hardware " + hw.id + " (" + hw.name + "), model " + ctx.hardware_model + ": " +
                     std::string(dtype_name(dtype)) + " peak " + format_rate(ctx.peak_flops, "FLOP/s");
  for (const MemoryLevel& m : hw.memory)
    line += "; " + m.name + " " + format_rate(m.bandwidth_Bps, "B/s") + ", " + capacity_text(m.capacity_bytes);
  if (hw.link) line += "; link " + hw.link->name + " " + format_rate(hw.link->bandwidth_Bps, "B/s");
  if (hw.kernel_launch_s > 0) line += "; launch " + format_seconds(hw.kernel_launch_s);
  if (hw.compute_fraction(dtype) != 1.0 || hw.memory_efficiency != 1.0)
    line += "; achievable " + format_fixed(hw.compute_fraction(dtype), 2) + " x compute, " +
            format_fixed(hw.memory_efficiency, 2) + " x bandwidth (--efficiency none for the datasheet roofline)";
  if (hw.calibration)
    // A class is keyed by op class and dtype, and by library under a [library] rule.
    line += "; calibrated (" + std::to_string(hw.calibration->classes.size()) + " fitted classes, one per op class" +
            (hw.library ? ", dtype and library, " : " and dtype, ") + hw.calibration->data +
            ", " + hw.calibration->date + "; --efficiency none for the pure bound)";
  return line;
}

namespace {

// "; 1.234 J per sample at 250 W average (estimate)", or nothing without [power].
std::string energy_text(const RunResult& run) {
  if (!run.energy) return "";
  return "; " + format_joules(run.joules_per_sample) + " per sample at " + format_count(run.energy->average_power_w) +
         " W average" + (run.energy->capped ? " (the board power: the modelled sum was above it)" : "") + " (estimate)";
}

}  // namespace

std::string run_summary_line(const RunResult& run) {
  const LayerResult& t = run.totals;
  return "step " + format_seconds(t.timing.time_s) + ", " + format_count(run.samples_per_s) + " samples/s, " +
         format_fixed(100 * run.memory_bound_share, 1) + "% of the time memory-bound, " +
         format_rate(t.attained_flops, "FLOP/s") + " attained (" + format_fixed(100 * t.peak_fraction, 1) + "% of peak)" +
         energy_text(run);
}

Json hardware_json(const HardwareContext& ctx) {
  const HardwareSpec& hw = ctx.spec;
  Json j = Json::object();
  j["id"] = hw.id;
  j["name"] = hw.name;
  j["kind"] = hw.kind;
  j["hardware_model"] = ctx.hardware_model;
  j["peak_flops"] = ctx.peak_flops;
  j["compute_efficiency"] = hw.compute_efficiency;
  if (!hw.compute_efficiency_by_dtype.empty()) {
    Json by_dtype = Json::object();
    for (const auto& [t, f] : hw.compute_efficiency_by_dtype) by_dtype[std::string(dtype_name(t))] = f;
    j["compute_efficiency_by_dtype"] = by_dtype;
  }
  j["memory_efficiency"] = hw.memory_efficiency;
  j["calibrated"] = hw.calibration.has_value();
  Json levels = Json::array();
  for (size_t k = 0; k < hw.memory.size(); ++k) {
    const MemoryLevel& m = hw.memory[k];
    Json l = Json::object();
    l["name"] = m.name;
    l["capacity_bytes"] = m.capacity_bytes;
    l["bandwidth_Bps"] = m.bandwidth_Bps;
    l["ridge_point"] = k < ctx.ridge_points.size() ? ctx.ridge_points[k] : 0.0;
    levels.push_back(std::move(l));
  }
  j["memory"] = std::move(levels);
  if (hw.link) {
    Json l = Json::object();
    l["name"] = hw.link->name;
    l["bandwidth_Bps"] = hw.link->bandwidth_Bps;
    j["link"] = std::move(l);
  } else {
    j["link"] = nullptr;
  }
  j["kernel_launch_s"] = hw.kernel_launch_s;
  return j;
}

}  // namespace ridge
