// Parsing --columns (see field_table.hpp).
#include "sim/views/field_table.hpp"

namespace ridge {

ColumnChoice parse_column_choice(const std::string& text) {
  ColumnChoice c;
  if (text.empty()) return c;
  if (text == "all") {
    c.kind = ColumnChoice::Kind::all;
    return c;
  }
  c.kind = ColumnChoice::Kind::listed;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string key = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (key.empty()) throw InputError({}, "--columns: an empty name in '" + text + "'", "list keys separated by commas: name,op,time_s");
    c.keys.push_back(key);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return c;
}

}  // namespace ridge
