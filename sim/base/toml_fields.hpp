// A strict reader over one TOML table: typed getters that report the file:line:col
// of a bad value, and a final check that every key present was one the reader asked
// for (an unknown or misspelt key is an error with a suggestion).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "sim/base/error.hpp"
#include "sim/base/int_expression.hpp"

namespace ridge {

// The longest name (model, layer, memory level) ridge reads: names label table rows and
// plots, and a 2,400-character layer name made gnuplot fail. The zoo's longest is ~60.
constexpr size_t kMaxNameBytes = 256;

// Why `v` cannot be used as an input number: nan, an infinity, or a subnormal (whose
// reciprocal or products overflow); empty when it can.
std::string finite_number_problem(double v);

SourceLoc location_of(const toml::node& node, const std::string& fallback_file);

// Parses TOML text read from `file`; a syntax error is an InputError at its file:line:col.
toml::table parse_toml_text(const std::string& text, const std::string& file);

class TomlFields {
 public:
  // `what` names the table in messages, e.g. "layer 'conv1' (conv2d)".
  TomlFields(const toml::table& table, std::string file, std::string what);
  // With `params`, every integer field (integer, positive, pair, integer lists) may also
  // be a string holding an integer expression over those names ("hidden / heads").
  TomlFields(const toml::table& table, std::string file, std::string what, const IntParams* params);

  const std::string& file() const { return file_; }
  const std::string& what() const { return what_; }
  SourceLoc where() const;                     // the table itself
  SourceLoc where(std::string_view key) const;  // a key's value (the table if absent)
  bool has(std::string_view key) const;
  const toml::node* node(std::string_view key);  // marks the key as known

  std::string string(std::string_view key);
  std::optional<std::string> optional_string(std::string_view key);
  // A string shown in tables and on terminals (a model, layer or level name): no control
  // characters (newlines, escape codes, C1 such as U+009B), which would break rows and
  // reach the terminal raw, and at most kMaxNameBytes long.
  std::string name(std::string_view key);
  int64_t integer(std::string_view key);
  std::optional<int64_t> optional_integer(std::string_view key);
  // An integer > 0 (or >= 0 when `allow_zero`).
  int64_t positive(std::string_view key, std::optional<int64_t> fallback = std::nullopt, bool allow_zero = false);
  double number(std::string_view key);  // integer or float; finite and not subnormal
  std::optional<double> optional_number(std::string_view key);
  bool boolean(std::string_view key, bool fallback);
  // `k` or `[a, b]`; each part > 0 (>= 0 when `allow_zero`).
  std::pair<int64_t, int64_t> pair(std::string_view key, int64_t fallback, bool allow_zero = false);
  std::vector<int64_t> integer_list(std::string_view key, bool allow_zero = false, bool allow_negative = false);
  std::optional<std::vector<int64_t>> optional_integer_list(std::string_view key, bool allow_negative = false);
  std::vector<std::string> string_list(std::string_view key);
  const toml::table* optional_table(std::string_view key);
  const toml::array* optional_array(std::string_view key);

  // Marks a key as known without reading it (it is read elsewhere).
  void accept(std::string_view key);
  // Throws InputError on the first key nobody asked for.
  void reject_unknown_keys() const;

  [[noreturn]] void fail(std::string_view key, const std::string& message, std::string hint = {}) const;

 private:
  const toml::node& required(std::string_view key);
  // The integer `n` holds (or its expression's value); nothing when it is neither.
  std::optional<int64_t> integer_value(const toml::node& n) const;
  const toml::table& table_;
  std::string file_;
  std::string what_;
  std::set<std::string, std::less<>> known_;
  const IntParams* params_ = nullptr;
};

}  // namespace ridge
