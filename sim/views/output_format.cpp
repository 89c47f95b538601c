// Output format names and the counting conventions text (see output_format.hpp).
#include "sim/views/output_format.hpp"

namespace ridge {

std::optional<OutputFormat> parse_output_format(std::string_view s) {
  if (s == "table") return OutputFormat::table;
  if (s == "csv") return OutputFormat::csv;
  if (s == "json") return OutputFormat::json;
  if (s == "md" || s == "markdown") return OutputFormat::md;
  return std::nullopt;
}

const std::vector<std::string>& counting_conventions() {
  static const std::vector<std::string> lines = {
      "macs: multiply-accumulates of conv / linear / matmul-type ops only",
      "flops: 2 x macs + every other arithmetic op (bias add, activation, norm, pooling compare, softmax, add) as 1",
      "bytes: elements x dtype size; input, output and weights apart; SI units (1 GB = 1e9 B)",
      "arithmetic intensity: flops / (input + output + weight bytes); in training over forward + backward + update",
  };
  return lines;
}

}  // namespace ridge
