// The one table of output formats every command draws from: a command names the
// formats it writes, and parsing and --help text come from here, so the vocabulary is
// the same everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ridge {

enum class OutputFormat { table, csv, json, md, tex };

struct OutputFormatInfo {
  OutputFormat format;
  std::string_view name;
  std::string_view summary;
};

// Every format, in the order help lists them.
const std::vector<OutputFormatInfo>& output_formats();
std::string_view format_name(OutputFormat f);

// `name` as one of `supported` ("text" is accepted as another name for "table", and
// "markdown" for "md"); anything else is an InputError naming the formats that apply.
OutputFormat parse_output_format(std::string_view name, const std::vector<OutputFormat>& supported);
// "table | csv | json | md | tex" for help texts.
std::string format_choices(const std::vector<OutputFormat>& supported);

}  // namespace ridge
