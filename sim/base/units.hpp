// Datasheet-style quantities ("900 GB/s", "312 TFLOP/s", "16 GiB", "2933 MT/s",
// "2.5 GHz", "5 us") parsed into SI numbers. Each kind accepts only its own units;
// SI prefixes are decimal (1 GB = 1e9 B), Ki/Mi/Gi/Ti binary (1 GiB = 2^30 B).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ridge {

class TomlFields;

enum class Quantity {
  bandwidth,      // B/s:   "900 GB/s", "1.5 TB/s", "15.75 GB/s"
  flops,          // FLOP/s: "125 TFLOPS", "312 TFLOP/s", "1.2 PFLOPS"
  ops,            // OP/s for integer dtypes: "624 TOPS" (FLOPS spellings accepted too)
  size,           // B:     "16 GiB", "6 MiB", "40 MB", "256 KiB"
  transfer_rate,  // T/s:   "2933 MT/s", "4.8 GT/s"
  frequency,      // Hz:    "2.5 GHz", "1530 MHz"
  time,           // s:     "5 us", "4.5 µs", "10 ns", "1 ms"
  power,          // W:     "250 W", "1.2 kW", "500 mW"
};

// "B/s, kB/s, KB/s, MB/s, ..." — the units a kind accepts, for hints.
std::string quantity_units(Quantity kind);
// "900 GB/s", "125 TFLOPS", ... one well-formed value of the kind.
std::string quantity_example(Quantity kind);
// "a bandwidth", "a compute rate", ... for messages.
std::string quantity_noun(Quantity kind);

struct QuantityResult {
  std::optional<double> value;  // SI units; set on success
  std::string error;            // what is wrong, on failure ("unknown unit 'Gb/s'")
};

// Parses `text` as a number, optional spaces and a unit of `kind`. Fails on a
// malformed number, a missing or foreign unit, a negative value, and zero unless
// `allow_zero` (an overhead of 0 s is meaningful; a bandwidth of 0 B/s is not).
QuantityResult parse_quantity(std::string_view text, Quantity kind, bool allow_zero = false);

// Reads `key` of `f` as a quantity string; a bad value is an InputError at the
// value's file:line:col naming the key, with the accepted units in the hint.
double read_quantity(TomlFields& f, std::string_view key, Quantity kind, bool allow_zero = false);
std::optional<double> read_optional_quantity(TomlFields& f, std::string_view key, Quantity kind,
                                             bool allow_zero = false);

}  // namespace ridge
