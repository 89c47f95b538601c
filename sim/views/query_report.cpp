// Wording the query answer (see query_report.hpp).
#include "sim/views/query_report.hpp"

#include <cmath>

#include "sim/base/format_units.hpp"
#include "sim/views/hardware_view.hpp"

namespace ridge {

namespace {

const std::string& level_name(const HardwareSpec& hw, int k) {
  static const std::string none = "memory";
  return k >= 0 && static_cast<size_t>(k) < hw.memory.size() ? hw.memory[static_cast<size_t>(k)].name : none;
}

std::string intensity(double v) { return format_fixed(v, 2) + " FLOP/B"; }

// "input 351.5 GB/s, output 660.2 GB/s, weights 79.45 GB/s from L2 (3.000 TB/s)": the
// level is named for the streams served elsewhere than the level in question.
std::string stream_needs(const HardwareSpec& hw, const LayerQuery& q) {
  std::string s;
  for (const StreamNeed& n : q.streams) {
    if (n.bytes <= 0) continue;
    if (!s.empty()) s += ", ";
    s += std::string(n.tensor) + " " + format_bandwidth(n.required_Bps);
    if (n.level != q.level)
      s += " from " + level_name(hw, n.level) + " (" + format_bandwidth(n.available_Bps) + " available)";
  }
  return s;
}

}  // namespace

std::string query_text(const Model& model, const HardwareSpec& hw, const LayerQuery& q) {
  const Layer& layer = model.layers[static_cast<size_t>(q.index)];
  const LayerWork& w = q.timed.work;
  const LayerTiming& t = q.timed.timing;
  const std::string& lvl = level_name(hw, q.level);
  std::string out = layer.name + " (" + layer.op + ") of " + model.name + ", batch " + std::to_string(q.settings.batch) +
                    ", " + std::string(dtype_name(q.settings.dtype)) +
                    (q.settings.phase == Phase::decode ? ", decode at context " + std::to_string(q.settings.context)
                     : q.settings.phase == Phase::prefill
                         ? ", prefill of " + std::to_string(model.input[0]) + " tokens"
                         : std::string()) +
                    ", on " + hw.id + " (" + hw.name + "), " +
                    q.hardware_model + " model:\n";
  auto sentence = [&](const std::string& s) { out += "- " + s + "\n"; };
  if (w.flops <= 0 && w.bytes() <= 0) {
    sentence("It computes nothing and moves no bytes (a view of its input), so nothing bounds it.");
    return out;
  }
  if (t.compute_s <= 0) {
    sentence("It computes nothing but moves " + format_bytes(w.bytes()) + ", so it is bandwidth-limited at " + lvl +
             " (" + format_seconds(t.memory_s) + ") and no bandwidth makes it compute-bound.");
    return out;
  }
  std::string timing = "the layer takes " + format_seconds(t.time_s) + " and attains " +
                       format_rate(q.timed.attained_flops, "FLOP/s") + ", " +
                       format_fixed(100 * q.timed.peak_fraction, 1) + "% of the peak";
  if (t.memory_bound())
    sentence("It is bandwidth-limited at " + lvl + ": moving its " + format_bytes(q.level_bytes) + " there takes " +
             format_seconds(t.level_s[static_cast<size_t>(q.level)]) + ", longer than its " + format_seconds(t.compute_s) +
             " of compute; " + timing + ".");
  else
    sentence("It is compute-bound: its " + format_seconds(t.compute_s) + " of compute outlasts the " +
             format_seconds(t.memory_s) + " of traffic at " + lvl + ", the busiest level; " + timing + ".");
  sentence("To stay compute-bound it needs " + format_bandwidth(q.required_Bps) + " from " + lvl + " (" +
           stream_needs(hw, q) + "); " + lvl + " gives " + format_bandwidth(q.available_Bps) + ".");
  sentence("Its arithmetic intensity at " + lvl + " (timed FLOPs per byte) is " + intensity(q.arithmetic_intensity) + ", " +
           (q.arithmetic_intensity < q.ridge_point ? "below" : "at or above") + " the ridge point of " +
           intensity(q.ridge_point) + ".");
  if (t.memory_bound()) {
    std::string bw = format_bandwidth(q.required_Bps) + " at " + lvl + " (" +
                     format_fixed(q.required_Bps / q.available_Bps, 2) + "x what it has)";
    if (q.compute_bound_at_batch) {
      sentence("It turns compute-bound at batch " + std::to_string(*q.compute_bound_at_batch) + " (still memory-bound at " +
               std::to_string(*q.compute_bound_at_batch - 1) + "), or at this batch with " + bw + ".");
    } else {
      std::string why;
      if (q.per_sample_intensity < q.ridge_point)
        why = ": per sample its activations allow only " + intensity(q.per_sample_intensity) +
              ", below the ridge point, and a larger batch amortises only the weights";
      sentence("No batch up to " + std::to_string(q.searched_to_batch) + " makes it compute-bound" + why +
               "; it would need " + bw + ".");
    }
  } else {
    sentence("It would turn bandwidth-limited if " + lvl + " gave less than " + format_bandwidth(q.required_Bps) + ".");
  }
  if (t.link_s > 0)
    sentence("The host link (" + hw.link->name + ", " + format_rate(hw.link->bandwidth_Bps, "B/s") + ") adds " +
             format_seconds(t.link_s) + " for " + format_bytes(w.link_bytes) + ", " +
             format_fixed(t.link_s / t.compute_s, 1) + "x the compute time.");
  if (t.overhead_s > 0) sentence("Kernel launch adds " + format_seconds(t.overhead_s) + ".");
  return out;
}

Json query_json(const Model& model, const HardwareSpec& hw, const LayerQuery& q) {
  const Layer& layer = model.layers[static_cast<size_t>(q.index)];
  const LayerTiming& t = q.timed.timing;
  Json j = Json::object();
  j.set("schema_version", 1);
  j.set("model", model.name);
  j.set("layer", layer.name);
  j.set("op", layer.op);
  j.set("batch", q.settings.batch);
  j.set("dtype", std::string(dtype_name(q.settings.dtype)));
  j.set("hardware", hw.id);
  j.set("hardware_model", q.hardware_model);
  j.set("bound", bound_name(t, hw));
  j.set("bandwidth_limited", t.memory_bound());
  j.set("level", level_name(hw, q.level));
  j.set("arithmetic_intensity", q.arithmetic_intensity);
  j.set("ridge_point", q.ridge_point);
  j.set("required_bandwidth_Bps", q.required_Bps);
  j.set("available_bandwidth_Bps", q.available_Bps);
  j.set("required_bandwidth_all_streams_Bps", t.required_Bps());
  Json need = Json::object(), avail = Json::object(), placed = Json::object();
  for (const StreamNeed& n : q.streams) {
    need.set(n.tensor, n.required_Bps);
    avail.set(n.tensor, n.available_Bps);
    placed.set(n.tensor, level_name(hw, n.level));
  }
  j.set("required_bandwidth_by_tensor_Bps", need);
  j.set("available_bandwidth_by_tensor_Bps", avail);
  j.set("memory_level_by_tensor", placed);
  j.set("compute_time_s", t.compute_s);
  j.set("memory_time_s", t.memory_s);
  j.set("link_time_s", t.link_s);
  j.set("overhead_time_s", t.overhead_s);
  j.set("time_s", t.time_s);
  j.set("attained_flops", q.timed.attained_flops);
  j.set("compute_bound_at_batch", q.compute_bound_at_batch ? Json(*q.compute_bound_at_batch) : Json(nullptr));
  j.set("batch_searched_to", q.searched_to_batch);
  j.set("per_sample_arithmetic_intensity", q.per_sample_intensity);
  return j;
}

}  // namespace ridge
