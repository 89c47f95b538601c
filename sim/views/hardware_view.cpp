// Describing the hardware of a timed run (see hardware_view.hpp).
#include "sim/views/hardware_view.hpp"

#include <cmath>

#include "sim/base/format_units.hpp"

namespace ridge {

namespace {
std::string capacity_text(double bytes) {
  double gib = bytes / double(1ULL << 30), mib = bytes / double(1ULL << 20);
  if (gib >= 1 && std::fabs(gib - std::round(gib)) < 1e-9) return format_fixed(gib, 0) + " GiB";
  if (mib >= 1 && std::fabs(mib - std::round(mib)) < 1e-9) return format_fixed(mib, 0) + " MiB";
  return format_bytes(bytes);
}
}  // namespace

std::string format_bandwidth(double Bps) { return std::isfinite(Bps) ? format_rate(Bps, "B/s") : "inf"; }

std::string bound_name(const LayerTiming& t, const HardwareSpec& hw) {
  if (!t.memory_bound() || static_cast<size_t>(t.bound_level) >= hw.memory.size()) return "compute";
  return "memory:" + hw.memory[static_cast<size_t>(t.bound_level)].name;
}

std::string hardware_line(const HardwareSpec& hw, const TimingAnalysis& timing) {
  std::string line = "hardware " + hw.id + " (" + hw.name + "), model " + timing.hardware_model + ": " +
                     std::string(dtype_name(timing.dtype)) + " peak " + format_rate(timing.peak_flops, "FLOP/s");
  for (const MemoryLevel& m : hw.memory)
    line += "; " + m.name + " " + format_rate(m.bandwidth_Bps, "B/s") + ", " + capacity_text(m.capacity_bytes);
  if (hw.link) line += "; link " + hw.link->name + " " + format_rate(hw.link->bandwidth_Bps, "B/s");
  if (hw.kernel_launch_s > 0) line += "; launch " + format_seconds(hw.kernel_launch_s);
  if (hw.compute_efficiency != 1.0 || hw.memory_efficiency != 1.0)
    line += "; efficiency compute " + format_fixed(hw.compute_efficiency, 2) + ", memory " +
            format_fixed(hw.memory_efficiency, 2);
  if (hw.calibration)
    line += "; calibrated (" + std::to_string(hw.calibration->classes.size()) + " op classes, " + hw.calibration->data +
            ", " + hw.calibration->date + "; --efficiency none for the pure bound)";
  return line;
}

std::string timing_totals_line(const TimingAnalysis& timing) {
  const TimingTotals& t = timing.totals;
  return "step " + format_seconds(t.time_s) + ", " + format_fixed(t.samples_per_s, 1) + " samples/s, " +
         format_fixed(100 * t.memory_bound_share, 1) + "% of the time memory-bound, " +
         format_rate(t.attained_flops, "FLOP/s") + " attained (" + format_fixed(100 * t.peak_fraction, 1) +
         "% of peak)";
}

Json hardware_json(const HardwareSpec& hw, const TimingAnalysis& timing) {
  Json j = Json::object();
  j.set("id", hw.id);
  j.set("name", hw.name);
  j.set("kind", hw.kind);
  j.set("hardware_model", timing.hardware_model);
  j.set("peak_flops", timing.peak_flops);
  j.set("compute_efficiency", hw.compute_efficiency);
  j.set("memory_efficiency", hw.memory_efficiency);
  j.set("calibrated", hw.calibration.has_value());
  Json levels = Json::array();
  for (const MemoryLevel& m : hw.memory) {
    Json l = Json::object();
    l.set("name", m.name);
    l.set("capacity_bytes", m.capacity_bytes);
    l.set("bandwidth_Bps", m.bandwidth_Bps);
    levels.push(std::move(l));
  }
  j.set("memory", levels);
  if (hw.link) {
    Json l = Json::object();
    l.set("name", hw.link->name);
    l.set("bandwidth_Bps", hw.link->bandwidth_Bps);
    j.set("link", l);
  } else {
    j.set("link", nullptr);
  }
  j.set("kernel_launch_s", hw.kernel_launch_s);
  return j;
}

}  // namespace ridge
