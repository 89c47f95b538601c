// "Did you mean" suggestions: candidates close to a misspelt name, by edit distance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ridge {

size_t edit_distance(std::string_view a, std::string_view b);

// Up to `limit` candidates within a distance that scales with the name's length,
// closest first; candidates containing the name as a substring also count.
std::vector<std::string> close_names(std::string_view name, const std::vector<std::string>& candidates,
                                     size_t limit = 5);

// "did you mean 'a', 'b'?" or, when none is close, "known: a, b, c" (first `limit`).
std::string suggestion_hint(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace ridge
