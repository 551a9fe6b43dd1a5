// Models: loading, validating and saving descriptions (dicts in the JSON's shape), the compiled
// Model, Data, and ModelError.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "core/io/json_io.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

// the Python class of ModelError, created once when the module is imported
py::handle model_error;

void raiseModelError(const ParseError& e) {
  const std::string what = e.what();
  const std::string prefix = (e.pointer().empty() ? std::string("/") : e.pointer()) + ": ";
  const std::string reason =
      what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what;
  py::object error = py::reinterpret_borrow<py::object>(model_error)(what);
  error.attr("pointer") = e.pointer();
  error.attr("reason") = reason;
  PyErr_SetObject(model_error.ptr(), error.ptr());
}

// a description given as a dict (the JSON's shape) or as JSON text, parsed by the C++ reader so
// that every validation of a model file applies
RobotDescription parseSource(const py::object& source) {
  if (py::isinstance<py::str>(source)) return parseRobot(source.cast<std::string>());
  if (!py::isinstance<py::dict>(source))
    throw py::type_error("expected a dict (the model's JSON as Python objects) or JSON text");
  const py::object dumps = py::module_::import("json").attr("dumps");
  return parseRobot(dumps(source).cast<std::string>());
}

py::object toDict(const RobotDescription& robot) {
  return py::module_::import("json").attr("loads")(serializeRobot(robot));
}

std::shared_ptr<Model> compile(const RobotDescription& robot) {
  return std::make_shared<Model>(buildModel(robot));
}

std::vector<std::string> linkNames(const Model& model, bool leaves_only) {
  std::vector<std::string> names;
  for (const LinkInfo& link : model.links) {
    if (!leaves_only || link.is_leaf) names.push_back(link.name);
  }
  return names;
}

void bindModelClass(py::module_& m) {
  py::class_<Model, std::shared_ptr<Model>>(
      m, "Model",
      "A compiled robot (immutable; share it between threads). Build one with tendril.load(path)\n"
      "or tendril.build(description).")
      .def_static(
          "from_dict", [](const py::dict& d) { return compile(parseSource(d)); }, py::arg("d"),
          "Compiles a description dict (the JSON's shape, SI units). Raises ModelError.")
      .def_static(
          "from_json", [](const std::string& text) { return compile(parseRobot(text)); },
          py::arg("text"), "Compiles a description from JSON text. Raises ModelError.")
      .def_readonly("nq", &Model::nq, "number of generalised coordinates")
      .def_readonly("nv", &Model::nv, "number of generalised velocities (equal to nq)")
      .def_readonly("n_constraints", &Model::n_constraints, "rows of the closed-chain constraints")
      .def_property_readonly(
          "name", [](const Model& model) { return model.description.name; }, "the model's name")
      .def_readonly("coordinate_names", &Model::coordinate_names,
                    "one label per coordinate, e.g. 'link1/joint/0', 'rod/div0/bend_y/2'")
      .def_property_readonly(
          "link_names", [](const Model& model) { return linkNames(model, false); },
          "links in description order")
      .def_property_readonly(
          "leaf_links", [](const Model& model) { return linkNames(model, true); },
          "links without children (their tips are the table's tip columns)")
      .def_property_readonly(
          "gravity", [](const Model& model) { return Eigen::Vector3d(model.gravity.tail<3>()); },
          "gravitational acceleration in world [m/s^2] (a copy)")
      .def_property_readonly(
          "stiffness", [](const Model& model) { return model.K; },
          "generalised stiffness K (nq x nq; N m/rad, N/m or per unit strain; a copy)")
      .def_property_readonly(
          "damping", [](const Model& model) { return model.D; },
          "generalised damping D (nq x nq; K's units times s; a copy)")
      .def_property_readonly(
          "cables",
          [](const Model& model) {
            py::dict cables;
            for (const CompiledCable& cable : model.cables)
              cables[py::str(cable.name)] = cable.tension;
            return cables;
          },
          "{cable name: tension TimeFunction [N]}")
      .def_property_readonly(
          "joint_inputs",
          [](const Model& model) {
            py::list inputs;
            for (const CompiledJointInput& input : model.joint_inputs) {
              inputs.append(py::make_tuple(model.coordinate_names[input.coordinate], input.value));
            }
            return inputs;
          },
          "[(coordinate name, force TimeFunction [N or N m])] of the force-mode joint inputs")
      .def_property_readonly(
          "description", [](const Model& model) { return toDict(model.description); },
          "the description it was built from, as a dict in the JSON's shape (a copy: edit it and\n"
          "build a new Model)")
      .def(
          "to_json", [](const Model& model) { return serializeRobot(model.description); },
          "the description as JSON text, as tendril.save writes it")
      .def("__repr__", [](const Model& model) {
        return "<tendril.Model '" + model.description.name + "' nq=" + std::to_string(model.nq) +
               ", " + std::to_string(model.links.size()) + " links>";
      });
}

void bindDataClass(py::module_& m) {
  py::class_<DataHandle, std::shared_ptr<DataHandle>>(
      m, "Data",
      "The workspace of one Model, allocated once. Pass it as data= to the algorithms to avoid\n"
      "allocating one per call. One Data per thread: a Data used by two threads at once raises\n"
      "RuntimeError.")
      .def(py::init([](const std::shared_ptr<Model>& model) {
             return std::make_shared<DataHandle>(model);
           }),
           py::arg("model"))
      .def_property_readonly(
          "model", [](const DataHandle& h) { return std::const_pointer_cast<Model>(h.model); },
          "the Model it was sized for");
}

void bindFunctions(py::module_& m) {
  m.def(
      "load", [](const std::filesystem::path& path) { return compile(loadRobot(path)); },
      py::arg("path"), "Loads and compiles a model file (JSON, SI units). Raises ModelError.");
  m.def(
      "build", [](const py::object& d) { return compile(parseSource(d)); }, py::arg("description"),
      "Compiles a description: a dict in the JSON's shape (as load_description returns) or JSON\n"
      "text. The same parser and checks as a model file. Raises ModelError.");
  m.def(
      "load_description", [](const std::filesystem::path& path) { return toDict(loadRobot(path)); },
      py::arg("path"),
      "Reads a model file into a dict in the JSON's shape, validated and normalised (defaults\n"
      "written out, the current schema_version), ready to edit and pass to build() or save().\n"
      "Raises ModelError.");
  m.def(
      "validate",
      [](const py::object& source) {
        const RobotDescription robot =
            py::isinstance<py::dict>(source) || py::isinstance<py::str>(source)
                ? parseSource(source)
                : loadRobot(source.cast<std::filesystem::path>());
        buildModel(robot);
      },
      py::arg("source"),
      "Checks a description (dict or JSON text) or a model file (pathlib.Path) as load() does;\n"
      "returns None or raises ModelError naming the JSON pointer of the first invalid value.");
  m.def(
      "save",
      [](const py::object& source, const std::filesystem::path& path) {
        const RobotDescription robot = py::isinstance<Model>(source)
                                           ? source.cast<const Model&>().description
                                           : parseSource(source);
        py::gil_scoped_release release;
        saveRobot(robot, path);
      },
      py::arg("description"), py::arg("path"),
      "Writes a description (dict, JSON text or Model) to a model file atomically (a temporary\n"
      "sibling renamed over the target). The dict is validated first (ModelError); a file that\n"
      "cannot be written raises RuntimeError and leaves the old file untouched.");
}

}  // namespace

void bindModel(py::module_& m) {
  model_error = PyErr_NewExceptionWithDoc(
      "tendril.ModelError",
      "An invalid or unreadable model. Attributes: pointer (the JSON pointer of the offending\n"
      "value, '' for the whole file) and reason (what is wrong with it).",
      PyExc_ValueError, nullptr);
  m.attr("ModelError") = model_error;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ParseError& e) {
      raiseModelError(e);
    }
  });
  bindModelClass(m);
  bindDataClass(m);
  bindFunctions(m);
}

Workspace::Workspace(const ModelPtr& model, const std::shared_ptr<DataHandle>& given)
    : handle_(given) {
  if (!handle_) {
    handle_ = std::make_shared<DataHandle>(model);
  } else if (handle_->model != model) {
    throw py::value_error("data belongs to another Model: make one with tendril.Data(model)");
  }
  lock_ = std::unique_lock<std::mutex>(handle_->in_use, std::try_to_lock);
  if (!lock_.owns_lock())
    throw std::runtime_error("this Data is in use by another thread: make one Data per thread");
}

void checkSize(const ConstVector& x, Eigen::Index n, const char* name, const char* dimension) {
  if (x.size() != n) {
    throw py::value_error(std::string(name) + " has " + std::to_string(x.size()) +
                          " entries, the model has " + dimension + " = " + std::to_string(n));
  }
}

int linkIndex(const Model& model, const py::object& link) {
  const int n = static_cast<int>(model.links.size());
  if (py::isinstance<py::int_>(link)) {
    const int i = link.cast<int>();
    if (i < 0 || i >= n)
      throw py::value_error("link index " + std::to_string(i) + " out of range [0, " +
                            std::to_string(n) + ")");
    return i;
  }
  const std::string name = link.cast<std::string>();
  std::string known;
  for (int i = 0; i < n; ++i) {
    if (model.links[i].name == name) return i;
    known += (i ? ", " : "") + model.links[i].name;
  }
  throw py::value_error("no link '" + name + "' (links: " + known + ")");
}

}  // namespace tendril::python
