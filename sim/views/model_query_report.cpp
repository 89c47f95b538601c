// Wording the whole-model query (see model_query_report.hpp).
#include "sim/views/model_query_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {

std::string percent(double share) { return format_fixed(100 * share, 1) + "%"; }

// "decode at context 1024", "prefill of 512 tokens", "inference".
std::string phase_words(const RunSettings& s) {
  if (s.phase == Phase::decode) return "decode at context " + std::to_string(s.context);
  if (s.phase == Phase::prefill) return "prefill of " + std::to_string(s.seq) + " tokens";
  return std::string(phase_name(s.phase));
}

std::string verdict(const ModelQuery& q) {
  const std::string what = phase_words(q.run.settings);
  std::string shares = percent(q.memory_share) + " of the " + format_seconds(q.run.totals.timing.time_s) +
                       " step is spent in memory-bound layers, " + percent(q.compute_share) + " in compute-bound ones, " +
                       percent(q.overhead_share) + " in layers bound by kernel launches";
  if (q.link_share > 0) shares += ", " + percent(q.link_share) + " by the host link";
  if (q.bandwidth_limited) return "Yes, " + what + " is bandwidth-limited for the model as a whole: " + shares + ".";
  const char* instead = q.compute_share >= std::max(q.overhead_share, q.link_share) ? "compute limits"
                        : q.overhead_share >= q.link_share                           ? "kernel launches limit"
                                                                                      : "the host link limits";
  return "No, " + what + " is not bandwidth-limited for the model as a whole; " + instead + " it most: " + shares +
         ".";
}

}  // namespace

std::string model_query_text(const ModelQuery& q) {
  const RunResult& run = q.run;
  const RunSettings& s = run.settings;
  const HardwareContext& hw = *run.hardware;
  const LayerResult& tot = run.totals;
  const bool llm = s.uses_kv_cache();
  const std::string unit = llm ? "token" : "sample";
  std::string head = run.model + " on " + hw.spec.id + " (" + hw.spec.name + "), batch " + std::to_string(s.batch) +
                     ", " + std::string(dtype_name(s.dtype)) + ", " + phase_words(s);
  if (llm) head += ", KV cache " + std::string(dtype_name(s.cache_dtype()));
  std::string out = head + ", " + hw.hardware_model + " model:\n";
  auto sentence = [&](const std::string& line) { out += "- " + line + "\n"; };
  sentence(verdict(q));
  double per = q.weight_bytes_per_token + q.kv_bytes_per_token + q.activation_bytes_per_token;
  auto part = [&](const char* name, double b) {
    return std::string(name) + " " + format_bytes(b) + " (" + percent(per > 0 ? b / per : 0) + ")";
  };
  sentence("Each " + unit + " moves " + format_bytes(per) + " (" + format_fixed(q.tokens, 0) + " " + unit +
           (q.tokens == 1 ? "" : "s") + " per step): " + part("weights", q.weight_bytes_per_token) +
           (llm ? ", " + part("KV cache", q.kv_bytes_per_token) : std::string()) + ", " +
           part("activations", q.activation_bytes_per_token) + ".");
  if (llm) {
    std::string how = s.phase == Phase::decode
                          ? "reading " + std::to_string(s.context) + " cached tokens and writing 1 new one"
                          : "writing the keys and values of " + std::to_string(s.seq) + " prompt tokens";
    sentence("The KV cache stream: " + format_bytes(tot.work.kv_bytes) + " per step (" + how +
             " per sequence and attention layer), " +
             format_rate(tot.work.kv_bytes / tot.timing.time_s, "B/s") + " over the step.");
  }
  const LevelTraffic& lv = q.levels[static_cast<size_t>(q.busiest_level)];
  sentence("Over the step " + lv.name + " delivers " + format_rate(lv.achieved_Bps, "B/s") + ", " +
           percent(lv.achieved_Bps / lv.peak_Bps) + " of its " + format_rate(lv.peak_Bps, "B/s") + " peak (" +
           format_bytes(lv.bytes) + " in " + format_seconds(lv.time_s) + " of traffic; compute takes " +
           format_seconds(tot.timing.compute_s) + ", kernel launches " + format_seconds(tot.timing.overhead_s) + " for " +
           std::to_string(tot.work.kernels) + (tot.work.kernels == 1 ? " launch)." : " launches)."));
  sentence("It attains " + format_rate(tot.attained_flops, "FLOP/s") + ", " + percent(tot.peak_fraction) + " of the " +
           format_rate(hw.peak_flops, "FLOP/s") + " peak.");
  if (q.biggest_linear) {
    const LayerQuery& b = *q.biggest_linear;
    std::string name = b.layer.name + " (" + format_bytes(b.layer.work.weight_bytes) + " of weights)";
    if (!b.layer.timing.memory_bound())
      sentence("Its largest linear layer, " + name + ", is already compute-bound at this batch.");
    else if (b.compute_bound_at_batch)
      sentence("Its largest linear layer, " + name + ", turns compute-bound at batch " +
               std::to_string(*b.compute_bound_at_batch) + " (still memory-bound at " +
               std::to_string(*b.compute_bound_at_batch - 1) + ").");
    else
      sentence("Its largest linear layer, " + name + ", stays memory-bound up to batch " +
               std::to_string(b.searched_to_batch) + ".");
  }
  return out;
}

Json model_query_json(const ModelQuery& q) {
  const RunResult& run = q.run;
  const LayerResult& tot = run.totals;
  Json j = report_root(run.model, run.settings);
  if (run.settings.phase == Phase::prefill) j.set("seq", run.settings.seq);
  j.set("hardware", run.hardware->spec.id);
  j.set("hardware_model", run.hardware->hardware_model);
  j.set("bandwidth_limited", q.bandwidth_limited);
  j.set("time_s", tot.timing.time_s);
  j.set("compute_time_s", tot.timing.compute_s);
  j.set("overhead_time_s", tot.timing.overhead_s);
  j.set("kernels", static_cast<int64_t>(tot.work.kernels));
  Json shares = Json::object();
  shares.set("memory", q.memory_share);
  shares.set("compute", q.compute_share);
  shares.set("overhead", q.overhead_share);
  shares.set("link", q.link_share);
  j.set("bound_share", shares);
  j.set("tokens_per_step", q.tokens);
  Json per = Json::object();
  per.set("weights", q.weight_bytes_per_token);
  per.set("kv", q.kv_bytes_per_token);
  per.set("activations", q.activation_bytes_per_token);
  j.set("bytes_per_token", per);
  j.set("kv_bytes", tot.work.kv_bytes);
  Json levels = Json::array();
  for (const LevelTraffic& l : q.levels) {
    Json o = Json::object();
    o.set("name", l.name);
    o.set("bytes", l.bytes);
    o.set("time_s", l.time_s);
    o.set("achieved_bandwidth_Bps", l.achieved_Bps);
    o.set("peak_bandwidth_Bps", l.peak_Bps);
    levels.push(std::move(o));
  }
  j.set("memory_levels", levels);
  j.set("busiest_level", q.levels[static_cast<size_t>(q.busiest_level)].name);
  j.set("attained_flops", tot.attained_flops);
  j.set("peak_fraction", tot.peak_fraction);
  if (q.biggest_linear) {
    const LayerQuery& b = *q.biggest_linear;
    Json o = Json::object();
    o.set("layer", b.layer.name);
    o.set("weight_bytes", b.layer.work.weight_bytes);
    o.set("bandwidth_limited", b.layer.timing.memory_bound());
    o.set("compute_bound_at_batch", b.compute_bound_at_batch ? Json(*b.compute_bound_at_batch) : Json(nullptr));
    o.set("batch_searched_to", b.searched_to_batch);
    j.set("largest_linear", o);
  } else {
    j.set("largest_linear", Json(nullptr));
  }
  return j;
}

}  // namespace ridge
