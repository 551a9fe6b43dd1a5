#include "core/algorithm/external_loads.hpp"

namespace tendril {

Vector6d pointLoadWrench(const CompiledPointLoad& load, const Data& data, double t) {
  Vector6d wrench = load.scale(t) * load.wrench;
  if (load.frame == LoadFrame::Global) {
    // world axes to the local axes of the frame; the moment is about the application point
    const Eigen::Matrix3d R_T = data.g[load.joint].R.transpose();
    wrench.head<3>() = R_T * wrench.head<3>().eval();
    wrench.tail<3>() = R_T * wrench.tail<3>().eval();
  }
  wrench.head<3>() += load.offset.cross(wrench.tail<3>());
  return wrench;
}

void subtractExternalWrenches(const Model& model, Data& data, double t) {
  for (const CompiledPointLoad& load : model.point_loads)
    data.F[load.joint] -= pointLoadWrench(load, data, t);
}

void externalWrenchSensitivities(const Model& model, Data& data, double t) {
  data.load_sensitivities.clear();
  for (const CompiledPointLoad& load : model.point_loads) {
    if (load.frame != LoadFrame::Global) continue;  // a follower load moves with its frame
    // F_local = R^T F_world: a rotation dtheta of the frame changes R^T x by (R^T x) x dtheta
    // (theory-gvs.md (54) corrected: -adbar*_F I_theta = ad_F I_theta)
    const double s = load.scale(t);
    const Eigen::Matrix3d R_T = data.g[load.joint].R.transpose();
    const Eigen::Vector3d m = s * (R_T * load.wrench.head<3>());
    const Eigen::Vector3d f = s * (R_T * load.wrench.tail<3>());
    WrenchSensitivity entry;
    entry.joint = load.joint;
    entry.d_pose.topLeftCorner<3, 3>() = skew(m) + skew(load.offset) * skew(f);
    entry.d_pose.bottomLeftCorner<3, 3>() = skew(f);
    data.load_sensitivities.push_back(entry);
  }
}

}  // namespace tendril
