// ridge's JSON trees (sim/views/json.hpp) as Python objects, built directly: the same
// values json.loads would give for the text ridge writes (objects as dicts in key order,
// non-finite numbers as None), without writing and re-reading the text. Numbers keep
// their C++ type: a double is a float even where the text writes it without a point.
#pragma once

#include <pybind11/pybind11.h>

#include "sim/views/json.hpp"

namespace ridge::python {

pybind11::object to_python(const Json& j);

}  // namespace ridge::python
