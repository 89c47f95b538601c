// JSON writing (see json.hpp). Doubles are written in the shortest form that reads back
// as the exact value the engine computed; non-finite values become null.
#include "sim/views/json.hpp"

#include "sim/base/format_units.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace ridge {

Json& Json::set(const std::string& key, Json value) {
  auto& obj = std::get<Object>(v_);
  for (auto& [k, v] : obj)
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  obj.emplace_back(key, std::move(value));
  return *this;
}

Json& Json::set_path(const std::string& dotted_key, Json value) {
  size_t dot = dotted_key.find('.');
  if (dot == std::string::npos) return set(dotted_key, std::move(value));
  std::string head = dotted_key.substr(0, dot);
  auto& obj = std::get<Object>(v_);
  Json* child = nullptr;
  for (auto& [k, v] : obj)
    if (k == head) child = &v;
  if (!child || !std::holds_alternative<Object>(child->v_)) {
    set(head, object());
    for (auto& [k, v] : std::get<Object>(v_))
      if (k == head) child = &v;
  }
  child->set_path(dotted_key.substr(dot + 1), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  std::get<Array>(v_).push_back(std::move(value));
  return *this;
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

void Json::write_at(std::ostream& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent > 0) out << '\n' << std::string(static_cast<size_t>(indent * d), ' ');
  };
  if (std::holds_alternative<std::nullptr_t>(v_)) {
    out << "null";
  } else if (auto b = std::get_if<bool>(&v_)) {
    out << (*b ? "true" : "false");
  } else if (auto i = std::get_if<int64_t>(&v_)) {
    out << *i;
  } else if (auto d = std::get_if<double>(&v_)) {
    if (!std::isfinite(*d)) {
      out << "null";
    } else {
      out << format_raw(*d);
    }
  } else if (auto s = std::get_if<std::string>(&v_)) {
    out << json_escape(*s);
  } else if (auto a = std::get_if<Array>(&v_)) {
    out << '[';
    bool scalars = true;
    for (const Json& e : *a)
      if (std::holds_alternative<Array>(e.v_) || std::holds_alternative<Object>(e.v_)) scalars = false;
    for (size_t k = 0; k < a->size(); ++k) {
      if (k) out << (scalars ? ", " : ",");
      if (!scalars) newline(depth + 1);
      (*a)[k].write_at(out, indent, depth + 1);
    }
    if (!scalars && !a->empty()) newline(depth);
    out << ']';
  } else {
    const auto& o = std::get<Object>(v_);
    out << '{';
    for (size_t k = 0; k < o.size(); ++k) {
      if (k) out << ',';
      newline(depth + 1);
      out << json_escape(o[k].first) << (indent > 0 ? ": " : ":");
      o[k].second.write_at(out, indent, depth + 1);
    }
    if (!o.empty()) newline(depth);
    out << '}';
  }
}

void Json::write(std::ostream& out, int indent) const {
  write_at(out, indent, 0);
  out << '\n';
}

std::string Json::dump(int indent) const {
  std::ostringstream ss;
  write(ss, indent);
  return ss.str();
}

}  // namespace ridge
