// Formatting the generate report (see generate_report.hpp).
#include "sim/views/generate_report.hpp"
#include "sim/views/text_width.hpp"

#include "sim/base/format_energy.hpp"
#include "sim/base/format_units.hpp"
#include "sim/views/field_table.hpp"
#include "sim/views/write_report.hpp"

namespace ridge {

namespace {
std::string pct(double share) { return format_fixed(100 * share, 1) + "%"; }

// ", linear weights int4 (one fp16 scale per 128, lm_head in fp16)", or nothing.
std::string weights_phrase(const RunSettings& s) {
  if (s.weight_format == WeightFormat::same) return "";
  return ", linear weights " + std::string(weight_format_name(s.weight_format)) + " (one fp16 scale per " +
         std::to_string(s.weight_group) + ", lm_head " + (s.quantize_lm_head ? "too" : "in " + std::string(dtype_name(s.dtype))) + ")";
}
}  // namespace

std::string generate_text(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g) {
  std::string t;
  t += model.name + " on " + hw.id + " (" + hw.name + "), " + g.hardware_model + " model, batch " +
       std::to_string(g.batch) + ", " + std::string(dtype_name(s.dtype)) + ", KV cache " +
       std::string(dtype_name(s.cache_dtype())) + weights_phrase(s) + ": prompt " + std::to_string(g.prompt) + " tokens, " +
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
  if (g.joules_per_token)
    t += "- energy: " + format_joules(*g.joules_per_token) + " per generated token, " + format_count(*g.average_power_w) +
         " W average (estimate: the descriptor's [power] and per-operation energies)\n";
  if (g.parallel()) {
    std::vector<std::string> parts;
    if (g.tp > 1) parts.push_back("2 all-reduces a layer");
    if (g.pp > 1) parts.push_back(std::to_string(g.pp - 1) + (g.pp > 2 ? " sends" : " send") + " between stages");
    if (g.ep > 1)
      parts.push_back("2 all-to-alls a MoE layer, dispatch and combine, in a decode step each " +
                      format_bytes(g.decode_all_to_all_bytes) + " in " + format_seconds(g.decode_all_to_all_s));
    std::string what;
    for (const std::string& p : parts) what += (what.empty() ? "" : "; ") + p;
    t += "- one device of tp " + std::to_string(g.tp) + " x pp " + std::to_string(g.pp) +
         (g.ep > 1 ? " x ep " + std::to_string(g.ep) + " (each ep rank serves its own batch" +
                         (g.expert_imbalance != 1 ? "; the busiest, at " + format_fixed(g.expert_imbalance, 2) +
                                                        " x the mean rank's routed tokens" : std::string()) + ")"
                   : std::string()) +
         ": communication " + format_seconds(g.prefill_communication_s) + " of the time to first token, " +
         format_seconds(g.decode_step_communication_s) + " of every decode step (" + what + ")\n";
  }
  t += "- KV cache at the end: " + format_bytes(static_cast<double>(g.kv_cache_bytes)) + " (" +
       std::to_string(g.prompt + g.gen - 1) + " tokens x batch " + std::to_string(g.batch) +
       (g.parallel() ? ", one device's share" : "") + ")\n";
  return wrap_lines(t);
}

std::vector<Field<GenerationResult>> generate_fields() {
  using G = const GenerationResult&;
  auto integer = [](int64_t GenerationResult::*m) { return [m](G g) -> FieldValue { return g.*m; }; };
  auto number = [](double GenerationResult::*m) { return [m](G g) -> FieldValue { return g.*m; }; };
  auto optional = [](std::optional<double> GenerationResult::*m) {
    return [m](G g) -> FieldValue { return g.*m ? FieldValue(*(g.*m)) : FieldValue(NotApplicable{}); };
  };
  return {
      {"prompt_tokens", "prompt", Unit::integer, integer(&GenerationResult::prompt)},
      {"generated_tokens", "generated", Unit::integer, integer(&GenerationResult::gen)},
      {"decode_steps", "decode steps", Unit::integer, integer(&GenerationResult::decode_steps)},
      {"ttft_s", "time to first token", Unit::seconds, number(&GenerationResult::ttft_s)},
      {"tpot_s", "time per output token", Unit::seconds, number(&GenerationResult::tpot_s)},
      {"mean_context", "mean context", Unit::integer, integer(&GenerationResult::mean_context)},
      {"step_at_mean_context_s", "step at the mean context", Unit::seconds,
       number(&GenerationResult::step_at_mean_context_s)},
      {"decode_time_s", "decode", Unit::seconds, number(&GenerationResult::decode_s)},
      {"total_time_s", "total latency", Unit::seconds, number(&GenerationResult::total_s)},
      {"tokens_per_s", "tokens/s", Unit::number, number(&GenerationResult::tokens_per_s)},
      {"decode_tokens_per_s", "decode tokens/s", Unit::number, number(&GenerationResult::decode_tokens_per_s)},
      {"memory_bound_share", "memory-bound", Unit::fraction, number(&GenerationResult::memory_bound_share)},
      {"prefill_memory_bound_share", "prefill memory-bound", Unit::fraction,
       number(&GenerationResult::prefill_memory_bound_share)},
      {"decode_memory_bound_share", "decode memory-bound", Unit::fraction,
       number(&GenerationResult::decode_memory_bound_share)},
      {"kv_cache_bytes", "KV cache at the end", Unit::bytes, integer(&GenerationResult::kv_cache_bytes)},
      {"joules_per_token", "J/token", Unit::number, optional(&GenerationResult::joules_per_token)},
      {"average_power_w", "average power (W)", Unit::number, optional(&GenerationResult::average_power_w)},
  };
}

Json generate_json(const Model& model, const RunSettings& s, const HardwareSpec& hw, const GenerationResult& g) {
  RunSettings decode = s;  // the root names the run by its decode steps (phase, mean context)
  decode.phase = Phase::decode;
  decode.context = g.mean_context;
  Json j = report_root(model.name, decode);
  j["hardware"] = hw.id;
  j["hardware_model"] = g.hardware_model;
  std::vector<Field<GenerationResult>> fields = generate_fields();
  put_fields(j, all_fields(fields), g);
  if (g.parallel()) {
    j["parallel"] = Json{{"tp", g.tp},
                         {"pp", g.pp},
                         {"ep", g.ep},
                         {"prefill_communication_s", g.prefill_communication_s},
                         {"decode_step_communication_s", g.decode_step_communication_s}};
    if (g.ep > 1) {
      j["parallel"]["decode_all_to_all_bytes"] = g.decode_all_to_all_bytes;
      j["parallel"]["decode_all_to_all_s"] = g.decode_all_to_all_s;
      j["parallel"]["expert_imbalance"] = g.expert_imbalance;
    }
  }
  return j;
}

}  // namespace ridge
