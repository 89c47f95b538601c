// The JSON tree of every --format json view is nlohmann-json's `ordered_json` (object
// keys keep insertion order, so output is stable and diffable). ridge writes it with
// its own writer: doubles in the shortest form that reads back exactly (the same text as
// CSV), non-finite numbers as null, arrays of scalars on one line.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace ridge {

using Json = nlohmann::ordered_json;

// Sets "a.b.c" in `object` as nested objects a -> b -> c, creating those missing.
void set_path(Json& object, const std::string& dotted_key, Json value);

// Writes `j` and a newline; indent 0 writes one line.
void write_json(std::ostream& out, const Json& j, int indent = 2);
std::string dump_json(const Json& j, int indent = 2);

std::string json_escape(const std::string& s);

}  // namespace ridge
