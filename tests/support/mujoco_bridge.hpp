#pragma once
// Test-only MuJoCo twin of a rigid Tendril model: the same tree as MJCF, loaded into MuJoCo, and
// the exact map between our coordinates and MuJoCo's. Never linked into tendril_core or the apps.
//
// Supported joints: revolute (hinge), prismatic (slide), cylindrical (hinge + slide on one axis;
// the two commute, so this is exact), fixed (no joint), spherical (ball) and free (top-level links
// only, a MuJoCo restriction). Soft links and the other joint types are rejected.
//
// Coordinates. Ours: q_j are exponential coordinates of the joint motion, exp(hat(Phi q_j)), and
// v = q-dot, a = q-ddot. MuJoCo: hinge/slide as ours; ball qpos = quaternion of the relative
// rotation, qvel = angular velocity in the child body frame; free qpos = world position and
// quaternion of the body, qvel = [linear velocity of the body origin in world; angular velocity in
// the body frame]. toMujoco() maps a second-order jet (q, v, a) exactly (forward-mode automatic
// differentiation of the textbook exp formulas, independent of core/math/lie.cpp); velocityMap()
// is d qvel / d v. Power balance gives tau = J^T qfrc and kinetic energy M = J^T M_mj J.

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/model/description.hpp"
#include "core/model/model.hpp"

namespace tendril::test {

/// \brief MJCF text of a rigid description: bodies nested as the tree, body frame = link frame,
///        contacts, constraints and passive forces disabled. \throw std::invalid_argument for a
///        soft link or an unsupported joint.
std::string toMjcf(const RobotDescription& robot);

/// \brief A MuJoCo state in MuJoCo's own ordering.
struct MujocoState {
  Eigen::VectorXd qpos;  ///< dim nq of MuJoCo
  Eigen::VectorXd qvel;  ///< dim nv of MuJoCo
  Eigen::VectorXd qacc;  ///< dim nv of MuJoCo
};

class MujocoTwin {
 public:
  /// \brief Compiles model.description with MuJoCo. \throw std::runtime_error with MuJoCo's message
  explicit MujocoTwin(const Model& model);
  /// \brief Loads \p file (MJCF or URDF) with mj_loadXML instead, matching our links to its bodies
  ///        by name (bodies without dofs may be left over, e.g. a URDF's massless links); then
  ///        turns off what the MJCF of toMjcf() turns off: contacts, constraints, limits, passive
  ///        forces, and joint damping, armature and friction loss.
  ///        \throw std::runtime_error with MuJoCo's message
  MujocoTwin(const Model& model, const std::string& file);
  ~MujocoTwin();
  MujocoTwin(const MujocoTwin&) = delete;
  MujocoTwin& operator=(const MujocoTwin&) = delete;

  const mjModel* model() const { return m_; }
  mjData* data() { return d_; }
  const std::string& mjcf() const { return mjcf_; }
  int nv() const { return m_->nv; }

  /// \brief Exact image of the trajectory through (q, v, a) in MuJoCo coordinates.
  /// \param[in] q, v, a our coordinates, velocities, accelerations (dim model.nv each)
  MujocoState toMujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       const Eigen::VectorXd& a) const;

  /// \brief J = d qvel / d v at q (MuJoCo nv x our nv); a permutation for hinge/slide-only trees.
  Eigen::MatrixXd velocityMap(const Eigen::VectorXd& q) const;

  /// \brief mj_inverse: qfrc_inverse (MuJoCo nv). \throw std::runtime_error on a MuJoCo warning
  Eigen::VectorXd inverseDynamics(const MujocoState& x);

  /// \brief mj_kinematics, mj_comPos, mj_crb, then mj_fullM (MuJoCo nv x nv).
  Eigen::MatrixXd massMatrix(const Eigen::VectorXd& qpos);

  /// \brief mj_forward with qfrc_applied: qacc (MuJoCo nv). \throw std::runtime_error on a warning
  Eigen::VectorXd forwardDynamics(const Eigen::VectorXd& qpos, const Eigen::VectorXd& qvel,
                                  const Eigen::VectorXd& qfrc_applied);

  /// \brief Writes qpos and qvel into data() (for benchmarks driving MuJoCo directly).
  void setState(const MujocoState& x);

 private:
  // where one link's coordinates land in MuJoCo
  struct LinkMap {
    JointType type = JointType::Fixed;
    int idx_q = 0;        ///< first of our coordinates
    int qposadr = 0;      ///< first MuJoCo qpos
    int dofadr = 0;       ///< first MuJoCo dof
    Eigen::Matrix3d R_B;  ///< free joint: joint base frame in world
    Eigen::Vector3d p_B;
  };

  void checkWarnings(const char* call);
  void mapCoordinates(const Model& model);

  std::string mjcf_;
  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  int nv_ours_ = 0;
  std::vector<LinkMap> links_;
};

}  // namespace tendril::test
