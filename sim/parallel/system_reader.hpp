// System descriptors (configs/systems/NAME.toml or a path): strict TOML with located
// errors, every key required unless said otherwise; see docs/guide/many-gpus.md.
#pragma once

#include <string>
#include <vector>

#include "sim/parallel/system_spec.hpp"

namespace ridge {

// Names of the shipped systems, sorted.
std::vector<std::string> shipped_system_names();
// A shipped name or a path; an unknown name lists close ones. `pure`: the device at its
// peaks, without the descriptor's [efficiency] (or its hardware descriptor's).
SystemSpec load_system(const std::string& name_or_path, bool pure = false);
// Parses `text` as if read from `file` (tests).
SystemSpec system_from_text(const std::string& text, const std::string& file, const std::string& id);

}  // namespace ridge
