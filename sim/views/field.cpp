// Formatting a field's value for people, machines and JSON (see field.hpp).
#include "sim/views/field.hpp"

#include <cmath>
#include <cstdio>

#include "sim/base/format_units.hpp"

namespace ridge {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string shape_text(const std::vector<int64_t>& s) {
  std::string out;
  for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

std::string human_number(double d, Unit unit) {
  switch (unit) {
    case Unit::count: return format_count(d);
    case Unit::bytes: return format_bytes(d);
    case Unit::seconds: return format_seconds(d);
    case Unit::flop_rate: return format_rate(d, "FLOP/s");
    case Unit::bandwidth: return std::isfinite(d) ? format_rate(d, "B/s") : "inf";
    case Unit::intensity: return format_fixed(d, 2);
    case Unit::fraction: return format_fixed(100 * d, 1) + "%";
    case Unit::integer: return format_fixed(d, 0);
    default: {
      if (std::fabs(d) >= 1000) return format_count(d);  // "10.62k", as every count, not "1.062e+04"
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4g", d);
      return buf;
    }
  }
}

}  // namespace

std::string human_text(const FieldValue& v, Unit unit) {
  return std::visit(Overloaded{[](NotApplicable) { return std::string(); },
                               [](std::nullptr_t) { return std::string("none"); },
                               [](bool b) { return std::string(b ? "yes" : "no"); },
                               [&](int64_t i) { return human_number(static_cast<double>(i), unit); },
                               [&](double d) { return human_number(d, unit); },
                               [](const std::string& s) { return s; },
                               [](const std::vector<int64_t>& s) { return shape_text(s); }},
                    v);
}

std::string raw_text(const FieldValue& v) {
  return std::visit(Overloaded{[](NotApplicable) { return std::string(); },
                               [](std::nullptr_t) { return std::string(); },
                               [](bool b) { return std::string(b ? "true" : "false"); },
                               [](int64_t i) { return std::to_string(i); },
                               [](double d) { return format_raw(d); },
                               [](const std::string& s) { return s; },
                               [](const std::vector<int64_t>& s) { return shape_text(s); }},
                    v);
}

Json json_value(const FieldValue& v) {
  return std::visit(Overloaded{[](NotApplicable) { return Json(); }, [](std::nullptr_t) { return Json(); },
                               [](bool b) { return Json(b); }, [](int64_t i) { return Json(i); },
                               [](double d) { return Json(d); }, [](const std::string& s) { return Json(s); },
                               [](const std::vector<int64_t>& s) {
                                 Json a = Json::array();
                                 for (int64_t d : s) a.push_back(d);
                                 return a;
                               }},
                    v);
}

}  // namespace ridge
