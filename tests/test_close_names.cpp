// "Did you mean" suggestions (sim/base/close_names): the edit distance against worked
// examples, and close_names against the rule it states, computed the slow way.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "sim/base/close_names.hpp"

namespace ridge {
namespace {

TEST(CloseNames, EditDistanceOfWorkedExamples) {
  // Wikipedia, "Levenshtein distance": kitten -> sitting takes 3 edits (k->s, e->i, +g).
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("HBM2", "hbm2"), 0u);  // case is ignored
  EXPECT_EQ(edit_distance("bandwith", "bandwidth"), 1u);
}

TEST(CloseNames, SuggestsCloseAndContainingNamesOnly) {
  const std::vector<std::string> keys = {"bandwidth", "capacity", "memory.HBM2.bandwidth", "channels"};
  EXPECT_EQ(close_names("bandwith", keys), (std::vector<std::string>{"bandwidth"}));
  // Contained in two keys: the exact match scores 0, the longer key 1.
  EXPECT_EQ(close_names("bandwidth", keys), (std::vector<std::string>{"bandwidth", "memory.HBM2.bandwidth"}));
  // A name of 3,000 characters is close to nothing here (it was a slow unit of fuzz_set:
  // the whole table for each key, before the length bound).
  EXPECT_TRUE(close_names(std::string(3000, 'x'), keys).empty());
}

// The length bound and the substring shortcut must not change a suggestion: the rule in
// close_names.hpp computed with the full distance for every candidate, on random names.
TEST(CloseNames, ShortcutsGiveWhatTheFullDistanceGives) {
  std::mt19937 rng(14);
  auto word = [&](size_t max_len) {
    std::string s(std::uniform_int_distribution<size_t>(0, max_len)(rng), ' ');
    for (char& c : s) c = "abAB."[std::uniform_int_distribution<int>(0, 4)(rng)];
    return s;
  };
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<std::string> candidates;
    for (int i = 0; i < 8; ++i) candidates.push_back(word(12));
    std::string name = word(trial % 5 == 0 ? 40 : 8);
    std::vector<std::pair<size_t, std::string>> scored;
    const size_t max_distance = std::max<size_t>(2, name.size() / 3);
    for (const std::string& c : candidates) {
      size_t d = edit_distance(name, c);
      bool contains = !name.empty() && c.find(name) != std::string::npos;
      if (d <= max_distance || contains) scored.emplace_back(contains ? std::min<size_t>(d, 1) : d, c);
    }
    std::stable_sort(scored.begin(), scored.end(), [](auto& x, auto& y) { return x.first < y.first; });
    std::vector<std::string> expected;
    for (size_t i = 0; i < scored.size() && i < 5; ++i) expected.push_back(scored[i].second);
    EXPECT_EQ(close_names(name, candidates), expected) << "name '" << name << "'";
  }
}

}  // namespace
}  // namespace ridge
