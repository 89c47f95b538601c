// The command-line fuzz target's one step (tests/fuzz/fuzz_cli.cpp), shared by the
// libFuzzer entry point and the suite's replay of its seeds and regression inputs
// (tests/fuzz/replay_cli.cpp), so both run an input the same way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ridge_fuzz {

// run_cli_input's answer for an input it does not run (too many or too long arguments,
// a path that is not a shipped file, `probe`).
inline constexpr int kSkipped = -1;

// Runs the input (one argument per line) through run_main in a private folder, with
// stdout and stderr discarded; returns ridge's exit status, or kSkipped.
int run_cli_input(const uint8_t* data, size_t size);

}  // namespace ridge_fuzz
