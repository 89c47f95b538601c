// Plan parsing and labels (see parallel_plan.hpp).
#include "sim/parallel/parallel_plan.hpp"

#include <charconv>
#include <set>

#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"

namespace ridge {

std::string_view recompute_name(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

std::optional<Recompute> parse_recompute(std::string_view s) {
  if (s == "none") return Recompute::none;
  if (s == "selective") return Recompute::selective;
  if (s == "full") return Recompute::full;
  return std::nullopt;
}

void parse_parallel_degrees(const std::string& text, ParallelPlan& plan) {
  const std::string hint = "e.g. --parallel tp=8,pp=4,dp=2 (keys tp, pp, dp, ep, cp)";
  std::set<std::string> seen;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    size_t eq = part.find('=');
    if (eq == std::string::npos) throw InputError({}, "--parallel: '" + part + "' is not KEY=N", hint);
    std::string key = part.substr(0, eq);
    std::string value = part.substr(eq + 1);
    int64_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size() || value.empty())
      throw InputError({}, "--parallel: " + key + "='" + value + "' is not a whole number", hint);
    if (n < 1 || n > (int64_t{1} << 24))
      throw InputError({}, "--parallel: " + key + "=" + value + " must be between 1 and 16777216", hint);
    if (!seen.insert(key).second) throw InputError({}, "--parallel: '" + key + "' is given twice", hint);
    if (key == "tp") plan.tp = n;
    else if (key == "pp") plan.pp = n;
    else if (key == "dp") plan.dp = n;
    else if (key == "ep") plan.ep = n;
    else if (key == "cp") plan.cp = n;
    else throw InputError({}, "--parallel: unknown key '" + key + "'", hint);
    start = end + 1;
  }
}

std::string plan_label(const ParallelPlan& p) {
  std::string s = "tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp) + " dp" + std::to_string(p.dp);
  if (p.cp > 1) s += " cp" + std::to_string(p.cp);
  if (p.ep > 1) s += " ep" + std::to_string(p.ep);
  if (p.sequence_parallel) s += " sp";
  s += " mb" + std::to_string(p.microbatch);
  if (p.zero > 0) s += " ZeRO-" + std::to_string(p.zero);
  if (p.recompute != Recompute::none) s += " " + std::string(recompute_name(p.recompute)) + " recompute";
  if (p.interleave > 1) s += " v" + std::to_string(p.interleave);
  if (p.expert_imbalance != 1) s += " imbalance " + format_fixed(p.expert_imbalance, 2);
  return s;
}

}  // namespace ridge
