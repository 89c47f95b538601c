// Wording the query answer (see query_report.hpp).
#include "sim/views/query_report.hpp"
#include "sim/views/text_width.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/field.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/layer_fields.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

std::string intensity(double v) { return format_fixed(v, 2) + " FLOP/B"; }
std::string bandwidth(double Bps) { return human_text(Bps, Unit::bandwidth); }

const std::string& level_name(const HardwareSpec& hw, int k) {
  static const std::string none = "memory";
  return k >= 0 && static_cast<size_t>(k) < hw.memory.size() ? hw.memory[static_cast<size_t>(k)].name : none;
}

// "input 351.5 GB/s, output 660.2 GB/s, weights 79.45 GB/s from L2 (3.000 TB/s available)":
// the level is named for the streams served elsewhere than the level in question.
std::string stream_needs(const LayerResult& l, const std::string& lvl) {
  std::string s;
  for (const StreamResult& n : l.streams) {
    if (n.bytes <= 0) continue;
    if (!s.empty()) s += ", ";
    s += std::string(n.tensor == std::string("kv") ? "KV cache" : n.tensor) + " " + bandwidth(n.required_Bps);
    if (n.level != l.intensity_level && !(l.streams_split && n.tensor != std::string("weights") &&
                                          n.tensor != std::string("kv")))
      s += " from " + n.level_name + " (" + bandwidth(n.available_Bps) + " available)";
  }
  if (l.streams_split)
    s += "; input and output fit the caches only in part, so they are split over the levels: " + lvl + " serves " +
         format_bytes(l.level_bytes) + " of the layer's " + format_bytes(l.work.bytes());
  return s;
}

// The sentences about what would flip a memory-bound layer.
std::string flip_sentence(const LayerQuery& q, const std::string& lvl) {
  const LayerResult& l = q.layer;
  std::string bw = bandwidth(l.required_level_Bps) + " at " + lvl + " (" +
                   format_fixed(l.required_level_Bps / l.available_level_Bps, 2) + "x what it has)";
  if (q.compute_bound_at_batch)
    return "It turns compute-bound at batch " + std::to_string(*q.compute_bound_at_batch) + " (still memory-bound at " +
           std::to_string(*q.compute_bound_at_batch - 1) + "), or at this batch with " + bw + ".";
  std::string why;
  if (q.per_sample_intensity < l.ridge_point)
    why = std::string(": per sample its activations") + (q.settings.uses_kv_cache() ? " and KV cache" : "") +
          " allow only " + intensity(q.per_sample_intensity) +
          ", below the ridge point, and a larger batch amortises only the weights";
  return "No batch up to " + std::to_string(q.searched_to_batch) + " makes it compute-bound" + why + "; it would need " +
         bw + ".";
}

}  // namespace

std::string query_text(const LayerQuery& q, const HardwareSpec& hw) {
  const LayerResult& l = q.layer;
  const LayerWork& w = l.work;
  const LayerTiming& t = l.timing;
  const std::string& lvl = level_name(hw, l.intensity_level);
  std::string phase;
  if (q.settings.phase == Phase::decode) phase = ", decode at context " + std::to_string(q.settings.context);
  if (q.settings.phase == Phase::prefill) phase = ", prefill";
  if (q.settings.uses_kv_cache()) phase += ", KV cache " + std::string(dtype_name(q.settings.cache_dtype()));
  std::string out = l.name + " (" + l.op + ") of " + q.model + ", batch " + std::to_string(q.settings.batch) + ", " +
                    std::string(dtype_name(q.settings.dtype)) + phase + ", on " + hw.id + " (" + hw.name + "), " +
                    q.hardware_model + " model:\n";
  auto sentence = [&](const std::string& s) { out += "- " + s + "\n"; };
  if (w.flops <= 0 && w.bytes() <= 0) {
    sentence("It computes nothing and moves no bytes (a view of its input), so nothing bounds it.");
    return wrap_lines(out);
  }
  if (t.compute_s <= 0) {
    sentence("It computes nothing but moves " + format_bytes(w.bytes()) + ", so it is bandwidth-limited at " + lvl +
             " (" + format_seconds(t.memory_s) + ") and no bandwidth makes it compute-bound.");
    return wrap_lines(out);
  }
  // A calibrated class whose compute and traffic do not overlap pays both, one after the other.
  std::string timing = std::string(t.overlapped ? "" : "its class's compute and traffic do not overlap (calibrated), so they add: ") +
                       "the layer takes " + format_seconds(t.time_s) + " and attains " +
                       human_text(l.attained_flops, Unit::flop_rate) + ", " + human_text(l.peak_fraction, Unit::fraction) +
                       " of the peak";
  if (t.memory_bound())
    sentence("It is bandwidth-limited at " + lvl + ": moving its " + format_bytes(l.level_bytes) + " there takes " +
             format_seconds(t.level_s[static_cast<size_t>(l.intensity_level)]) + ", longer than its " +
             format_seconds(t.compute_s) + " of compute; " + timing + ".");
  else
    sentence("It is compute-bound: its " + format_seconds(t.compute_s) + " of compute outlasts the " +
             format_seconds(t.memory_s) + " of traffic at " + lvl + ", the busiest level; " + timing + ".");
  sentence("To stay compute-bound it needs " + bandwidth(l.required_level_Bps) + " from " + lvl + " (" + stream_needs(l, lvl) +
           "); " + lvl + " gives " + bandwidth(l.available_level_Bps) + ".");
  sentence("Its arithmetic intensity at " + lvl + " (timed FLOPs per byte) is " + intensity(l.arithmetic_intensity) +
           ", " + (l.arithmetic_intensity < l.ridge_point ? "below" : "at or above") + " the ridge point of " +
           intensity(l.ridge_point) + ".");
  if (t.memory_bound())
    sentence(flip_sentence(q, lvl));
  else
    sentence("It would turn bandwidth-limited if " + lvl + " gave less than " + bandwidth(l.required_level_Bps) + ".");
  if (t.link_s > 0)
    sentence("The host link (" + hw.link->name + ", " + format_rate(hw.link->bandwidth_Bps, "B/s") + ") adds " +
             format_seconds(t.link_s) + " for " + format_bytes(w.link_bytes) + ", " +
             format_fixed(t.link_s / t.compute_s, 1) + "x the compute time.");
  if (l.bound.kind == Bound::Kind::overhead)
    sentence("Kernel launches take most of its time: " + format_seconds(t.overhead_s) + " of " +
             format_seconds(t.time_s) + ", more than compute, memory and link together, so it is bound by launch "
             "overhead (one launch per step, --overhead graph, removes it).");
  else if (t.overhead_s > 0) sentence("Kernel launch adds " + format_seconds(t.overhead_s) + ".");
  return wrap_lines(out);
}

Json query_json(const LayerQuery& q, const HardwareSpec& hw) {
  Json j = report_root(q.model, q.settings);
  j["layer"] = q.layer.name;
  j["hardware"] = hw.id;
  j["hardware_model"] = q.hardware_model;
  j["bandwidth_limited"] = q.layer.bound.kind == Bound::Kind::memory;
  std::vector<Field<LayerResult>> fields = layer_fields(q.settings, &hw);
  put_fields(j, all_fields(fields), q.layer);
  j["compute_bound_at_batch"] = q.compute_bound_at_batch ? Json(*q.compute_bound_at_batch) : Json(nullptr);
  j["batch_searched_to"] = q.searched_to_batch;
  j["per_sample_arithmetic_intensity"] = q.per_sample_intensity;
  return j;
}

}  // namespace ridge
