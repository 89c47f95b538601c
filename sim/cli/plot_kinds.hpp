// The kinds of `ridge plot`, in one table as the hardware models are: each kind is a
// file sim/cli/plot_<kind>.cpp with its options, help and run function, and a row in
// plot_kinds() (cmd_plot.cpp). `ridge plot KIND` finds its row by name.
#pragma once

#include <vector>

#include "sim/cli/commands.hpp"

namespace ridge::cli {

struct PlotKind {
  const char* name;
  const char* synopsis;  // one line for `ridge plot --help`
  int (*run)(const Args& args);
};

const std::vector<PlotKind>& plot_kinds();

int run_plot_roofline(const Args& args);
int run_plot_layers(const Args& args);
int run_plot_sweep(const Args& args);
int run_plot_compare(const Args& args);

}  // namespace ridge::cli
