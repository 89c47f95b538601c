// JSON trees to Python objects (see python_json.hpp).
#include "sim/python/python_json.hpp"

#include <cmath>

namespace ridge::python {

namespace py = pybind11;

py::object to_python(const Json& j) {
  switch (j.type()) {
    case Json::value_t::boolean: return py::bool_(j.get<bool>());
    case Json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case Json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case Json::value_t::number_float: {
      double d = j.get<double>();
      return std::isfinite(d) ? py::object(py::float_(d)) : py::object(py::none());  // as ridge writes them: null
    }
    case Json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list out(j.size());
      size_t i = 0;
      for (const Json& e : j) out[i++] = to_python(e);
      return out;
    }
    case Json::value_t::object: {
      py::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = to_python(it.value());
      return out;
    }
    default: return py::none();  // null (a view never builds binary or discarded values)
  }
}

}  // namespace ridge::python
