// Edit distance and name suggestions (see close_names.hpp).
#include "sim/base/close_names.hpp"

#include <algorithm>
#include <cctype>

namespace ridge {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> close_names(std::string_view name, const std::vector<std::string>& candidates,
                                     size_t limit) {
  std::vector<std::pair<size_t, std::string>> scored;
  size_t max_distance = std::max<size_t>(2, name.size() / 3);
  for (const auto& c : candidates) {
    // Scored without the O(|name| x |c|) table where it cannot matter (a fuzzed name of
    // thousands of characters against every known key was a slow unit): a candidate
    // holding the name scores 0 when equal, else 1; and the length difference is a lower
    // bound on the distance, so a candidate further off than that is not close.
    if (!name.empty() && c.find(name) != std::string::npos) {
      scored.emplace_back(c.size() == name.size() ? 0 : 1, c);
      continue;
    }
    if (std::max(c.size(), name.size()) - std::min(c.size(), name.size()) > max_distance) continue;
    size_t d = edit_distance(name, c);
    if (d <= max_distance) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, c] : scored) {
    if (out.size() == limit) break;
    out.push_back(c);
  }
  return out;
}

std::string suggestion_hint(std::string_view name, const std::vector<std::string>& candidates) {
  auto close = close_names(name, candidates);
  std::string s;
  if (!close.empty()) {
    s = "did you mean ";
    for (size_t i = 0; i < close.size(); ++i) s += (i ? ", '" : "'") + close[i] + "'";
    return s + "?";
  }
  s = "known: ";
  for (size_t i = 0; i < candidates.size() && i < 12; ++i) s += (i ? ", " : "") + candidates[i];
  if (candidates.size() > 12) s += ", ...";
  return s;
}

}  // namespace ridge
