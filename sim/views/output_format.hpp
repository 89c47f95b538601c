// Output formats of reports, and the counting conventions every report states.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridge {

enum class OutputFormat { table, csv, json, md };

std::optional<OutputFormat> parse_output_format(std::string_view s);
// One line each, printed in every report header (and as "conventions" in JSON).
const std::vector<std::string>& counting_conventions();

}  // namespace ridge
