// Formatting the generate report (see generate_report.hpp).
#include "sim/views/generate_report.hpp"

#include "sim/base/format_units.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {
std::string pct(double share) { return format_fixed(100 * share, 1) + "%"; }
}  // namespace

std::string generate_text(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g) {
  std::string t;
  t += model.name + " on " + hw.id + " (" + hw.name + "), " + g.hardware_model + " model, batch " +
       std::to_string(g.batch) + ", " + std::string(dtype_name(s.dtype)) + ", KV cache " +
       std::string(dtype_name(s.cache_dtype())) + ": prompt " + std::to_string(g.prompt) + " tokens, " +
       std::to_string(g.gen) + " generated per sequence\n";
  t += "- time to first token (prefill of " + std::to_string(g.prompt) + " tokens): " + format_seconds(g.ttft_s) +
       ", " + pct(g.prefill_memory_bound_share) + " of it memory-bound\n";
  if (g.decode_steps > 0) {
    t += "- time per output token: " + format_seconds(g.tpot_s) + " on average over " +
         std::to_string(g.decode_steps) + " decode steps (contexts " + std::to_string(g.prompt) + " to " +
         std::to_string(g.prompt + g.decode_steps - 1) + "); the step at the mean context " +
         std::to_string(g.mean_context) + " takes " + format_seconds(g.step_at_mean_context_s) + ", " +
         pct(g.decode_memory_bound_share) + " of decode is memory-bound\n";
    t += "- decode: " + format_seconds(g.decode_s) + " in all, " + format_rate(g.decode_tokens_per_s, "tokens/s") +
         " across the batch\n";
  }
  t += "- total latency " + format_seconds(g.total_s) + ", " + format_rate(g.tokens_per_s, "tokens/s") +
       " generated across the batch, " + pct(g.memory_bound_share) + " of the time memory-bound\n";
  t += "- KV cache at the end: " + format_bytes(static_cast<double>(g.kv_cache_bytes)) + " (" +
       std::to_string(g.prompt + g.gen - 1) + " tokens x batch " + std::to_string(g.batch) + ")\n";
  return t;
}

Json generate_json(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g) {
  RunSettings root_settings = s;
  root_settings.phase = Phase::decode;
  root_settings.context = g.mean_context;
  Json j = report_root(model.name, root_settings);
  j.set("hardware", hw.id);
  j.set("hardware_model", g.hardware_model);
  j.set("prompt_tokens", g.prompt);
  j.set("generated_tokens", g.gen);
  j.set("decode_steps", g.decode_steps);
  j.set("ttft_s", g.ttft_s);
  j.set("tpot_s", g.tpot_s);
  j.set("mean_context", g.mean_context);
  j.set("step_at_mean_context_s", g.step_at_mean_context_s);
  j.set("decode_time_s", g.decode_s);
  j.set("total_time_s", g.total_s);
  j.set("tokens_per_s", g.tokens_per_s);
  j.set("decode_tokens_per_s", g.decode_tokens_per_s);
  j.set("memory_bound_share", g.memory_bound_share);
  j.set("prefill_memory_bound_share", g.prefill_memory_bound_share);
  j.set("decode_memory_bound_share", g.decode_memory_bound_share);
  j.set("kv_cache_bytes", g.kv_cache_bytes);
  return j;
}

}  // namespace ridge
