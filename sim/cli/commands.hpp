// The CLI's subcommands. Each lives in its own file and takes the arguments after its
// name; main dispatches by name and prints errors in one place.
#pragma once

#include <string>
#include <vector>

namespace ridge::cli {

using Args = std::vector<std::string>;

int run_analyze(const Args& args);
int run_compare(const Args& args);
int run_import(const Args& args);
int run_calibrate(const Args& args);
int run_list(const Args& args);
int run_memory(const Args& args);
int run_query(const Args& args);
int run_sweep(const Args& args);
int run_plot(const Args& args);
int run_generate(const Args& args);
int run_probe(const Args& args);
int run_plan(const Args& args);

struct Command {
  const char* name;
  int (*run)(const Args&);
  const char* synopsis;
};

const std::vector<Command>& commands();

// `ridge ARGS...` with argv[0] the program: runs the command, prints any error on
// stderr, and returns the exit code (0 ok, 1 run-time failure, 2 bad input).
int run_main(int argc, char** argv);

}  // namespace ridge::cli
