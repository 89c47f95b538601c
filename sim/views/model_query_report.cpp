// Wording the whole-model query (see model_query_report.hpp).
#include "sim/views/model_query_report.hpp"
#include "sim/views/text_width.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/model_query_fields.hpp"
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
  return wrap_lines(out);
}

Json model_query_json(const ModelQuery& q) {
  Json j = report_root(q.run.model, q.run.settings);
  std::vector<Field<ModelQuery>> fields = model_query_fields(q.run.settings);
  put_fields(j, all_fields(fields), q);
  std::vector<Field<LevelTraffic>> level_fields = level_traffic_fields();
  Json levels = Json::array();
  for (const LevelTraffic& l : q.levels) {
    Json o = Json::object();
    put_fields(o, all_fields(level_fields), l);
    levels.push_back(std::move(o));
  }
  j["memory_levels"] = std::move(levels);
  j["largest_linear"] = nullptr;
  if (q.biggest_linear) {
    std::vector<Field<LayerQuery>> linear_fields = largest_linear_fields();
    put_fields(j["largest_linear"] = Json::object(), all_fields(linear_fields), *q.biggest_linear);
  }
  return j;
}

}  // namespace ridge
