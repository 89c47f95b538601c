// A small JSON value tree and its writer, for every --format json view. Object keys
// keep insertion order so output is stable and diffable.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ridge {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : v_(nullptr) {}
  Json(std::nullptr_t) : v_(nullptr) {}
  Json(bool b) : v_(b) {}
  Json(int v) : v_(static_cast<int64_t>(v)) {}
  Json(int64_t v) : v_(v) {}
  Json(double v) : v_(v) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(Array a) : v_(std::move(a)) {}

  static Json object() {
    Json j;
    j.v_ = Object{};
    return j;
  }
  static Json array() { return Json(Array{}); }

  // Object: appends (or replaces) a key. Array: appends.
  Json& set(const std::string& key, Json value);
  // Object: sets "a.b.c" as nested objects a -> b -> c, creating those missing.
  Json& set_path(const std::string& dotted_key, Json value);
  Json& push(Json value);

  void write(std::ostream& out, int indent = 2) const;
  std::string dump(int indent = 2) const;

 private:
  void write_at(std::ostream& out, int indent, int depth) const;
  std::variant<std::nullptr_t, bool, int64_t, double, std::string, Array, Object> v_;
};

std::string json_escape(const std::string& s);

}  // namespace ridge
