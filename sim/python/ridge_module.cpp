// The compiled half of the Python module (`ridge._ridge`): runs one ridge command
// in-process, exactly as the command line would, and returns what it printed; and
// `analyze`, which parses the same options as `ridge analyze` but reads models and
// descriptors through a cache (load_cache.hpp) and returns the RunResult itself, whose
// layers, totals and whole report become Python objects only when asked for (with the
// JSON report's keys and values). Bad input raises ridge.InputError (with file, line,
// column and hint), a run-time failure ridge.RunError. The Python half
// (ridge/__init__.py) turns keyword arguments into the command's options.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/base/error.hpp"
#include "sim/cli/analyze_request.hpp"
#include "sim/cli/commands.hpp"
#include "sim/python/load_cache.hpp"
#include "sim/python/python_json.hpp"
#include "sim/views/analyze_report.hpp"

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

ridge::python::LoadCache& load_cache() {
  static ridge::python::LoadCache cache;
  return cache;
}

// One `ridge analyze` run, kept as computed; the report's parts are built on request.
struct Analysis {
  ridge::RunResult run;
  ridge::ColumnChoice columns;  // as JSON carries them
};

// `ridge analyze ARGS` as an Analysis, or None where the command writes another report
// (--parallel / --system: a training plan) or only its help: the caller runs the command.
std::shared_ptr<Analysis> analyze(const std::vector<std::string>& args) {
  namespace cli = ridge::cli;
  static cli::AnalyzeParser parser;  // the Python interpreter lock: one call at a time
  cli::AnalyzeRequest r;
  if (!parser.parse(args, r) || cli::wants_parallel(r.par)) return nullptr;
  ridge::RunSettings settings = cli::to_run_settings(r.run);
  cli::to_output_format(r.out, cli::analyze_formats());  // checked as the command checks it
  ridge::ColumnChoice columns = ridge::machine_columns(ridge::parse_column_choice(r.out.columns));
  return std::make_shared<Analysis>(Analysis{cli::analyze_run(r, settings, load_cache().loaders()), columns});
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
  py::class_<Analysis, std::shared_ptr<Analysis>>(m, "Analysis", "one `ridge analyze` run (use ridge.analyze)")
      .def_property_readonly("model", [](const Analysis& a) { return a.run.model; })
      .def("layer_count", [](const Analysis& a) { return a.run.layers.size(); })
      .def("layers", [](const Analysis& a) { return ridge::python::to_python(ridge::analyze_layers_json(a.run, a.columns)); },
           "the report's \"layers\": a list of dicts")
      .def("totals", [](const Analysis& a) { return ridge::python::to_python(ridge::analyze_totals_json(a.run, a.columns)); },
           "the report's \"totals\": a dict")
      .def("report", [](const Analysis& a) { return ridge::python::to_python(ridge::analyze_json(a.run, a.columns)); },
           "the whole report, as `ridge analyze --format json` writes it");
  m.def("analyze", &analyze, py::arg("args"),
        "`ridge analyze ARGS...` as an Analysis, or None where the command writes another report.");
  m.def("cache_info", [] {
    py::dict d;
    d["models"] = load_cache().models();
    d["hardware"] = load_cache().hardware();
    d["limit"] = ridge::python::kCacheEntries;
    return d;
  }, "entries in the model and descriptor caches");
  m.def("cache_clear", [] { load_cache().clear(); }, "forgets every cached model and descriptor");
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
