// One reported quantity, declared once: its key (the JSON and CSV name; a dotted key
// nests in JSON: "required_bandwidth_by_tensor_Bps.input"), its column title, its unit
// and a getter from the row it describes. Every view (table, CSV, Markdown, LaTeX,
// JSON, plot data) is generated from these declarations, so names cannot drift and a
// new quantity is one declaration. Getters read a finished result; they compute nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "sim/views/json.hpp"

namespace ridge {

// How a value reads for people; machines always get the exact value.
enum class Unit {
  text,       // as is
  count,      // 105.4M
  bytes,      // 618.3 KB
  seconds,    // 1.757 µs
  flop_rate,  // 98.84 TFLOP/s
  bandwidth,  // 1.093 TB/s ("inf" when bytes move and nothing is computed)
  intensity,  // 109.82 (FLOP/B)
  fraction,   // 82.4% (stored 0..1)
  number,     // 4 significant digits: 0.08484, 1.594, 2.181k
  integer,    // 1048576
  flag,       // yes / no
  shape,      // 1x96x55x55
};

// Not applicable (an empty cell, a key left out of JSON) | null (JSON null, "none") |
// a value.
struct NotApplicable {};
using FieldValue = std::variant<NotApplicable, std::nullptr_t, bool, int64_t, double, std::string, std::vector<int64_t>>;

template <class Row>
struct Field {
  std::string key;
  std::string title;
  Unit unit = Unit::number;
  std::function<FieldValue(const Row&)> get;
  bool compact = false;  // in the default table (which must fit 120 columns)
};

// For people: "105.4M", "1.757 µs", "82.4%".
std::string human_text(const FieldValue& v, Unit unit);
// For machines (CSV, plot data): integers exactly, doubles in shortest round-trip form
// ("5e-06"), shapes "1x96x55x55", booleans true/false, null and n/a empty.
std::string raw_text(const FieldValue& v);
// JSON: numbers exact (non-finite as null), shapes as arrays.
Json json_value(const FieldValue& v);

}  // namespace ridge
