// The parallel training query (see parallel_query_report.hpp).
#include "sim/views/parallel_query_report.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/base/format_units.hpp"
#include "sim/base/ratio.hpp"
#include "sim/views/text_width.hpp"

namespace ridge {

namespace {

// The iteration's parts; they add up to iteration_time_s (training_estimate.hpp):
// (m + (p-1)/V) slots of F + B + tp + cp + ep, the sends, exposed dp, the optimizer step.
std::vector<std::pair<const char*, double>> parts(const TrainingEstimate& e) {
  const double m = static_cast<double>(e.microbatches);
  return {{"compute", m * (e.stage_forward_s + e.stage_backward_s)},
          {"tp_communication", e.tp_comm_s},
          {"cp_communication", e.cp_comm_s},
          {"ep_communication", e.ep_comm_s},
          {"bubble", e.bubble_s},
          {"pp_communication", e.pp_comm_s},
          {"dp_communication_exposed", e.dp_exposed_s},
          {"optimizer", e.optimizer_s}};
}

const CollectiveRow* costliest(const TrainingEstimate& e) {
  auto it = std::max_element(e.collectives.begin(), e.collectives.end(),
                             [](const CollectiveRow& a, const CollectiveRow& b) { return a.total_s() < b.total_s(); });
  return it == e.collectives.end() ? nullptr : &*it;
}

bool link_limited(const CollectiveCost& c) { return c.time_s - c.latency_s >= c.latency_s; }

std::string pct(double share) { return format_fixed(100 * share, 1) + "%"; }

}  // namespace

std::string parallel_query_text(const TrainingEstimate& e) {
  const ParallelPlan& p = e.plan;
  std::string t = e.model + " on " + e.system + ", tp " + std::to_string(p.tp) + " x pp " + std::to_string(p.pp) +
                  " x dp " + std::to_string(p.dp) + (p.cp > 1 ? " x cp " + std::to_string(p.cp) : "") +
                  (p.ep > 1 ? " (ep " + std::to_string(p.ep) + ")" : "") + ", global batch " + std::to_string(p.batch()) + ": one iteration takes " +
                  format_seconds(e.iteration_time_s) + "\n- where it goes:";
  bool first = true;
  for (const auto& [name, s] : parts(e)) {
    if (s <= 0) continue;
    std::string label = name;
    std::replace(label.begin(), label.end(), '_', ' ');
    t += std::string(first ? " " : ", ") + label + " " + pct(ratio(s, e.iteration_time_s));
    first = false;
  }
  t += "\n";
  const CollectiveRow* c = costliest(e);
  if (!c) return wrap_lines(t + "- no collectives: the plan runs on one device\n");
  const CollectiveCost& k = c->cost;
  const double moving = k.time_s - k.latency_s;
  t += "- the costliest collective: the " + c->group + " " + std::string(collective_op_name(k.op)) + " (" + c->when +
       ") of " + format_bytes(k.bytes) + " over " + std::to_string(k.group_size) + " devices on " + k.link + " (" +
       k.algorithm + "), " + format_seconds(k.time_s) + " each, " + format_fixed(c->count, 0) + " times: " +
       format_seconds(c->total_s()) + " an iteration\n";
  t += "- it is " + std::string(link_limited(k) ? "link-limited" : "latency-limited") + ": moving the bytes takes " +
       format_seconds(moving) + ", the same collective of 0 bytes " + format_seconds(k.latency_s) +
       (link_limited(k) ? "; twice the link bandwidth would take each to about " + format_seconds(k.latency_s + moving / 2)
                        : "; more bandwidth buys little, fewer or larger messages more") +
       "\n";
  return wrap_lines(t);
}

Json parallel_query_json(const TrainingEstimate& e) {
  Json j = Json::object();
  j["model"] = e.model;
  j["system"] = e.system;
  j["iteration_time_s"] = e.iteration_time_s;
  Json shares = Json::object();
  for (const auto& [name, s] : parts(e)) shares[std::string(name) + "_share"] = ratio(s, e.iteration_time_s);
  j["shares"] = shares;
  if (const CollectiveRow* c = costliest(e)) {
    const CollectiveCost& k = c->cost;
    j["costliest_collective"] = Json{{"group", c->group},
                                     {"when", c->when},
                                     {"op", std::string(collective_op_name(k.op))},
                                     {"algorithm", k.algorithm},
                                     {"link", k.link},
                                     {"bytes", k.bytes},
                                     {"group_size", k.group_size},
                                     {"time_s", k.time_s},
                                     {"latency_s", k.latency_s},
                                     {"count", c->count},
                                     {"bound", link_limited(k) ? "link" : "latency"}};
  }
  return j;
}

}  // namespace ridge
