#pragma once
// Forward kinematics of the hybrid linkage (docs/theory/gvs.md §5 (2a-2c)).

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Z, T and S of every virtual joint at the Omega and Zanna strains already in data (as
///        inverseDynamicsWithoutSubspaces() or posesAndTwists() left them), without the
///        exponentials.
void localSubspaces(const Model& model, Data& data);

/// \brief Poses and motion subspaces of every virtual joint.
/// \param[in]     q generalised coordinates (dim model.nq)
/// \param[in,out] data fills the position stage: Omega, g_local, g, Z, T, S
void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief Poses, motion subspaces, twists and S-dot v.
/// \param[in] v generalised velocities (dim model.nv)
/// \param[in,out] data fills the position and velocity stages (adds eta, S_dot_v)
void forwardKinematics(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief Poses (Omega, g_local, g_pc, g) and twists (eta) only, from vector operations: neither
///        Z, T, S nor S-dot is formed, and those members are left as they were (stale). For what
///        needs no more than positions and velocities: energies, drawing.
void posesAndTwists(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief Geometric Jacobian of child frame j, in its axes: eta_j = J v (docs/theory/gvs.md (2b)).
///        Only the columns of j's ancestors are non-zero. \pre forwardKinematics(model, data, q)
///        ran.
/// \param[out] J 6 x nv, overwritten
void frameJacobian(const Model& model, const Data& data, int j, Eigen::Ref<Eigen::MatrixXd> J);

/// \brief exp(q [a; v]) of a single-screw joint, for a unit (or zero) axis a and v parallel to
///        a: Rodrigues, and p = q v.
SE3 singleScrewExp(const Vector6d& screw, double q);

/// \brief singleScrewExp() with sin q and cos q given.
SE3 singleScrewExp(const Vector6d& screw, double q, double sin_q, double cos_q);

/// \brief The angle of every rotating single screw (Model::screw_angle_coordinates), its sine and
///        its cosine, into data.screw_angle, screw_sin and screw_cos: one vectorised batch
///        (core/math/sin_cos.hpp) instead of a libm call per joint. The pose passes start with it.
void screwAngles(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief exp(screw q) of single-screw joint j, its sine and cosine taken from data
///        (screwAngles() ran for this q).
SE3 singleScrewExp(const VirtualJoint& joint, const Data& data, double q);

/// \brief Phi q_j for a rod basis at one collocation point (Phi_z1 or Phi_z2 of the joint), through
///        its single-entry columns: mode k lives in row joint.basis_rows[k].
Vector6d basisTimes(const VirtualJoint& joint, const Matrix6Xd& Phi,
                    const Eigen::Ref<const Eigen::VectorXd>& q_j);

/// \brief S-dot v_j of joint j (data.S_dot_v), a vector: the dynamics never need the matrix
///        S-dot, only the derivatives do. \pre the position stage of data is current.
void jointVelocityStage(const VirtualJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& v_j,
                        Data& data, int j);

/// \brief Twist of child frame j from its parent's twist (data.eta) and v_j (2b).
Vector6d childTwist(const VirtualJoint& joint, const Data& data, int j,
                    const Eigen::Ref<const Eigen::VectorXd>& v_j);

/// \brief A twist (or acceleration) of joint j's parent frame carried to j's base frame:
///        Ad^-1_{g_fixed} applied to of_frames[parent], or to at_world for a root joint.
Vector6d baseTwist(const VirtualJoint& joint, const std::vector<Vector6d>& of_frames,
                   const Vector6d& at_world = Vector6d::Zero());

/// \brief Pose of a link's tip frame in world. \pre forwardKinematics(model, data, q) ran.
SE3 linkTipPose(const Model& model, const Data& data, int link);

/// \brief Pose in world of the frame at the base of virtual joint j (after its fixed placement).
SE3 jointBasePose(const Model& model, const Data& data, int j);

}  // namespace tendril
