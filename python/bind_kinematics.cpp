// Kinematics: link tip poses and Jacobians.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "core/algorithm/kinematics.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

using DataArg = std::shared_ptr<DataHandle>;
using ModelArg = std::shared_ptr<Model>;

Eigen::Matrix4d tipPose(const ModelArg& model, const ConstVector& q, const py::object& link,
                        const DataArg& given) {
  const int index = linkIndex(*model, link);
  checkSize(q, model->nq, "q", "nq");
  Workspace work(model, given);
  forwardKinematics(*model, work.data(), q);
  return linkTipPose(*model, work.data(), index).matrix();
}

py::dict tipPoses(const ModelArg& model, const ConstVector& q, const DataArg& given) {
  checkSize(q, model->nq, "q", "nq");
  Workspace work(model, given);
  forwardKinematics(*model, work.data(), q);
  py::dict poses;
  for (int i = 0; i < static_cast<int>(model->links.size()); ++i) {
    const Eigen::Matrix4d pose = linkTipPose(*model, work.data(), i).matrix();
    poses[py::str(model->links[i].name)] = pose;
  }
  return poses;
}

// the tip frame sits at g_tip in the child frame of joint `tip`: its body Jacobian is that
// frame's, carried over by Ad(g_tip)^-1
Eigen::MatrixXd tipJacobian(const ModelArg& model, const ConstVector& q, const py::object& link,
                            const DataArg& given) {
  const LinkInfo& info = model->links[linkIndex(*model, link)];
  checkSize(q, model->nq, "q", "nq");
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, model->nv);
  if (info.tip < 0) return J;
  Workspace work(model, given);
  forwardKinematics(*model, work.data(), q);
  frameJacobian(*model, work.data(), info.tip, J);
  return AdInv(info.g_tip) * J;
}

}  // namespace

void bindKinematics(py::module_& m) {
  m.def("link_tip_pose", &tipPose, py::arg("model"), py::arg("q"), py::arg("link"), py::kw_only(),
        py::arg("data") = py::none(),
        "Pose of a link's tip frame in world at coordinates q (nq; rad, m or strain).\n"
        "link: name or index. Returns a new 4 x 4 homogeneous matrix [[R, p], [0, 1]], p in m.");
  m.def(
      "link_tip_poses", &tipPoses, py::arg("model"), py::arg("q"), py::kw_only(),
      py::arg("data") = py::none(),
      "Tip poses of every link at q (one forward kinematics): {link name: 4 x 4 matrix, p in m}.");
  m.def("link_tip_jacobian", &tipJacobian, py::arg("model"), py::arg("q"), py::arg("link"),
        py::kw_only(), py::arg("data") = py::none(),
        "Body Jacobian of a link's tip frame at q: the tip's twist expressed in the tip frame,\n"
        "angular first, eta = [omega (rad/s); v (m/s)] = J qdot. Returns a new 6 x nv matrix.");
}

}  // namespace tendril::python
