#include "tests/support/mujoco_bridge.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace tendril::test {
namespace {

//-------------------- geometry of the description, computed here independently of core/

Eigen::Isometry3d toIsometry(const Placement& placement) {
  const auto& rpy = placement.rpy;
  Eigen::Isometry3d g = Eigen::Isometry3d::Identity();
  // R = Rz(yaw) Ry(pitch) Rx(roll)
  g.linear() = (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *
                Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
                Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  g.translation() = Eigen::Vector3d(placement.position.data());
  return g;
}

// body placement in its parent body: the parent's tip, then the link's origin
Eigen::Isometry3d bodyPlacement(const RobotDescription& robot, const LinkDesc& link) {
  if (link.parent == "world") {
    return toIsometry(link.origin);
  }
  for (const LinkDesc& parent : robot.links) {
    if (parent.name == link.parent) {
      return toIsometry(parent.rigid().tip) * toIsometry(link.origin);
    }
  }
  throw std::invalid_argument("link '" + link.name + "' has an unknown parent '" + link.parent +
                              "'");
}

//-------------------- MJCF writing

std::string escapeXml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

template <typename Range>
std::string numbers(const Range& values) {
  std::ostringstream out;
  out << std::setprecision(17);
  bool first = true;
  for (double x : values) {
    out << (first ? "" : " ") << x;
    first = false;
  }
  return out.str();
}

class MjcfWriter {
 public:
  explicit MjcfWriter(const RobotDescription& robot) : robot_(robot) {
    for (std::size_t i = 0; i < robot.links.size(); ++i) {
      children_[robot.links[i].parent].push_back(static_cast<int>(i));
    }
  }

  std::string write() {
    out_ << std::setprecision(17);
    out_ << "<mujoco model=\"" << escapeXml(robot_.name) << "\">\n";
    // inertias exactly as given: no geom-derived inertia, no bounds, no rebalancing, no fusing
    out_ << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" "
            "boundinertia=\"0\" balanceinertia=\"false\" fusestatic=\"false\"/>\n";
    // only the multibody dynamics: no contacts, constraints, limits or passive forces
    out_ << "  <option gravity=\"" << numbers(robot_.gravity) << "\">\n"
         << "    <flag contact=\"disable\" constraint=\"disable\" equality=\"disable\" "
            "limit=\"disable\" frictionloss=\"disable\" passive=\"disable\" "
            "actuation=\"disable\"/>\n"
         << "  </option>\n";
    out_ << "  <worldbody>\n";
    writeChildren("world", 2);
    out_ << "  </worldbody>\n</mujoco>\n";
    return out_.str();
  }

 private:
  void writeChildren(const std::string& parent, int depth) {
    const auto found = children_.find(parent);
    if (found == children_.end()) {
      return;
    }
    for (int i : found->second) {
      writeBody(robot_.links[i], depth);
    }
  }

  void writeBody(const LinkDesc& link, int depth) {
    if (link.kind() != BodyKind::Rigid) {
      throw std::invalid_argument("link '" + link.name + "' is soft: MuJoCo has no Cosserat rods");
    }
    const std::string pad(2 * depth, ' ');
    const std::string name = escapeXml(link.name);
    const Eigen::Isometry3d placement = bodyPlacement(robot_, link);
    const Eigen::Quaterniond quat(placement.linear());
    out_ << pad << "<body name=\"" << name << "\" pos=\""
         << numbers(Eigen::Vector3d(placement.translation())) << "\" quat=\""
         << numbers(std::array<double, 4>{quat.w(), quat.x(), quat.y(), quat.z()}) << "\">\n";
    const std::string axis = numbers(link.joint.axis);
    const std::string zero = "pos=\"0 0 0\" armature=\"0\" damping=\"0\" stiffness=\"0\"";
    switch (link.joint.type) {
      case JointType::Fixed:
        break;
      case JointType::Revolute:
        out_ << pad << "  <joint name=\"" << name << "\" type=\"hinge\" axis=\"" << axis << "\" "
             << zero << "/>\n";
        break;
      case JointType::Prismatic:
        out_ << pad << "  <joint name=\"" << name << "\" type=\"slide\" axis=\"" << axis << "\" "
             << zero << "/>\n";
        break;
      case JointType::Cylindrical:  // rotation and translation along one axis commute
        out_ << pad << "  <joint name=\"" << name << "/0\" type=\"hinge\" axis=\"" << axis << "\" "
             << zero << "/>\n";
        out_ << pad << "  <joint name=\"" << name << "/1\" type=\"slide\" axis=\"" << axis << "\" "
             << zero << "/>\n";
        break;
      case JointType::Spherical:
        out_ << pad << "  <joint name=\"" << name << "\" type=\"ball\" " << zero << "/>\n";
        break;
      case JointType::Free:
        if (link.parent != "world") {
          throw std::invalid_argument("link '" + link.name +
                                      "': MuJoCo allows free joints only on top-level bodies");
        }
        out_ << pad << "  <joint name=\"" << name << "\" type=\"free\" " << zero << "/>\n";
        break;
      default:
        throw std::invalid_argument("link '" + link.name +
                                    "': joint type without an exact MuJoCo equivalent");
    }
    // principal axes computed here: MuJoCo 2.2's own diagonalisation of fullinertia is only
    // accurate to ~1e-8 relative, which would swamp a 1e-9 comparison
    const RigidBodyDesc& body = link.rigid();
    const auto& i = body.inertia;
    Eigen::Matrix3d I_c;
    I_c << i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2];
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> principal(I_c);
    Eigen::Matrix3d axes = principal.eigenvectors();
    if (axes.determinant() < 0.0) {
      axes.col(2) = -axes.col(2);
    }
    const Eigen::Quaterniond iquat(axes);
    out_ << pad << "  <inertial pos=\"" << numbers(body.com) << "\" mass=\"" << body.mass
         << "\" quat=\""
         << numbers(std::array<double, 4>{iquat.w(), iquat.x(), iquat.y(), iquat.z()})
         << "\" diaginertia=\"" << numbers(Eigen::Vector3d(principal.eigenvalues())) << "\"/>\n";
    writeChildren(link.name, depth + 1);
    out_ << pad << "</body>\n";
  }

  const RobotDescription& robot_;
  std::map<std::string, std::vector<int>> children_;
  std::ostringstream out_;
};

//-------------------- second-order jets: value, first and second time derivative

struct Jet {
  double v = 0.0, d = 0.0, dd = 0.0;
};

Jet operator+(const Jet& a, const Jet& b) {
  return {a.v + b.v, a.d + b.d, a.dd + b.dd};
}
Jet operator-(const Jet& a, const Jet& b) {
  return {a.v - b.v, a.d - b.d, a.dd - b.dd};
}
Jet operator-(const Jet& a) {
  return {-a.v, -a.d, -a.dd};
}
Jet operator*(const Jet& a, const Jet& b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2.0 * a.d * b.d + a.v * b.dd};
}
Jet reciprocal(const Jet& a) {
  const double r = 1.0 / a.v;
  return {r, -a.d * r * r, (2.0 * a.d * a.d * r - a.dd) * r * r};
}
Jet operator/(const Jet& a, const Jet& b) {
  return a * reciprocal(b);
}
Jet sin(const Jet& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {s, c * a.d, c * a.dd - s * a.d * a.d};
}
Jet cos(const Jet& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {c, -s * a.d, -s * a.dd - c * a.d * a.d};
}
Jet sqrt(const Jet& a) {
  const double s = std::sqrt(a.v);
  return {s, a.d / (2.0 * s), a.dd / (2.0 * s) - a.d * a.d / (4.0 * s * s * s)};
}

using JetVec3 = std::array<Jet, 3>;
using JetMat3 = std::array<JetVec3, 3>;  // row-major

JetMat3 skewJet(const JetVec3& w) {
  JetMat3 K{};
  K[0][1] = -w[2];
  K[0][2] = w[1];
  K[1][0] = w[2];
  K[1][2] = -w[0];
  K[2][0] = -w[1];
  K[2][1] = w[0];
  return K;
}

JetMat3 operator*(const JetMat3& A, const JetMat3& B) {
  JetMat3 C{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) {
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
      }
    }
  }
  return C;
}

JetVec3 operator*(const JetMat3& A, const JetVec3& x) {
  JetVec3 y{};
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) {
      y[i] = y[i] + A[i][k] * x[k];
    }
  }
  return y;
}

// I + a K + b K^2
JetMat3 identityPlus(const Jet& a, const JetMat3& K, const Jet& b, const JetMat3& K2) {
  JetMat3 M{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      M[i][j] = a * K[i][j] + b * K2[i][j];
    }
    M[i][i].v += 1.0;
  }
  return M;
}

// order 0: value, 1: first derivative, 2: second derivative
Eigen::Matrix3d part(const JetMat3& A, int order) {
  Eigen::Matrix3d M;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      M(i, j) = order == 0 ? A[i][j].v : order == 1 ? A[i][j].d : A[i][j].dd;
    }
  }
  return M;
}

Eigen::Vector3d part(const JetVec3& x, int order) {
  Eigen::Vector3d y;
  for (int i = 0; i < 3; ++i) {
    y(i) = order == 0 ? x[i].v : order == 1 ? x[i].d : x[i].dd;
  }
  return y;
}

// axial vector of the skew part
Eigen::Vector3d veeSkew(const Eigen::Matrix3d& X) {
  return 0.5 * Eigen::Vector3d(X(2, 1) - X(1, 2), X(0, 2) - X(2, 0), X(1, 0) - X(0, 1));
}

JetVec3 jetsOf(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& a,
               int start) {
  JetVec3 x;
  for (int i = 0; i < 3; ++i) {
    x[i] = {q(start + i), v(start + i), a(start + i)};
  }
  return x;
}

// exp of the twist [phi; rho] along a jet: R = I + (sin t/t) K + ((1 - cos t)/t^2) K^2,
// p = (I + ((1 - cos t)/t^2) K + ((t - sin t)/t^3) K^2) rho, t = |phi| (Murray, Li, Sastry 2.36)
struct ExpJet {
  JetMat3 R;
  JetVec3 p;
  Jet angle;
};

ExpJet expJet(const JetVec3& phi, const JetVec3& rho) {
  const Jet t = sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
  // the closed forms lose digits near t = 0; the tests draw rotations well away from it
  if (t.v < 1e-2) {
    throw std::domain_error("rotation angle below 1e-2: the closed-form map would lose accuracy");
  }
  const JetMat3 K = skewJet(phi);
  const JetMat3 K2 = K * K;
  const Jet s = sin(t), c = cos(t);
  const Jet t2 = t * t;
  const Jet one{1.0, 0.0, 0.0};
  const Jet A = s / t, B = (one - c) / t2, C = (t - s) / (t2 * t);
  return {identityPlus(A, K, B, K2), identityPlus(B, K, C, K2) * rho, t};
}

// body angular velocity and acceleration: w~ = R^T R', w'~ = R'^T R' + R^T R''
std::pair<Eigen::Vector3d, Eigen::Vector3d> bodyAngularRates(const JetMat3& R) {
  const Eigen::Matrix3d R0 = part(R, 0), R1 = part(R, 1), R2 = part(R, 2);
  return {veeSkew(R0.transpose() * R1), veeSkew(R1.transpose() * R1 + R0.transpose() * R2)};
}

Eigen::Vector4d mujocoQuaternion(const Eigen::Matrix3d& R) {
  const Eigen::Quaterniond quat = Eigen::Quaterniond(R).normalized();
  return {quat.w(), quat.x(), quat.y(), quat.z()};
}

int jointDofCount(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return 0;
    case JointType::Revolute:
    case JointType::Prismatic:
      return 1;
    case JointType::Cylindrical:
      return 2;
    case JointType::Spherical:
      return 3;
    case JointType::Free:
      return 6;
    default:
      return -1;
  }
}

void recordWarning(const char*) {}  // MuJoCo counts warnings in mjData; keep its log file away

}  // namespace

std::string toMjcf(const RobotDescription& robot) {
  return MjcfWriter(robot).write();
}

MujocoTwin::MujocoTwin(const Model& model) : mjcf_(toMjcf(model.description)), nv_ours_(model.nv) {
  mju_user_warning = recordWarning;
  // load from memory through MuJoCo's virtual file system (the struct is ~2 MB: heap)
  const auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* const file = "tendril_twin.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), file, static_cast<int>(mjcf_.size())) != 0) {
    throw std::runtime_error("cannot create the MuJoCo VFS file");
  }
  const int index = mj_findFileVFS(vfs.get(), file);
  std::memcpy(vfs->filedata[index], mjcf_.data(), mjcf_.size());
  std::array<char, 1000> error{};
  m_ = mj_loadXML(file, vfs.get(), error.data(), static_cast<int>(error.size()));
  mj_deleteVFS(vfs.get());
  if (m_ == nullptr) {
    throw std::runtime_error(std::string("MuJoCo rejected the MJCF: ") + error.data() + "\n" +
                             mjcf_);
  }
  d_ = mj_makeData(m_);
  mapCoordinates(model);
}

MujocoTwin::MujocoTwin(const Model& model, const std::string& file) : nv_ours_(model.nv) {
  mju_user_warning = recordWarning;
  std::array<char, 1000> error{};
  m_ = mj_loadXML(file.c_str(), nullptr, error.data(), static_cast<int>(error.size()));
  if (m_ == nullptr) {
    throw std::runtime_error("MuJoCo rejected " + file + ": " + error.data());
  }
  // only the multibody dynamics, as in toMjcf()
  m_->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_EQUALITY | mjDSBL_FRICTIONLOSS | mjDSBL_LIMIT |
                          mjDSBL_CONTACT | mjDSBL_PASSIVE | mjDSBL_ACTUATION;
  for (int i = 0; i < m_->nv; ++i) {
    m_->dof_damping[i] = m_->dof_armature[i] = m_->dof_frictionloss[i] = 0.0;
  }
  d_ = mj_makeData(m_);
  mapCoordinates(model);
}

void MujocoTwin::mapCoordinates(const Model& model) {
  // our link -> MuJoCo body, by name; every MuJoCo dof must be hit exactly once
  std::vector<int> hits(m_->nv, 0);
  const RobotDescription& robot = model.description;
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const LinkDesc& link = robot.links[i];
    const int ndof = jointDofCount(link.joint.type);
    if (ndof <= 0) {
      continue;
    }
    const int body = mj_name2id(m_, mjOBJ_BODY, link.name.c_str());
    if (body < 0 || m_->body_dofnum[body] != ndof || model.links[i].nq != ndof) {
      throw std::runtime_error("MuJoCo body of '" + link.name + "' does not match the link");
    }
    LinkMap map;
    map.type = link.joint.type;
    map.idx_q = model.links[i].idx_q;
    map.qposadr = m_->jnt_qposadr[m_->body_jntadr[body]];
    map.dofadr = m_->body_dofadr[body];
    const Eigen::Isometry3d base = toIsometry(link.origin);  // free joints are top-level
    map.R_B = base.linear();
    map.p_B = base.translation();
    for (int k = 0; k < ndof; ++k) {
      ++hits[map.dofadr + k];
    }
    links_.push_back(map);
  }
  if (m_->nv != nv_ours_ || std::count(hits.begin(), hits.end(), 1) != m_->nv) {
    throw std::runtime_error("the MuJoCo dofs are not a permutation of ours");
  }
}

MujocoTwin::~MujocoTwin() {
  mj_deleteData(d_);
  mj_deleteModel(m_);
}

MujocoState MujocoTwin::toMujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                 const Eigen::VectorXd& a) const {
  MujocoState x{Eigen::VectorXd::Zero(m_->nq), Eigen::VectorXd::Zero(m_->nv),
                Eigen::VectorXd::Zero(m_->nv)};
  for (const LinkMap& link : links_) {
    const int i = link.idx_q;
    switch (link.type) {
      case JointType::Revolute:
      case JointType::Prismatic:
      case JointType::Cylindrical: {
        // scalar joints: qpos and dof addresses run in step
        const int n = jointDofCount(link.type);
        x.qpos.segment(link.qposadr, n) = q.segment(i, n);
        x.qvel.segment(link.dofadr, n) = v.segment(i, n);
        x.qacc.segment(link.dofadr, n) = a.segment(i, n);
        break;
      }
      case JointType::Spherical: {
        const ExpJet e = expJet(jetsOf(q, v, a, i), JetVec3{});
        const auto [w, w_dot] = bodyAngularRates(e.R);
        x.qpos.segment<4>(link.qposadr) = mujocoQuaternion(part(e.R, 0));
        x.qvel.segment<3>(link.dofadr) = w;
        x.qacc.segment<3>(link.dofadr) = w_dot;
        break;
      }
      case JointType::Free: {
        const ExpJet e = expJet(jetsOf(q, v, a, i), jetsOf(q, v, a, i + 3));
        const auto [w, w_dot] = bodyAngularRates(e.R);
        x.qpos.segment<3>(link.qposadr) = link.p_B + link.R_B * part(e.p, 0);
        x.qpos.segment<4>(link.qposadr + 3) = mujocoQuaternion(link.R_B * part(e.R, 0));
        x.qvel.segment<3>(link.dofadr) = link.R_B * part(e.p, 1);
        x.qvel.segment<3>(link.dofadr + 3) = w;
        x.qacc.segment<3>(link.dofadr) = link.R_B * part(e.p, 2);
        x.qacc.segment<3>(link.dofadr + 3) = w_dot;
        break;
      }
      default:
        break;
    }
  }
  return x;
}

Eigen::MatrixXd MujocoTwin::velocityMap(const Eigen::VectorXd& q) const {
  // qvel is linear in v: columns from unit velocities
  Eigen::MatrixXd J(m_->nv, nv_ours_);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nv_ours_);
  for (int k = 0; k < nv_ours_; ++k) {
    J.col(k) = toMujoco(q, Eigen::VectorXd::Unit(nv_ours_, k), zero).qvel;
  }
  return J;
}

void MujocoTwin::setState(const MujocoState& x) {
  Eigen::Map<Eigen::VectorXd>(d_->qpos, m_->nq) = x.qpos;
  Eigen::Map<Eigen::VectorXd>(d_->qvel, m_->nv) = x.qvel;
  Eigen::Map<Eigen::VectorXd>(d_->qacc, m_->nv) = x.qacc;
}

void MujocoTwin::checkWarnings(const char* call) {
  for (int i = 0; i < mjNWARNING; ++i) {
    if (d_->warning[i].number > 0) {
      d_->warning[i].number = 0;
      throw std::runtime_error(std::string(call) + " raised MuJoCo warning " + std::to_string(i));
    }
  }
}

Eigen::VectorXd MujocoTwin::inverseDynamics(const MujocoState& x) {
  setState(x);
  mj_inverse(m_, d_);
  checkWarnings("mj_inverse");
  return Eigen::Map<const Eigen::VectorXd>(d_->qfrc_inverse, m_->nv);
}

Eigen::MatrixXd MujocoTwin::massMatrix(const Eigen::VectorXd& qpos) {
  Eigen::Map<Eigen::VectorXd>(d_->qpos, m_->nq) = qpos;
  mj_kinematics(m_, d_);
  mj_comPos(m_, d_);
  mj_crb(m_, d_);
  checkWarnings("mj_crb");
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(m_->nv, m_->nv);
  mj_fullM(m_, M.data(), d_->qM);
  return M;
}

Eigen::VectorXd MujocoTwin::forwardDynamics(const Eigen::VectorXd& qpos,
                                            const Eigen::VectorXd& qvel,
                                            const Eigen::VectorXd& qfrc_applied) {
  Eigen::Map<Eigen::VectorXd>(d_->qpos, m_->nq) = qpos;
  Eigen::Map<Eigen::VectorXd>(d_->qvel, m_->nv) = qvel;
  Eigen::Map<Eigen::VectorXd>(d_->qfrc_applied, m_->nv) = qfrc_applied;
  mj_forward(m_, d_);
  checkWarnings("mj_forward");
  return Eigen::Map<const Eigen::VectorXd>(d_->qacc, m_->nv);
}

}  // namespace tendril::test
