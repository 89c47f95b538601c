// Reading and writing a descriptor's [calibration] section (see calibration.hpp).
#include "hw/calibration.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "sim/base/close_names.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/toml_text.hpp"
#include "sim/base/units.hpp"

namespace ridge {

namespace {

double fraction(TomlFields& f, std::string_view key) {
  std::optional<double> v = f.optional_number(key);
  if (!v) return 1.0;
  if (!(*v > 0 && *v <= 1)) f.fail(key, "must be a fraction in (0, 1] (got " + format_raw(*v) + ")");
  return *v;
}

double non_negative(TomlFields& f, std::string_view key) {
  std::optional<double> v = f.optional_number(key);
  if (!v) return 0.0;
  if (!(*v >= 0)) f.fail(key, "must not be negative (got " + format_raw(*v) + ")");
  return *v;
}

std::string number(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  std::string s = out.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";  // a TOML float
  return s;
}

// `memory`: one fraction for every level, or a table of fractions by level name.
void read_memory(TomlFields& e, ClassEfficiency& ce, const std::vector<std::string>& levels) {
  const toml::table* by_level = e.has("memory") ? e.node("memory")->as_table() : nullptr;
  if (!by_level) {
    ce.memory = fraction(e, "memory");
    return;
  }
  TomlFields m(*by_level, e.file(), "calibration class memory");
  for (const auto& [key, value] : *by_level) {
    std::string level(key.str());
    m.accept(level);
    if (std::find(levels.begin(), levels.end(), level) == levels.end())
      m.fail(level, "is not a memory level of this descriptor", suggestion_hint(level, levels));
    ce.memory_by_level[level] = fraction(m, level);
  }
  if (ce.memory_by_level.empty()) e.fail("memory", "names no memory level", "give a fraction, or { LEVEL = fraction }");
}

std::string memory_toml(const ClassEfficiency& e) {
  if (e.memory_by_level.empty()) return number(e.memory);
  std::string out = "{ ";
  for (const auto& [level, fraction] : e.memory_by_level)
    out += (out.size() > 2 ? ", " : "") + toml_quoted(level) + " = " + number(fraction);
  return out + " }";
}

}  // namespace

Calibration read_calibration(const toml::table& table, const std::string& file, const std::vector<std::string>& levels) {
  Calibration c;
  TomlFields f(table, file, "calibration");
  for (const char* k : {"data", "date", "method", "cache_rule", "kernel_time", "class", "peaks", "bandwidths", "conditions"})
    f.accept(k);
  f.reject_unknown_keys();
  if (const toml::table* peaks = f.optional_table("peaks")) {
    TomlFields p(*peaks, file, "calibration peaks");
    for (const auto& [key, value] : *peaks) {
      std::string name(key.str());
      p.accept(name);
      auto dtype = parse_dtype(name);
      if (!dtype) p.fail(name, "unknown dtype '" + name + "'", "ridge dtypes: " + dtype_names());
      c.peaks[*dtype] = read_quantity(p, name, *dtype == DType::int8 ? Quantity::ops : Quantity::flops);
    }
  }
  if (const toml::table* conditions = f.optional_table("conditions")) {
    TomlFields k(*conditions, file, "calibration conditions");
    for (const auto& [key, value] : *conditions) {
      k.accept(key.str());
      c.conditions[std::string(key.str())] = k.string(key.str());
    }
  }
  if (const toml::table* bandwidths = f.optional_table("bandwidths")) {
    TomlFields b(*bandwidths, file, "calibration bandwidths");
    for (const auto& [key, value] : *bandwidths) {
      std::string level(key.str());
      b.accept(level);
      if (std::find(levels.begin(), levels.end(), level) == levels.end())
        b.fail(level, "is not a memory level of this descriptor", suggestion_hint(level, levels));
      c.bandwidths[level] = read_quantity(b, level, Quantity::bandwidth);
    }
  }
  c.data = f.string("data");
  if (c.data.empty()) f.fail("data", "must name the measured data set the fit used");
  c.date = f.string("date");
  c.method = f.optional_string("method").value_or("");
  c.cache_rule = f.boolean("cache_rule", true);
  c.kernel_time_s = read_optional_quantity(f, "kernel_time", Quantity::time).value_or(0.0);
  // No class: a fit that kept none (each was no better than the pure roofline held out),
  // which ridge calibrate writes as such; every class then keeps the pure roofline.
  const toml::array* classes = f.optional_array("class");
  if (classes && !classes->is_array_of_tables())
    f.fail("class", "must be an array of tables", "write each class as [[calibration.class]]");
  static const toml::array kNone;
  for (const toml::node& n : classes ? *classes : kNone) {
    const toml::table& t = *n.as_table();
    TomlFields e(t, file, "calibration class");
    for (const char* k : {"op_class", "dtype", "compute", "n_half_flops", "positions_half", "reduction_half", "overlap",
                          "memory", "library", "rows", "median_error_before", "median_error_after", "median_error_held_out"})
      e.accept(k);
    e.reject_unknown_keys();
    std::string name = e.string("op_class");
    auto oc = parse_op_class(name);
    if (!oc) e.fail("op_class", "unknown op class '" + name + "'", suggestion_hint(name, op_class_name_list()));
    std::string dt = e.string("dtype");
    auto dtype = parse_dtype(dt);
    if (!dtype) e.fail("dtype", "unknown dtype '" + dt + "'", "ridge dtypes: " + dtype_names());
    ClassEfficiency ce;
    ce.compute = fraction(e, "compute");
    ce.n_half_flops = non_negative(e, "n_half_flops");
    ce.positions_half = non_negative(e, "positions_half");
    ce.reduction_half = non_negative(e, "reduction_half");
    ce.overlap = e.boolean("overlap", true);
    read_memory(e, ce, levels);
    ce.rows = e.positive("rows", 0, true);
    ce.median_error_before = non_negative(e, "median_error_before");
    ce.median_error_after = non_negative(e, "median_error_after");
    ce.median_error_held_out = non_negative(e, "median_error_held_out");
    ClassKey key{*oc, *dtype, e.optional_string("library").value_or("")};
    if (!c.classes.emplace(key, ce).second)
      e.fail("op_class", "'" + name + "' with dtype " + dt + (key.library.empty() ? "" : " in library " + key.library) +
                             " is calibrated twice",
             "keep one entry per class, dtype and library");
  }
  return c;
}

std::string class_key_name(const ClassKey& key) {
  return std::string(op_class_name(key.op_class)) + " " + std::string(dtype_name(key.dtype)) +
         (key.library.empty() ? "" : " in " + key.library);
}

std::string conditions_text(const std::map<std::string, std::string>& conditions) {
  std::string out;
  for (const auto& [key, value] : conditions) out += (out.empty() ? "" : "; ") + key + " = " + value;
  return out;
}

std::string calibration_toml(const Calibration& c) {
  std::ostringstream out;
  out << "[calibration]\n"
      << "data = " << toml_quoted(c.data) << "\n"
      << "date = " << toml_quoted(c.date) << "\n"
      << "method = " << toml_quoted(c.method) << "\n"
      << "cache_rule = " << (c.cache_rule ? "true" : "false") << "\n";
  if (c.kernel_time_s > 0)
    out << "kernel_time = \"" << format_fixed(c.kernel_time_s * 1e6, 3)
        << " us\"   # fitted fixed time per kernel, which every layer pays (replaces [overhead] kernel_launch)\n";
  if (!c.conditions.empty()) {
    out << "[calibration.conditions]   # what the measurements were taken under (the CSV's '# conditions:')\n";
    for (const auto& [key, value] : c.conditions) out << toml_quoted(key) << " = " << toml_quoted(value) << "\n";
  }
  if (!c.peaks.empty() || !c.bandwidths.empty())
    out << "# Roofs fitted above the descriptor's: the best rate a measured layer attained.\n";
  if (!c.peaks.empty()) {
    out << "[calibration.peaks]\n";
    for (const auto& [dtype, flops] : c.peaks) out << dtype_name(dtype) << " = \"" << format_fixed(flops / 1e9, 2) << " GFLOPS\"\n";
  }
  if (!c.bandwidths.empty()) {
    out << "[calibration.bandwidths]\n";
    for (const auto& [level, bps] : c.bandwidths) out << toml_quoted(level) << " = \"" << format_fixed(bps / 1e9, 2) << " GB/s\"\n";
  }
  for (const auto& [key, e] : c.classes) {
    out << "\n[[calibration.class]]\n"
        << "op_class = \"" << op_class_name(key.op_class) << "\"\n"
        << "dtype = \"" << dtype_name(key.dtype) << "\"\n";
    if (!key.library.empty()) out << "library = " << toml_quoted(key.library) << "   # the kernel library [library] places it in\n";
    out
        << "compute = " << number(e.compute) << "        # x peak at large sizes\n"
        << "n_half_flops = " << number(e.n_half_flops) << "   # half of that at this size\n";
    if (e.positions_half > 0) out << "positions_half = " << number(e.positions_half) << "   # GEMM rows (a linear layer's batch x tokens; a conv's per image)\n";
    if (e.reduction_half > 0) out << "reduction_half = " << number(e.reduction_half) << "   # dot-product length\n";
    out << "overlap = " << (e.overlap ? "true" : "false") << "   # compute and memory overlap (else they add)\n"
        << "memory = " << memory_toml(e) << "   # x the serving level's bandwidth\n"
        << "rows = " << e.rows << "\n"
        << "median_error_before = " << number(e.median_error_before) << "\n"
        << "median_error_after = " << number(e.median_error_after) << "\n"
        << "median_error_held_out = " << number(e.median_error_held_out) << "\n";
  }
  return out.str();
}

}  // namespace ridge
