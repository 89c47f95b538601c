// Writing ridge's JSON (see json.hpp). nlohmann's own dump prints 100.0 as "100.0" and
// breaks every array element onto its own line; this writer keeps ridge's output: the
// shortest round-trip double ("100", "5e-06", as in CSV) and scalar arrays inline.
#include "sim/views/json.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/base/format_units.hpp"

namespace ridge {

void set_path(Json& object, const std::string& dotted_key, Json value) {
  Json* at = &object;
  size_t start = 0;
  for (size_t dot = dotted_key.find('.'); dot != std::string::npos; dot = dotted_key.find('.', start)) {
    Json& child = (*at)[dotted_key.substr(start, dot - start)];
    if (!child.is_object()) child = Json::object();
    at = &child;
    start = dot + 1;
  }
  (*at)[dotted_key.substr(start)] = std::move(value);
}

std::string json_escape(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {

void write_at(std::ostream& out, const Json& j, int indent, int depth) {
  auto newline = [&](int d) {
    if (indent > 0) out << '\n' << std::string(static_cast<size_t>(indent * d), ' ');
  };
  switch (j.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded: out << "null"; break;
    case Json::value_t::boolean: out << (j.get<bool>() ? "true" : "false"); break;
    case Json::value_t::number_integer: out << j.get<int64_t>(); break;
    case Json::value_t::number_unsigned: out << j.get<uint64_t>(); break;
    case Json::value_t::number_float: {
      double d = j.get<double>();
      out << (std::isfinite(d) ? format_raw(d) : "null");
      break;
    }
    case Json::value_t::string: out << json_escape(j.get_ref<const std::string&>()); break;
    case Json::value_t::binary: out << "null"; break;  // never built by a view
    case Json::value_t::array: {
      out << '[';
      bool scalars = true;
      for (const Json& e : j)
        if (e.is_structured()) scalars = false;
      bool first = true;
      for (const Json& e : j) {
        if (!first) out << (scalars ? ", " : ",");
        first = false;
        if (!scalars) newline(depth + 1);
        write_at(out, e, indent, depth + 1);
      }
      if (!scalars && !j.empty()) newline(depth);
      out << ']';
      break;
    }
    case Json::value_t::object: {
      out << '{';
      bool first = true;
      for (const auto& [key, value] : j.items()) {
        if (!first) out << ',';
        first = false;
        newline(depth + 1);
        out << json_escape(key) << (indent > 0 ? ": " : ":");
        write_at(out, value, indent, depth + 1);
      }
      if (!j.empty()) newline(depth);
      out << '}';
      break;
    }
  }
}

}  // namespace

void write_json(std::ostream& out, const Json& j, int indent) {
  write_at(out, j, indent, 0);
  out << '\n';
}

std::string dump_json(const Json& j, int indent) {
  std::ostringstream ss;
  write_json(ss, j, indent);
  return ss.str();
}

}  // namespace ridge
