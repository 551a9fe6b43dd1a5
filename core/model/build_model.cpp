#include <Eigen/Eigenvalues>
#include <cmath>

#include "core/io/json_io.hpp"
#include "core/math/quadrature.hpp"
#include "core/model/model.hpp"
#include "core/model/section.hpp"
#include "core/model/strain_basis.hpp"
#include "core/model/validate.hpp"

namespace tendril {
namespace {

const char* const kStrainNames[6] = {"torsion", "bend_y", "bend_z", "stretch", "shear_y", "shear_z"};

SE3 toSE3(const Placement& placement) {
  SE3 g;
  g.R = rpyToRotation(placement.rpy[0], placement.rpy[1], placement.rpy[2]);
  g.p = Eigen::Vector3d(placement.position.data());
  return g;
}

std::string linkPointer(int link, const std::string& rest) { return "/links/" + std::to_string(link) + "/" + rest; }

// spatial inertia of a rigid body about its link frame origin, [w; v] ordering:
// [[I_c + m c~^T c~, m c~], [-m c~, m I]]
Matrix6d rigidInertia(const RigidBodyDesc& body, int link) {
  Eigen::Matrix3d I_c;
  const auto& i = body.inertia;
  I_c << i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2];
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(I_c);
  const Eigen::Vector3d principal = eigen.eigenvalues();
  const bool positive = principal.minCoeff() > 0.0;
  // principal moments of a physical body satisfy the triangle inequality
  const bool triangle = principal(0) + principal(1) >= principal(2) * (1 - 1e-9) &&
                        principal(0) + principal(2) >= principal(1) * (1 - 1e-9) &&
                        principal(1) + principal(2) >= principal(0) * (1 - 1e-9);
  if (!positive || !triangle) {
    throw ParseError(linkPointer(link, "rigid/inertia"),
                     "not a physical inertia (principal moments must be positive and satisfy the triangle inequality)");
  }
  const Eigen::Vector3d c(body.com.data());
  const Eigen::Matrix3d c_skew = skew(c);
  Matrix6d M;
  M << I_c + body.mass * c_skew.transpose() * c_skew, body.mass * c_skew, -body.mass * c_skew,
      body.mass * Eigen::Matrix3d::Identity();
  return M;
}

class ModelBuilder {
 public:
  explicit ModelBuilder(const RobotDescription& robot) : robot_(robot) {
    model_.description = robot;
    model_.gravity.tail<3>() = Eigen::Vector3d(robot.gravity.data());
  }

  Model build() {
    if (const auto problem = findTopologyProblem(robot_)) throw ParseError(problem->pointer, problem->reason);
    parent_ = parentIndices(robot_);
    model_.links.resize(robot_.links.size());
    for (int i : topologicalOrder(robot_)) addLink(i);
    for (std::size_t i = 0; i < robot_.links.size(); ++i) {
      if (parent_[i] >= 0) model_.links[parent_[i]].is_leaf = false;
    }
    model_.nv = model_.nq;
    assembleStiffnessAndDamping();
    return std::move(model_);
  }

 private:
  void addLink(int i) {
    const LinkDesc& link = robot_.links[i];
    LinkInfo& info = model_.links[i];
    info.name = link.name;
    info.kind = link.kind;
    info.idx_q = model_.nq;

    VirtualJoint joint;
    joint.kind = VirtualJointKind::Rigid;
    joint.link = i;
    const int p = parent_[i];
    joint.parent = p < 0 ? -1 : model_.links[p].tip;
    joint.g_fixed = (p < 0 ? SE3::Identity() : model_.links[p].g_tip) * toSE3(link.origin);
    joint.Phi = jointBasis(link.joint);
    joint.nq = static_cast<int>(joint.Phi.cols());
    joint.idx_q = model_.nq;
    for (int k = 0; k < joint.nq; ++k) model_.coordinate_names.push_back(link.name + "/joint/" + std::to_string(k));
    model_.nq += joint.nq;
    if (link.kind == BodyKind::Rigid) {
      joint.has_inertia = true;
      joint.M = rigidInertia(link.rigid, i);
      joint.mass = link.rigid.mass;
      joint.com = Eigen::Vector3d(link.rigid.com.data());
    }
    info.joint = push(std::move(joint));
    info.tip = info.joint;
    info.g_tip = SE3::Identity();
    if (link.kind == BodyKind::Rigid) {
      info.g_tip = toSE3(link.rigid.tip);
    } else {
      addRod(i, info);
    }
    info.nq = model_.nq - info.idx_q;
  }

  void addRod(int i, LinkInfo& info) {
    const SoftBodyDesc& soft = robot_.links[i].soft;
    int previous = info.joint;
    info.first_interval = n();
    for (std::size_t d = 0; d < soft.divisions.size(); ++d) {
      previous = addDivision(i, static_cast<int>(d), soft.divisions[d], soft.magnus_order, previous);
    }
    info.last_interval = n() - 1;
    info.tip = previous;
  }

  // computational points: X = 0, the Gauss points, X = L; one interval joint between each pair
  int addDivision(int link, int d, const DivisionDesc& division, int magnus_order, int previous) {
    const int ndof = strainBasisDof(division.basis);
    const int idx = model_.nq;
    for (int c = 0; c < 6; ++c) {
      for (int k = 0; k <= division.basis.order[c]; ++k) {
        model_.coordinate_names.push_back(robot_.links[link].name + "/div" + std::to_string(d) + "/" + kStrainNames[c] +
                                          "/" + std::to_string(k));
      }
    }
    model_.nq += ndof;

    const double L = division.length;
    const GaussRule gauss = gaussLegendre(division.gauss_points, L);
    std::vector<double> X = {0.0}, w = {0.0};
    for (int k = 0; k < division.gauss_points; ++k) {
      X.push_back(gauss.nodes[k]);
      w.push_back(gauss.weights[k]);
    }
    X.push_back(L);
    w.push_back(0.0);

    const Vector6d xi_star = Eigen::Map<const Vector6d>(division.reference_strain.data());
    Matrix6Xd Phi(6, ndof);
    for (std::size_t a = 0; a + 1 < X.size(); ++a) {
      VirtualJoint joint;
      joint.kind = VirtualJointKind::RodInterval;
      joint.link = link;
      joint.parent = previous;
      joint.idx_q = idx;
      joint.nq = ndof;
      joint.magnus_order = magnus_order;
      joint.h = X[a + 1] - X[a];
      joint.xi_star = xi_star;
      joint.Phi_z1.resize(6, ndof);
      joint.Phi_z2.resize(6, ndof);
      if (magnus_order == 4) {
        const auto [z1, z2] = zannaPoints(X[a], joint.h);
        evalStrainBasis(division.basis, z1 / L, joint.Phi_z1);
        evalStrainBasis(division.basis, z2 / L, joint.Phi_z2);
      } else {
        evalStrainBasis(division.basis, (X[a] + 0.5 * joint.h) / L, joint.Phi_z1);
        joint.Phi_z2.setZero();
      }
      const double s = X[a + 1] / L;
      const SectionProperties section = sectionProperties(division.section, s);
      joint.radius = section.radius;
      if (w[a + 1] > 0.0) {
        joint.has_inertia = true;
        joint.M = w[a + 1] * division.material.density * section.inertiaDiagonal().asDiagonal();
        joint.mass = w[a + 1] * division.material.density * section.area;
        evalStrainBasis(division.basis, s, Phi);
        stiffness_terms_.push_back({idx, ndof, w[a + 1], Phi, section, division.material});
      }
      previous = push(std::move(joint));
    }
    return previous;
  }

  void assembleStiffnessAndDamping() {
    model_.K = Eigen::MatrixXd::Zero(model_.nq, model_.nq);
    model_.D = Eigen::MatrixXd::Zero(model_.nq, model_.nq);
    for (const StiffnessTerm& t : stiffness_terms_) {
      const Vector6d stiffness = t.section.stiffnessDiagonal(t.material);
      const Vector6d damping = t.section.dampingDiagonal(t.material);
      model_.K.block(t.idx, t.idx, t.n, t.n) += t.w * t.Phi.transpose() * stiffness.asDiagonal() * t.Phi;
      model_.D.block(t.idx, t.idx, t.n, t.n) += t.w * t.Phi.transpose() * damping.asDiagonal() * t.Phi;
    }
  }

  int push(VirtualJoint&& joint) {
    model_.joints.push_back(std::move(joint));
    return n() - 1;
  }
  int n() const { return static_cast<int>(model_.joints.size()); }

  struct StiffnessTerm {
    int idx, n;
    double w;
    Matrix6Xd Phi;
    SectionProperties section;
    MaterialDesc material;
  };

  const RobotDescription& robot_;
  Model model_;
  std::vector<int> parent_;
  std::vector<StiffnessTerm> stiffness_terms_;
};

}  // namespace

int jointDof(JointType type) {
  switch (type) {
    case JointType::Fixed: return 0;
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Helical: return 1;
    case JointType::Cylindrical:
    case JointType::Universal: return 2;
    case JointType::Planar:
    case JointType::Spherical: return 3;
    case JointType::Free: return 6;
  }
  return 0;
}

Matrix6Xd jointBasis(const JointDesc& joint) {
  const Eigen::Vector3d axis = Eigen::Vector3d(joint.axis.data()).normalized();
  Matrix6Xd Phi = Matrix6Xd::Zero(6, jointDof(joint.type));
  switch (joint.type) {
    case JointType::Fixed: break;
    case JointType::Revolute: Phi.col(0).head<3>() = axis; break;
    case JointType::Prismatic: Phi.col(0).tail<3>() = axis; break;
    case JointType::Helical:
      Phi.col(0).head<3>() = axis;
      Phi.col(0).tail<3>() = joint.pitch * axis;
      break;
    case JointType::Cylindrical:
      Phi.col(0).head<3>() = axis;
      Phi.col(1).tail<3>() = axis;
      break;
    case JointType::Universal:  // rotations about the joint frame's y and z (SoRoSim)
      Phi(1, 0) = 1.0;
      Phi(2, 1) = 1.0;
      break;
    case JointType::Planar:  // rotation about z, translations along x and y
      Phi(2, 0) = 1.0;
      Phi(3, 1) = 1.0;
      Phi(4, 2) = 1.0;
      break;
    case JointType::Spherical: Phi.topRows<3>().setIdentity(); break;
    case JointType::Free: Phi.setIdentity(); break;
  }
  return Phi;
}

Model buildModel(const RobotDescription& robot) { return ModelBuilder(robot).build(); }

}  // namespace tendril
