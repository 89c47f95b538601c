// Datasheet-style quantities (see units.hpp).
#include "sim/base/units.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "sim/base/toml_fields.hpp"

namespace ridge {

namespace {

using UnitTable = std::vector<std::pair<std::string, double>>;

constexpr std::pair<const char*, double> kDecimal[] = {{"", 1.0},   {"k", 1e3},  {"M", 1e6}, {"G", 1e9},
                                                       {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};

// Every SI prefix (and "K" for kilo, as datasheets write KB) in front of each base.
UnitTable decimal_units(std::initializer_list<const char*> bases, bool with_capital_k = false) {
  UnitTable t;
  for (const char* base : bases) {
    for (const auto& [prefix, scale] : kDecimal) t.emplace_back(std::string(prefix) + base, scale);
    if (with_capital_k) t.emplace_back(std::string("K") + base, 1e3);
  }
  return t;
}

UnitTable byte_units(const char* suffix) {
  UnitTable t = decimal_units({"B"}, true);
  double scale = 1.0;
  for (const char* p : {"Ki", "Mi", "Gi", "Ti", "Pi"}) {
    scale *= 1024.0;
    t.emplace_back(std::string(p) + "B", scale);
  }
  for (auto& [unit, s] : t) unit += suffix;
  return t;
}

const UnitTable& units_of(Quantity kind) {
  static const UnitTable bandwidth = byte_units("/s");
  static const UnitTable flops = decimal_units({"FLOPS", "FLOP/s"});
  static const UnitTable ops = [] {
    UnitTable t = decimal_units({"OPS", "OP/s"});
    for (const auto& u : decimal_units({"FLOPS", "FLOP/s"})) t.push_back(u);
    return t;
  }();
  static const UnitTable size = byte_units("");
  static const UnitTable transfer = {{"T/s", 1.0}, {"kT/s", 1e3}, {"MT/s", 1e6}, {"GT/s", 1e9}};
  static const UnitTable frequency = {{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  // "\u00b5s" (micro sign) and "\u03bcs" (Greek mu) are both written for microseconds.
  static const UnitTable time = {{"s", 1.0},           {"ms", 1e-3},          {"us", 1e-6},
                                 {"\u00b5s", 1e-6},   {"\u03bcs", 1e-6},    {"ns", 1e-9},
                                 {"ps", 1e-12}};
  static const UnitTable power = {{"W", 1.0}, {"mW", 1e-3}, {"kW", 1e3}};
  switch (kind) {
    case Quantity::bandwidth: return bandwidth;
    case Quantity::flops: return flops;
    case Quantity::ops: return ops;
    case Quantity::size: return size;
    case Quantity::transfer_rate: return transfer;
    case Quantity::frequency: return frequency;
    case Quantity::power: return power;
    case Quantity::time: break;
  }
  return time;
}

constexpr Quantity kAllKinds[] = {Quantity::bandwidth, Quantity::flops,     Quantity::size,
                                  Quantity::transfer_rate, Quantity::frequency, Quantity::time,
                                  Quantity::power};

std::optional<double> scale_of(std::string_view unit, Quantity kind) {
  for (const auto& [u, s] : units_of(kind))
    if (u == unit) return s;
  return std::nullopt;
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

}  // namespace

std::string quantity_noun(Quantity kind) {
  switch (kind) {
    case Quantity::bandwidth: return "a bandwidth";
    case Quantity::flops: return "a compute rate";
    case Quantity::ops: return "an integer compute rate";
    case Quantity::size: return "a size";
    case Quantity::transfer_rate: return "a transfer rate";
    case Quantity::frequency: return "a frequency";
    case Quantity::power: return "a power";
    case Quantity::time: break;
  }
  return "a time";
}

std::string quantity_example(Quantity kind) {
  switch (kind) {
    case Quantity::bandwidth: return "900 GB/s";
    case Quantity::flops: return "125 TFLOPS";
    case Quantity::ops: return "624 TOPS";
    case Quantity::size: return "16 GiB";
    case Quantity::transfer_rate: return "2933 MT/s";
    case Quantity::frequency: return "2.5 GHz";
    case Quantity::power: return "250 W";
    case Quantity::time: break;
  }
  return "5 us";
}

std::string quantity_units(Quantity kind) {
  switch (kind) {
    case Quantity::bandwidth: return "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s";
    case Quantity::flops: return "GFLOPS, TFLOPS, PFLOPS (or GFLOP/s, TFLOP/s, PFLOP/s)";
    case Quantity::ops: return "GOPS, TOPS, POPS (or TOP/s; FLOPS spellings too)";
    case Quantity::size: return "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB";
    case Quantity::transfer_rate: return "MT/s, GT/s";
    case Quantity::frequency: return "Hz, kHz, MHz, GHz";
    case Quantity::power: return "mW, W, kW";
    case Quantity::time: break;
  }
  return "s, ms, us (or \u00b5s), ns";
}

namespace {

// `number` (as written, its value `value`) times `scale`. A decimal prefix scales by
// 10^k: reading "<mantissa>e<exponent + k>" rounds once, so "5 us" is exactly the double
// 5e-06, where 5 x 1e-6 would round twice (to 4.9999999999999996e-06) and print so in
// every exact view. Binary prefixes multiply by a power of two, which is exact.
double to_si(std::string_view number, double value, double scale) {
  const int k = static_cast<int>(std::lround(std::log10(scale)));
  double power = 0;
  std::string power_text = "1e" + std::to_string(k);
  std::from_chars(power_text.data(), power_text.data() + power_text.size(), power);
  if (power != scale) return value * scale;
  size_t e = number.find_first_of("eE");
  int exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view tail = number.substr(e + 1);
    if (!tail.empty() && tail[0] == '+') tail.remove_prefix(1);
    std::from_chars(tail.data(), tail.data() + tail.size(), exponent);
  }
  std::string scaled = std::string(number.substr(0, e)) + "e" + std::to_string(exponent + k);
  double si = value * scale;
  auto [end, ec] = std::from_chars(scaled.data(), scaled.data() + scaled.size(), si);
  return ec == std::errc() ? si : value * scale;
}

}  // namespace

QuantityResult parse_quantity(std::string_view text, Quantity kind, bool allow_zero) {
  auto fail = [](std::string why) { return QuantityResult{std::nullopt, std::move(why)}; };
  size_t i = 0, n = text.size();
  while (i < n && is_space(text[i])) ++i;
  while (n > i && is_space(text[n - 1])) --n;
  if (i == n) return fail("is empty");
  bool negative = false;
  if (text[i] == '+' || text[i] == '-') negative = text[i++] == '-';
  // A plain decimal number: digits, an optional fraction, an optional exponent.
  size_t start = i;
  size_t digits = 0;
  while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  if (i < n && text[i] == '.') {
    ++i;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  }
  if (digits == 0) return fail("does not start with a number");
  if (i < n && (text[i] == 'e' || text[i] == 'E') && i + 1 < n &&
      (std::isdigit(static_cast<unsigned char>(text[i + 1])) ||
       ((text[i + 1] == '+' || text[i + 1] == '-') && i + 2 < n &&
        std::isdigit(static_cast<unsigned char>(text[i + 2]))))) {
    i += 2;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(text.data() + start, text.data() + i, value);
  // The digits were checked above, so the only way from_chars can fail is out of range.
  if (ec != std::errc() || end != text.data() + i || !std::isfinite(value))
    return fail("is out of range (too large or too close to zero)");
  size_t unit_start = i;
  while (unit_start < n && is_space(text[unit_start])) ++unit_start;
  std::string_view unit = text.substr(unit_start, n - unit_start);
  if (unit.empty()) return fail("has no unit");
  if (unit_start == i && (std::isdigit(static_cast<unsigned char>(unit[0])) || unit[0] == '.'))
    return fail("is not a number followed by a unit");
  std::optional<double> scale = scale_of(unit, kind);
  if (!scale) {
    for (Quantity other : kAllKinds)
      if (other != kind && scale_of(unit, other))
        return fail("is " + quantity_noun(other) + " ('" + std::string(unit) + "'), not " + quantity_noun(kind));
    return fail("has an unknown unit '" + std::string(unit) + "'");
  }
  if (negative && value != 0) return fail("must be positive");
  if (value == 0 && !allow_zero) return fail("must be greater than zero");
  double si = to_si(text.substr(start, i - start), value, *scale);
  if (!std::isfinite(si)) return fail("is too large");
  if (si != 0 && si < std::numeric_limits<double>::min()) return fail("is too close to zero to compute with");
  return {si, {}};
}

double read_quantity(TomlFields& f, std::string_view key, Quantity kind, bool allow_zero) {
  std::string hint = "expected " + quantity_noun(kind) + " as a string with a unit: " + quantity_units(kind);
  const toml::node* n = f.node(key);
  if (!n) throw InputError(f.where(), f.what() + ": missing required key '" + std::string(key) + "'", hint);
  if (!n->is_string()) {
    std::string got = n->is_number() ? "a plain number" : "not a string";
    f.fail(key, "must be a number with a unit in quotes, e.g. \"" + quantity_example(kind) + "\" (got " + got + ")",
           hint);
  }
  const std::string& text = n->as_string()->get();
  QuantityResult r = parse_quantity(text, kind, allow_zero);
  if (!r.value) f.fail(key, r.error + " (got \"" + text + "\")", hint);
  return *r.value;
}

std::optional<double> read_optional_quantity(TomlFields& f, std::string_view key, Quantity kind, bool allow_zero) {
  if (!f.has(key)) {
    f.accept(key);
    return std::nullopt;
  }
  return read_quantity(f, key, kind, allow_zero);
}

}  // namespace ridge
