// A parallel plan's collective, named in fewer letters for a label by a bar or a point:
// "tp all_gather backward (scale_up)" -> "tp all-gather bwd (scale-up)". The .dat files
// keep the full names (sim/parallel/iteration_parts.cpp and sim/cli/plot_parallel.cpp
// write them: group, operation, pass, and the link level in parentheses).
#pragma once

#include <string>

namespace ridge::plots {

// Whether `name` is a collective's as those files write it (group, operation, ..., "(link)").
bool is_collective_name(const std::string& name);
// The operation and link level in the words people write ("all-gather", "send/recv",
// "scale-up"), the passes shortened ("fwd", "bwd", "fwd+bwd"); other words kept. With
// `acronyms`, the operations as papers abbreviate them: AR, RS, AG, A2A, P2P
// ("tp AG bwd (scale-up)").
std::string short_collective_name(const std::string& name, bool acronyms = false);
// The short name without its parenthesised link level: "tp all-gather bwd".
std::string collective_without_link(const std::string& name, bool acronyms = false);

}  // namespace ridge::plots
