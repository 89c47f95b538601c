// JSON report to one CSV record (see json_record.hpp).
#include "sim/views/json_record.hpp"

#include <algorithm>

#include "sim/base/format_units.hpp"

namespace ridge {

namespace {

bool integer_array(const Json& j) {
  return j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_number_integer(); });
}

std::string scalar_text(const Json& j) {
  if (j.is_null()) return "";
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  if (j.is_number_integer()) return format_raw(j.get<int64_t>());
  if (j.is_number()) return format_raw(j.get<double>());
  if (j.is_string()) return j.get<std::string>();
  return "";
}

void flatten(const std::string& key, const Json& j, ColumnTable& t) {
  if (j.is_object() || (j.is_array() && !integer_array(j))) {
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      std::string part = j.is_object() ? it.key() : std::to_string(i);
      flatten(key.empty() ? part : key + "." + part, *it, t);
    }
    return;
  }
  std::string text;
  if (integer_array(j))
    for (const Json& e : j) text += (text.empty() ? "" : "x") + format_raw(e.get<int64_t>());
  else
    text = scalar_text(j);
  t.columns.push_back({key, key, j.is_number()});
  t.rows.front().push_back(text_cell(text));
}

}  // namespace

ColumnTable json_record_table(const Json& record) {
  ColumnTable t;
  t.rows.emplace_back();
  flatten("", record, t);
  return t;
}

}  // namespace ridge
