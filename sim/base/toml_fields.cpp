// Strict TOML table reading (see toml_fields.hpp).
#include "sim/base/toml_fields.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/base/close_names.hpp"
#include "sim/base/control_chars.hpp"

namespace ridge {

std::string finite_number_problem(double v) {
  if (std::isnan(v)) return "must be a number, not nan";
  if (std::isinf(v)) return std::string("must be finite (got ") + (v > 0 ? "inf" : "-inf") + ")";
  if (v != 0 && std::fabs(v) < std::numeric_limits<double>::min()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return std::string("is too close to zero to compute with (got ") + buf + ", below 2.2e-308)";
  }
  return {};
}

SourceLoc location_of(const toml::node& node, const std::string& fallback_file) {
  const auto& src = node.source();
  SourceLoc loc;
  loc.file = src.path ? *src.path : fallback_file;
  loc.line = src.begin.line;
  loc.column = src.begin.column;
  return loc;
}

toml::table parse_toml_text(const std::string& text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw InputError({file, e.source().begin.line, e.source().begin.column}, "invalid TOML: " + std::string(e.description()));
  }
}

TomlFields::TomlFields(const toml::table& table, std::string file, std::string what)
    : table_(table), file_(std::move(file)), what_(std::move(what)) {}

TomlFields::TomlFields(const toml::table& table, std::string file, std::string what, const IntParams* params)
    : table_(table), file_(std::move(file)), what_(std::move(what)), params_(params) {}

std::optional<int64_t> TomlFields::integer_value(const toml::node& n) const {
  if (n.is_integer()) return n.as_integer()->get();
  if (!params_ || !n.is_string()) return std::nullopt;
  SourceLoc at = location_of(n, file_);
  if (at.line > 0) at.column += 1;  // past the opening quote
  std::vector<std::string> names;
  for (const auto& [name, value] : *params_) names.push_back(name);
  return evaluate_int_expression(
      n.as_string()->get(),
      [this](std::string_view name) -> std::optional<int64_t> {
        auto it = params_->find(name);
        if (it == params_->end()) return std::nullopt;
        return it->second;
      },
      at,
      [&](std::string_view name) {
        return names.empty() ? std::string("declare it in the model's [params] table")
                             : suggestion_hint(std::string(name), names);
      });
}

SourceLoc TomlFields::where() const { return location_of(table_, file_); }

SourceLoc TomlFields::where(std::string_view key) const {
  if (const toml::node* n = table_.get(key)) return location_of(*n, file_);
  return where();
}

bool TomlFields::has(std::string_view key) const { return table_.contains(key); }

const toml::node* TomlFields::node(std::string_view key) {
  known_.insert(std::string(key));
  return table_.get(key);
}

void TomlFields::accept(std::string_view key) { known_.insert(std::string(key)); }

void TomlFields::fail(std::string_view key, const std::string& message, std::string hint) const {
  throw InputError(where(key), what_ + ": '" + std::string(key) + "' " + message, std::move(hint));
}

const toml::node& TomlFields::required(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) throw InputError(where(), what_ + ": missing required key '" + std::string(key) + "'");
  return *n;
}

namespace {
std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}
}  // namespace

std::string TomlFields::string(std::string_view key) {
  const toml::node& n = required(key);
  if (!n.is_string()) fail(key, "must be a string (got " + type_name(n) + ")");
  return n.as_string()->get();
}

std::string TomlFields::name(std::string_view key) {
  std::string s = string(key);
  if (auto code = first_control_char(s))
    fail(key, "must not contain control characters (got character " + *code + ")",
         "names appear in tables and on terminals; use printable characters");
  if (s.size() > kMaxNameBytes)
    fail(key, "is " + std::to_string(s.size()) + " bytes long, longer than the " + std::to_string(kMaxNameBytes) +
                  " a name may be", "names label tables and plots; shorten it");
  return s;
}

std::optional<std::string> TomlFields::optional_string(std::string_view key) {
  if (!node(key)) return std::nullopt;
  return string(key);
}

int64_t TomlFields::integer(std::string_view key) {
  const toml::node& n = required(key);
  std::optional<int64_t> v = integer_value(n);
  if (!v) fail(key, "must be an integer (got " + type_name(n) + ")");
  return *v;
}

std::optional<int64_t> TomlFields::optional_integer(std::string_view key) {
  if (!node(key)) return std::nullopt;
  return integer(key);
}

int64_t TomlFields::positive(std::string_view key, std::optional<int64_t> fallback, bool allow_zero) {
  if (!node(key) && fallback) return *fallback;
  int64_t v = integer(key);
  if (v < 0 || (v == 0 && !allow_zero))
    fail(key, std::string("must be ") + (allow_zero ? "zero or positive" : "positive") + " (got " +
                  std::to_string(v) + ")");
  return v;
}

double TomlFields::number(std::string_view key) {
  const toml::node& n = required(key);
  if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
  if (!n.is_floating_point()) fail(key, "must be a number (got " + type_name(n) + ")");
  double v = n.as_floating_point()->get();
  if (std::string why = finite_number_problem(v); !why.empty()) fail(key, why);
  return v;
}

std::optional<double> TomlFields::optional_number(std::string_view key) {
  if (!node(key)) return std::nullopt;
  return number(key);
}

bool TomlFields::boolean(std::string_view key, bool fallback) {
  const toml::node* n = node(key);
  if (!n) return fallback;
  if (!n->is_boolean()) fail(key, "must be true or false (got " + type_name(*n) + ")");
  return n->as_boolean()->get();
}

std::pair<int64_t, int64_t> TomlFields::pair(std::string_view key, int64_t fallback, bool allow_zero) {
  const toml::node* n = node(key);
  if (!n) return {fallback, fallback};
  auto check = [&](int64_t v) {
    if (v < 0 || (v == 0 && !allow_zero))
      fail(key, std::string("must be ") + (allow_zero ? "zero or positive" : "positive") + " (got " +
                    std::to_string(v) + ")");
    return v;
  };
  if (std::optional<int64_t> v = integer_value(*n)) {
    check(*v);
    return {*v, *v};
  }
  const toml::array* a = n->as_array();
  std::optional<int64_t> h, w;
  if (a && a->size() == 2) {
    h = integer_value((*a)[0]);
    w = integer_value((*a)[1]);
  }
  if (!h || !w) fail(key, "must be an integer or a pair [h, w] of integers");
  return {check(*h), check(*w)};
}

std::vector<int64_t> TomlFields::integer_list(std::string_view key, bool allow_zero, bool allow_negative) {
  const toml::node& n = required(key);
  const toml::array* a = n.as_array();
  if (!a) fail(key, "must be an array of integers (got " + type_name(n) + ")");
  std::vector<int64_t> out;
  for (const toml::node& e : *a) {
    std::optional<int64_t> value = integer_value(e);
    if (!value) fail(key, "must be an array of integers (an element is " + type_name(e) + ")");
    int64_t v = *value;
    if (!allow_negative && (v < 0 || (v == 0 && !allow_zero)))
      fail(key, "elements must be positive (got " + std::to_string(v) + ")");
    out.push_back(v);
  }
  return out;
}

std::optional<std::vector<int64_t>> TomlFields::optional_integer_list(std::string_view key, bool allow_negative) {
  if (!node(key)) return std::nullopt;
  return integer_list(key, false, allow_negative);
}

std::vector<std::string> TomlFields::string_list(std::string_view key) {
  const toml::node& n = required(key);
  const toml::array* a = n.as_array();
  if (!a) fail(key, "must be an array of strings (got " + type_name(n) + ")");
  std::vector<std::string> out;
  for (const toml::node& e : *a) {
    if (!e.is_string()) fail(key, "must be an array of strings (an element is " + type_name(e) + ")");
    out.push_back(e.as_string()->get());
  }
  return out;
}

const toml::table* TomlFields::optional_table(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail(key, "must be a table (got " + type_name(*n) + ")");
  return n->as_table();
}

const toml::array* TomlFields::optional_array(std::string_view key) {
  const toml::node* n = node(key);
  if (!n) return nullptr;
  if (!n->is_array()) fail(key, "must be an array (got " + type_name(*n) + ")");
  return n->as_array();
}

void TomlFields::reject_unknown_keys() const {
  std::vector<std::string> known(known_.begin(), known_.end());
  for (const auto& [k, v] : table_) {
    if (known_.count(k.str())) continue;
    throw InputError(location_of(v, file_), what_ + ": unknown key '" + std::string(k.str()) + "'",
                     suggestion_hint(k.str(), known));
  }
}

}  // namespace ridge
