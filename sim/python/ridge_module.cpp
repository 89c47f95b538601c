// The compiled half of the Python module (`ridge._ridge`): runs one ridge command
// in-process, exactly as the command line would, and returns what it printed. Bad input
// raises ridge.InputError (with file, line, column and hint), a run-time failure
// ridge.RunError. The Python half (ridge/__init__.py) turns keyword arguments into the
// command's options and the JSON report into Python objects.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/base/error.hpp"
#include "sim/cli/commands.hpp"

namespace py = pybind11;

namespace {

// Points std::cout at a string for the lifetime of the object (the commands write their
// reports to std::cout when no --output is given).
class CapturedStdout {
 public:
  CapturedStdout() : saved_(std::cout.rdbuf(text_.rdbuf())) {}
  ~CapturedStdout() { std::cout.rdbuf(saved_); }
  CapturedStdout(const CapturedStdout&) = delete;
  CapturedStdout& operator=(const CapturedStdout&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* saved_;
};

std::string run_command(const std::string& name, const std::vector<std::string>& args) {
  for (const ridge::cli::Command& c : ridge::cli::commands()) {
    if (name != c.name) continue;
    CapturedStdout captured;
    c.run(args);
    return captured.text();
  }
  throw ridge::InputError({}, "unknown command '" + name + "'");
}

}  // namespace

PYBIND11_MODULE(_ridge, m) {
  m.doc() = "ridge's commands, run in-process (use the ridge package, not this module)";
  py::object base = py::module_::import("builtins").attr("Exception");
  static py::object input_error = py::reinterpret_borrow<py::object>(
      PyErr_NewException("ridge._ridge.InputError", base.ptr(), nullptr));
  static py::object run_error = py::reinterpret_borrow<py::object>(
      PyErr_NewException("ridge._ridge.RunError", base.ptr(), nullptr));
  m.attr("InputError") = input_error;
  m.attr("RunError") = run_error;
  m.def("run", &run_command, py::arg("command"), py::arg("args"),
        "Runs `ridge COMMAND ARGS...` and returns its standard output.");
  py::register_exception_translator([](std::exception_ptr p) {
    auto raise = [](const py::object& kind, const std::string& message, const py::dict& attrs) {
      py::object e = kind(message);
      for (auto item : attrs) py::setattr(e, item.first, item.second);
      PyErr_SetObject(kind.ptr(), e.ptr());
    };
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ridge::InputError& e) {
      py::dict attrs;
      attrs["file"] = e.where().file;
      attrs["line"] = e.where().line;
      attrs["column"] = e.where().column;
      attrs["hint"] = e.hint();
      raise(input_error, ridge::format_error(e), attrs);
    } catch (const boost::program_options::error& e) {
      py::dict attrs;
      attrs["file"] = std::string();
      attrs["line"] = 0;
      attrs["column"] = 0;
      attrs["hint"] = std::string();
      raise(input_error, std::string("error: ") + e.what(), attrs);
    } catch (const ridge::RunError& e) {
      py::dict attrs;
      attrs["hint"] = e.hint();
      raise(run_error, ridge::format_error(e), attrs);
    }
  });
}
