// The extension of the `tendril` Python package (python/tendril/__init__.py re-exports it):
// Tendril's engine from Python with numpy arrays in and out.

#include "python/bindings.hpp"
#include "tendril_version.hpp"

PYBIND11_MODULE(_tendril, m) {
  namespace python = tendril::python;
  m.doc() =
      "Tendril: hybrid soft-rigid robots (GVS rods, constant-curvature segments, rigid joints).\n"
      "SI units throughout. Load a model with tendril.load(path), then call the algorithms with\n"
      "numpy float64 arrays (read without copies when contiguous); results are new arrays.";
  m.attr("__version__") = TENDRIL_VERSION;
  python::bindModel(m);
  python::bindTimeFunction(m);
  python::bindKinematics(m);
  python::bindDynamics(m);
  python::bindStatics(m);
  python::bindInverseStatics(m);
  python::bindSimulation(m);
  python::bindSweep(m);
}
