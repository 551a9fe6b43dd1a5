// Time functions: the inputs of a model (cable tensions, joint inputs, load scales) over time.

#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "core/io/json_io.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

// a number or a dict in the JSON's shape, read by the model file's parser
TimeFunction fromSpec(const py::object& spec) {
  const py::object dumps = py::module_::import("json").attr("dumps");
  return parseTimeFunction(dumps(spec).cast<std::string>());
}

const char* kindName(TimeFunction::Kind kind) {
  switch (kind) {
    case TimeFunction::Kind::Constant:
      return "constant";
    case TimeFunction::Kind::Ramp:
      return "ramp";
    case TimeFunction::Kind::Sine:
      return "sine";
    case TimeFunction::Kind::Table:
      return "table";
    case TimeFunction::Kind::Cubic:
      return "cubic";
  }
  return "";
}

}  // namespace

void bindTimeFunction(py::module_& m) {
  py::class_<TimeFunction>(
      m, "TimeFunction",
      "A scalar input over time t [s], as a model file stores it: a number (constant) or a dict\n"
      "{'type': 'constant', 'value'} | {'type': 'ramp', 'value', 'start' [s], 'duration' [s]} |\n"
      "{'type': 'sine', 'amplitude', 'frequency' [Hz], 'phase' [rad], 'offset'} |\n"
      "{'type': 'cubic', 'from', 'to', 'start' [s], 'duration' [s]} (rest to rest) |\n"
      "{'type': 'table', 'points': [[t, value], ...]} (piecewise linear, held outside;\n"
      "'interpolation': 'spline' for the C2 cubic spline, natural or with 'end_slopes').\n"
      "Its value is in the unit of what it drives (N for a cable tension).")
      .def(py::init(&fromSpec), py::arg("spec"), "Raises ModelError for an invalid spec.")
      .def(
          "__call__", [](const TimeFunction& f, double t) { return f(t); }, py::arg("t"),
          "the value at time t [s]")
      .def(
          "__call__",
          [](const TimeFunction& f, const py::array_t<double>& t) {
            return py::vectorize([&f](double x) { return f(x); })(t);
          },
          py::arg("t"), "the values at the times of an array [s]")
      .def(
          "derivative",
          [](const TimeFunction& f, double t, int order) {
            if (order < 0 || order > 2) throw py::value_error("order must be 0, 1 or 2");
            return f.derivative(t, order);
          },
          py::arg("t"), py::arg("order") = 1,
          "d^order f/dt^order at t [s] (units per s^order); ramps and tables are piecewise\n"
          "linear: order 2 is 0")
      .def_property_readonly(
          "kind", [](const TimeFunction& f) { return kindName(f.kind); },
          "'constant', 'ramp', 'sine' or 'table'")
      .def(
          "to_dict",
          [](const TimeFunction& f) {
            return py::module_::import("json").attr("loads")(serializeTimeFunction(f));
          },
          "the dict a model file stores")
      .def(py::self == py::self)
      .def("__repr__", [](const TimeFunction& f) {
        return "tendril.TimeFunction(" + serializeTimeFunction(f) + ")";
      });
}

}  // namespace tendril::python
