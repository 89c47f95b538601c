// Option groups shared by subcommands (run settings, output) and their validation.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "hw/hardware_model.hpp"
#include "hw/hardware_spec.hpp"
#include "sim/cli/model_loaders.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/run_settings.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/output_format.hpp"

namespace ridge::cli {

namespace po = boost::program_options;

// --seq was not given (the model file's input length applies).
inline constexpr int64_t kSeqNotGiven = std::numeric_limits<int64_t>::min();

struct RunOptionValues {
  int64_t batch = 1;
  std::string dtype;  // "": fp32, or fp16 for prefill and decode
  std::string phase = "inference";
  std::string optimizer;  // "": adam; given, it applies to training only
  std::string precision = "uniform";
  std::string data_on = "device";
  int64_t seq = kSeqNotGiven;  // --seq 0 is an error, not the default
  int64_t context = -1;  // -1: not given
  std::string kv_dtype;
  std::string overhead = "kernel";
  std::string weight_dtype;
  int64_t weight_group = kDefaultWeightGroup;
  bool quantize_lm_head = false;
  bool all_logits = false;
  std::vector<std::string> inputs;  // ONNX: --input NAME=1x3x224x224
  bool allow_unknown = false;       // ONNX: unmodelled nodes cost nothing instead of failing
};

// --hw, --hw-model, --set: which hardware a run is timed on; `--set model.NAME=V`
// sets a model parameter instead (model_overrides).
struct HardwareOptionValues {
  std::vector<std::string> hw;  // several only where a command overlays them (plot roofline)
  std::string hw_model;
  std::vector<std::string> sets;
  std::string efficiency = "calibrated";  // "none": drop a descriptor's [calibration]
};

struct OutputOptionValues {
  std::string format = "table";
  std::string output;
  std::string columns;  // --columns: "" (compact), "all" or a comma-separated list of keys
  CsvStyle csv;         // --comments, --totals (with --format csv)
};

// What `ridge COMMAND --help` prints around the options: the usage line, a paragraph
// saying what the command does, and a few examples.
struct CommandHelp {
  std::string usage;
  std::string description;
  std::vector<std::string> examples;
};

// Defaults are the values `v` holds when called (memory defaults to training).
// `data_placement`: offer --data-on (commands that time a run; memory does not).
po::options_description run_option_group(RunOptionValues& v, bool data_placement = true);
// --weight-group and --quantize-lm-head (also in `generate`'s own run options).
void weight_only_options(po::options_description& g, RunOptionValues& v);
// `repeat`: what a repeated --hw does, for the commands that take several ("; repeat
// to overlay"); the others take one.
po::options_description hardware_option_group(HardwareOptionValues& v, const std::string& repeat = "");
// --format (one of `formats`, from the shared table in views/output_format), --output,
// --columns where the report is a table of fields, and with CSV --comments and --totals
// where the CSV has comment lines and a totals row (`csv_extras`; one-record CSVs have not).
po::options_description output_option_group(OutputOptionValues& v, const std::vector<OutputFormat>& formats,
                                            bool columns, bool csv_extras = true);

// Validated settings; bad values are InputErrors naming the option.
RunSettings to_run_settings(const RunOptionValues& v);
OutputFormat to_output_format(const OutputOptionValues& v, const std::vector<OutputFormat>& formats);

// The `--set model.NAME=VALUE` entries, as overrides of the model's [params].
std::vector<ParamOverride> model_overrides(const HardwareOptionValues& v);
// --input and --allow-unknown, for an ONNX model.
OnnxOptions to_onnx_options(const RunOptionValues& v);
// MODEL as the run options and --set model.NAME say, at the settings' tokens per step;
// a model stored in another type than fp32 (an fp16 ONNX file) sets the settings' dtype
// when --dtype is not given.
Model load_cli_model(const std::string& arg, const RunOptionValues& run, const HardwareOptionValues& hw,
                     RunSettings& settings);
// The same read through `loaders` (a cache keeps the model it returns).
std::shared_ptr<const Model> load_cli_model(const std::string& arg, const RunOptionValues& run,
                                            const HardwareOptionValues& hw, RunSettings& settings,
                                            const Loaders& loaders);

struct SelectedHardware {
  HardwareSpec spec;
  const HardwareModel* model = nullptr;
};
// Every descriptor named by --hw (with --set overrides) and its hardware model, in the
// order given, read through `loaders`; --hw-model or --set without --hw is an InputError.
std::vector<SelectedHardware> to_hardware_list(const HardwareOptionValues& v, const Loaders& loaders = file_loaders());
// The one descriptor named by --hw, or nothing without it; more than one --hw is an
// InputError for commands that take one.
std::optional<SelectedHardware> to_hardware(const HardwareOptionValues& v, const Loaders& loaders = file_loaders());

// Parses `args` against `visible` plus positionals; prints the help (usage,
// description, options, examples) and returns false on --help. Unknown options and
// missing values are InputErrors (exit 2).
bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        const po::positional_options_description& positional, po::variables_map& vm,
                        const CommandHelp& help);
void print_command_help(std::ostream& out, const CommandHelp& help, const po::options_description& visible);

}  // namespace ridge::cli
