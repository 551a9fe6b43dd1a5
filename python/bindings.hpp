#pragma once
// Shared pieces of the `tendril` Python module (python/): the Model and Data handles, argument
// checks, and one registration function per topic file.

#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <memory>
#include <mutex>
#include <string>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril::python {

namespace py = pybind11;

using ConstVector = Eigen::Ref<const Eigen::VectorXd>;

/// \brief A Data and the model it was sized for. The mutex makes concurrent use of one Data from
///        two Python threads (the GIL is released during the computations) an error, not a race.
struct DataHandle {
  explicit DataHandle(ModelPtr m) : model(std::move(m)), data(*model) {}
  ModelPtr model;
  Data data;
  std::mutex in_use;
};

/// \brief The Data an algorithm runs in: the caller's (locked for the call; ValueError when it
///        belongs to another model, RuntimeError when another thread is using it), or a fresh
///        one.
class Workspace {
 public:
  Workspace(const ModelPtr& model, const std::shared_ptr<DataHandle>& given);
  Data& data() { return handle_->data; }

 private:
  std::shared_ptr<DataHandle> handle_;
  std::unique_lock<std::mutex> lock_;
};

/// \brief ValueError unless x has n entries ("q has 3 entries, the model has nq = 4").
void checkSize(const ConstVector& x, Eigen::Index n, const char* name, const char* dimension);

/// \brief A link by name or index. \throw ValueError naming the known links
int linkIndex(const Model& model, const py::object& link);

void bindModel(py::module_& m);
void bindTimeFunction(py::module_& m);
void bindKinematics(py::module_& m);
void bindDynamics(py::module_& m);
void bindStatics(py::module_& m);
void bindInverseStatics(py::module_& m);
void bindSimulation(py::module_& m);
void bindSweep(py::module_& m);

}  // namespace tendril::python
