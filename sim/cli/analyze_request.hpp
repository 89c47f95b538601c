// `ridge analyze`'s options and the single-device run they ask for, shared by the
// command (cmd_analyze.cpp) and the Python module, which calls it without rendering
// and re-reading a report (sim/python): both parse the same options and derive the same
// RunResult.
#pragma once

#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/model_loaders.hpp"
#include "sim/cli/parallel_options.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/result.hpp"

namespace ridge::cli {

struct AnalyzeRequest {
  std::string model_arg;
  RunOptionValues run;
  OutputOptionValues out;
  HardwareOptionValues hw;
  ParallelOptionValues par;
  po::variables_map given;  // the options given (write_parallel_plan refuses single-device ones)
};

// The formats `ridge analyze` writes.
const std::vector<OutputFormat>& analyze_formats();

// `ridge analyze`'s option table, built once and used for any number of parses (the
// Python module parses one per call; building the table cost as much as parsing).
class AnalyzeParser {
 public:
  AnalyzeParser();
  AnalyzeParser(const AnalyzeParser&) = delete;
  AnalyzeParser& operator=(const AnalyzeParser&) = delete;
  // Parses ARGS into `request`; on --help prints the help and returns false. Unknown
  // options and a missing MODEL are InputErrors.
  bool parse(const Args& args, AnalyzeRequest& request);

 private:
  AnalyzeRequest bound_;  // the table writes the values here (by address), then they are copied out
  po::options_description visible_;
};

// The single-device run (not --parallel / --system): the model and hardware read through
// `loaders`, costs at `settings` (to_run_settings of request.run), timed with --hw, and a
// warning on stderr when it does not fit the device.
RunResult analyze_run(const AnalyzeRequest& request, RunSettings settings, const Loaders& loaders);

}  // namespace ridge::cli
