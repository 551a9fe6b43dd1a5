#pragma once
// Forward kinematics of the hybrid linkage (theory-gvs.md section 2.5, recursion 2a-2c).

#include <Eigen/Core>

#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Poses and motion subspaces of every virtual joint.
/// \param[in]     q generalised coordinates (dim model.nq)
/// \param[in,out] data fills the position stage: Omega, g_local, g, Z, T, S
void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief Poses, motion subspaces, twists and S-dot.
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in,out] data fills the position and velocity stages (adds eta, S_dot)
void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief Geometric Jacobian of child frame j, expressed in it: eta_j = J v (theory-gvs.md (2b)).
///        Only the columns of j's ancestors are non-zero. \pre forwardKinematics(model, data, q) ran.
/// \param[out] J 6 x nv, overwritten
void frameJacobian(const Model& model, const Data& data, int j, Eigen::Ref<Eigen::MatrixXd> J);

/// \brief Pose of a link's tip frame in world. \pre forwardKinematics(model, data, q) ran.
SE3 linkTipPose(const Model& model, const Data& data, int link);

/// \brief Pose in world of the frame at the base of virtual joint j (after its fixed placement).
SE3 jointBasePose(const Model& model, const Data& data, int j);

}  // namespace tendril
