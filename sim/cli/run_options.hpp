// Option groups shared by subcommands (run settings, output) and their validation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "sim/run_settings.hpp"
#include "sim/views/output_format.hpp"

namespace ridge::cli {

namespace po = boost::program_options;

struct RunOptionValues {
  int64_t batch = 1;
  std::string dtype = "fp32";
  std::string phase = "inference";
  std::string optimizer = "adam";
  std::string precision = "uniform";
};

struct OutputOptionValues {
  std::string format = "table";
  std::string output;
};

// Defaults are the values `v` holds when called (memory defaults to training).
po::options_description run_option_group(RunOptionValues& v);
po::options_description output_option_group(OutputOptionValues& v, const std::string& formats);

// Validated settings; bad values are InputErrors naming the option.
RunSettings to_run_settings(const RunOptionValues& v);
OutputFormat to_output_format(const OutputOptionValues& v);

// Parses `args` against `visible` plus positionals; prints help and returns false on
// --help. Unknown options and missing values are InputErrors (exit 2).
bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        const po::positional_options_description& positional, po::variables_map& vm,
                        const std::string& usage);

}  // namespace ridge::cli
