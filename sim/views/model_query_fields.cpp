// The whole-model query schema (see model_query_fields.hpp). One declaration per key.
#include "sim/views/model_query_fields.hpp"

namespace ridge {

std::vector<Field<ModelQuery>> model_query_fields(const RunSettings& settings) {
  using Q = const ModelQuery&;
  std::vector<Field<ModelQuery>> f;
  auto share = [](double ModelQuery::*m) { return [m](Q q) -> FieldValue { return q.*m; }; };
  if (settings.phase == Phase::prefill)
    f.push_back({"seq", "prompt", Unit::integer, [](Q q) -> FieldValue { return q.run.settings.seq; }});
  f.push_back({"hardware", "hw", Unit::text, [](Q q) -> FieldValue { return q.run.hardware->spec.id; }});
  f.push_back({"hardware_model", "model", Unit::text, [](Q q) -> FieldValue { return q.run.hardware->hardware_model; }});
  f.push_back({"bandwidth_limited", "bw-limited", Unit::flag, [](Q q) -> FieldValue { return q.bandwidth_limited; }});
  f.push_back({"time_s", "time", Unit::seconds, [](Q q) -> FieldValue { return q.run.totals.timing.time_s; }});
  f.push_back({"compute_time_s", "compute", Unit::seconds,
               [](Q q) -> FieldValue { return q.run.totals.timing.compute_s; }});
  f.push_back({"overhead_time_s", "launch", Unit::seconds,
               [](Q q) -> FieldValue { return q.run.totals.timing.overhead_s; }});
  f.push_back({"kernels", "kernels", Unit::integer,
               [](Q q) -> FieldValue { return static_cast<int64_t>(q.run.totals.work.kernels); }});
  f.push_back({"bound_share.memory", "mem share", Unit::fraction, share(&ModelQuery::memory_share)});
  f.push_back({"bound_share.compute", "comp share", Unit::fraction, share(&ModelQuery::compute_share)});
  f.push_back({"bound_share.overhead", "launch share", Unit::fraction, share(&ModelQuery::overhead_share)});
  f.push_back({"bound_share.link", "link share", Unit::fraction, share(&ModelQuery::link_share)});
  f.push_back({"tokens_per_step", "tokens", Unit::count, share(&ModelQuery::tokens)});
  f.push_back({"bytes_per_token.weights", "weights/tok", Unit::bytes, share(&ModelQuery::weight_bytes_per_token)});
  f.push_back({"bytes_per_token.kv", "kv/tok", Unit::bytes, share(&ModelQuery::kv_bytes_per_token)});
  f.push_back({"bytes_per_token.activations", "act/tok", Unit::bytes, share(&ModelQuery::activation_bytes_per_token)});
  f.push_back({"kv_bytes", "kv", Unit::bytes, [](Q q) -> FieldValue { return q.run.totals.work.kv_bytes; }});
  f.push_back({"busiest_level", "busiest", Unit::text,
               [](Q q) -> FieldValue { return q.levels[static_cast<size_t>(q.busiest_level)].name; }});
  f.push_back({"attained_flops", "attained", Unit::flop_rate, [](Q q) -> FieldValue { return q.run.totals.attained_flops; }});
  f.push_back({"peak_fraction", "of peak", Unit::fraction, [](Q q) -> FieldValue { return q.run.totals.peak_fraction; }});
  return f;
}

std::vector<Field<LevelTraffic>> level_traffic_fields() {
  using L = const LevelTraffic&;
  auto num = [](double LevelTraffic::*m) { return [m](L l) -> FieldValue { return l.*m; }; };
  return {{"name", "level", Unit::text, [](L l) -> FieldValue { return l.name; }},
          {"bytes", "bytes", Unit::bytes, num(&LevelTraffic::bytes)},
          {"time_s", "time", Unit::seconds, num(&LevelTraffic::time_s)},
          {"achieved_bandwidth_Bps", "achieved", Unit::bandwidth, num(&LevelTraffic::achieved_Bps)},
          {"peak_bandwidth_Bps", "peak", Unit::bandwidth, num(&LevelTraffic::peak_Bps)}};
}

std::vector<Field<LayerQuery>> largest_linear_fields() {
  using B = const LayerQuery&;
  return {{"layer", "layer", Unit::text, [](B b) -> FieldValue { return b.layer.name; }},
          {"weight_bytes", "weights", Unit::bytes, [](B b) -> FieldValue { return b.layer.work.weight_bytes; }},
          {"bandwidth_limited", "bw-limited", Unit::flag,
           [](B b) -> FieldValue { return b.layer.timing.memory_bound(); }},
          {"compute_bound_at_batch", "flip batch", Unit::integer,
           [](B b) -> FieldValue {
             if (b.compute_bound_at_batch) return *b.compute_bound_at_batch;
             return nullptr;
           }},
          {"batch_searched_to", "searched to", Unit::integer, [](B b) -> FieldValue { return b.searched_to_batch; }}};
}

}  // namespace ridge
