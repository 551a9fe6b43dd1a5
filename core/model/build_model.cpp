#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "core/math/quadrature.hpp"
#include "core/model/bodies/rod_division.hpp"
#include "core/model/model.hpp"
#include "core/model/parse_error.hpp"
#include "core/model/section.hpp"
#include "core/model/validate.hpp"

namespace tendril {

void addCoordinateBlock(std::vector<CoordinateBlock>& blocks, int idx, int n) {
  // the first block that ends after idx starts; overlapping means sharing a coordinate (blocks that
  // only touch, like two divisions of a rod, stay apart)
  const auto at = std::find_if(blocks.begin(), blocks.end(),
                               [&](const CoordinateBlock& b) { return b.idx + b.n > idx; });
  if (at == blocks.end() || at->idx >= idx + n) {
    blocks.insert(at, {idx, n});
    return;
  }
  const int end = std::max(at->idx + at->n, idx + n);
  at->idx = std::min(at->idx, idx);
  at->n = end - at->idx;
  // the grown block may now overlap the ones after it
  auto next = at + 1;
  while (next != blocks.end() && next->idx < at->idx + at->n) {
    at->n = std::max(at->idx + at->n, next->idx + next->n) - at->idx;
    next = blocks.erase(next);
  }
}

namespace {

// k when the screw is a rotation about the frame axis +-e_k through the origin, else -1
int frameAxis(const Vector6d& screw) {
  if (!screw.tail<3>().isZero(0.0)) return -1;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(screw(k)) == 1.0 && screw((k + 1) % 3) == 0.0 && screw((k + 2) % 3) == 0.0)
      return k;
  }
  return -1;
}

void setStrainComponents(VirtualJoint& joint) {
  std::vector<int>& components = joint.strain_components;
  components = joint.basis_rows;
  std::sort(components.begin(), components.end());
  components.erase(std::unique(components.begin(), components.end()), components.end());
  joint.component_slot.clear();
  for (const int r : joint.basis_rows) {
    const auto at = std::lower_bound(components.begin(), components.end(), r);
    joint.component_slot.push_back(static_cast<int>(at - components.begin()));
  }
}

// Sorted by joint, keeping the order of equal joints. Through an index permutation: the temporary
// buffer of std::stable_sort in GCC 12's libstdc++ comes from a plain operator new that ignores
// over-alignment, and FluidFrame holds a Matrix6d, 32-byte aligned in an AVX build, which the
// vector code stores aligned (a crash, seen in the native build on an AVX-512 machine)
template <typename Item>
void stableSortByJoint(std::vector<Item>& items) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return items[a].joint < items[b].joint; });
  std::vector<Item> sorted;
  sorted.reserve(items.size());
  for (const std::size_t i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

SE3 toSE3(const Placement& placement) {
  SE3 g;
  g.R = rpyToRotation(placement.rpy[0], placement.rpy[1], placement.rpy[2]);
  g.p = Eigen::Vector3d(placement.position.data());
  return g;
}

std::string linkPointer(int link, const std::string& rest) {
  return "/links/" + std::to_string(link) + "/" + rest;
}

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
                     "not a physical inertia (principal moments must be positive and satisfy the "
                     "triangle inequality)");
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
    if (const auto problem = findTopologyProblem(robot_))
      throw ParseError(problem->pointer, problem->reason);
    if (const auto problem = findReferenceProblem(robot_))
      throw ParseError(problem->pointer, problem->reason);
    if (const auto problem = findDiscretisationProblem(robot_))
      throw ParseError(problem->pointer, problem->reason);
    parent_ = parentIndices(robot_);
    for (const CableDesc& cable : robot_.cables)
      model_.cables.push_back({cable.name, cable.tension, false, {}});
    model_.links.resize(robot_.links.size());
    for (int i : topologicalOrder(robot_)) addLink(i);
    for (std::size_t i = 0; i < robot_.links.size(); ++i) {
      if (parent_[i] >= 0) model_.links[parent_[i]].is_leaf = false;
    }
    model_.nv = model_.nq;
    declareTopology(model_);
    assembleStiffnessAndDamping();
    checkEveryModeIsStiff();
    compileInputsAndLoads();
    compileEnvironment();
    return std::move(model_);
  }

 private:
  void addLink(int i) {
    const LinkDesc& link = robot_.links[i];
    LinkInfo& info = model_.links[i];
    info.name = link.name;
    info.kind = link.kind();
    info.idx_q = model_.nq;

    VirtualJoint joint;
    joint.kind = VirtualJointKind::Rigid;
    joint.link = i;
    const int p = parent_[i];
    joint.parent = p < 0 ? -1 : model_.links[p].tip;
    joint.g_fixed = (p < 0 ? SE3::Identity() : model_.links[p].g_tip) * toSE3(link.origin);
    joint.Phi = jointBasis(link.joint);
    joint.nq = static_cast<int>(joint.Phi.cols());
    joint.constant_subspace = commutes(joint.Phi);
    joint.identity_basis = joint.nq == 6 && joint.Phi.isIdentity(0.0);
    joint.idx_q = model_.nq;
    for (int k = 0; k < joint.nq; ++k)
      model_.coordinate_names.push_back(link.name + "/joint/" + std::to_string(k));
    model_.nq += joint.nq;
    const auto* rigid = std::get_if<RigidBodyDesc>(&link.body);
    if (rigid) {
      joint.has_inertia = true;
      joint.M = rigidInertia(*rigid, i);
      joint.mass = rigid->mass;
      joint.com = Eigen::Vector3d(rigid->com.data());
    }
    info.joint = push(std::move(joint));
    info.tip = info.joint;
    info.g_tip = SE3::Identity();
    if (rigid) {
      info.g_tip = toSE3(rigid->tip);
    } else if (const auto* lvp = std::get_if<LvpBodyDesc>(&link.body)) {
      addLvpBody(i, *lvp);
    } else {
      // every other kind compiles into rod divisions
      const std::string pointer = "/links/" + std::to_string(i);
      std::visit(
          [&](const auto& body) {
            using Kind = std::decay_t<decltype(body)>;
            if constexpr (!std::is_same_v<Kind, RigidBodyDesc> &&
                          !std::is_same_v<Kind, LvpBodyDesc>)
              addRod(i, info, rodDivisions(body, pointer));
          },
          link.body);
    }
    info.nq = model_.nq - info.idx_q;
  }

  // an LVP body: its coordinates follow the joint's, with no virtual joint (the GVS engine cannot
  // represent it; the model runs on the model-agnostic family only). Its distal frame depends on
  // q, so no child placement can fold it: children hang from the model-agnostic body's D
  void addLvpBody(int i, const LvpBodyDesc& body) {
    const std::string pointer = "/links/" + std::to_string(i) + "/lvp";
    if (const auto problem = findLvpBodyProblem(body, pointer))
      throw ParseError(problem->pointer, problem->reason);
    const std::string& name = robot_.links[i].name;
    for (const LvpPrimitiveDesc& primitive : body.primitives) {
      for (std::size_t k = 0; k < primitive.modes.size(); ++k) {
        model_.coordinate_names.push_back(name + "/lvp/" + lvpPrimitiveName(primitive.type) + "/" +
                                          std::to_string(k));
      }
    }
    model_.nq += lvpDof(body);
    model_.agnostic_only = true;
  }

  void addRod(int i, LinkInfo& info, const std::vector<RodDivisionSpec>& divisions) {
    int previous = info.joint;
    info.first_interval = n();
    info.base_radius = sectionProperties(divisions.front().section, 0.0).radius;
    double X_start = 0.0;
    for (std::size_t d = 0; d < divisions.size(); ++d) {
      previous = addDivision(i, static_cast<int>(d), divisions[d], X_start, previous);
      X_start += divisions[d].length;
    }
    info.last_interval = n() - 1;
    info.tip = previous;
  }

  struct Point {
    double X;       // abscissa in the division [m]
    double weight;  // Gauss weight, 0 at the ends and at load points
  };

  // computational points: X = 0, the Gauss points, the load points, X = L; one interval joint
  // between each consecutive pair
  int addDivision(int link, int d, const RodDivisionSpec& division, double X_start, int previous) {
    const int ndof = division.ndof;
    const int idx = model_.nq;
    for (const std::string& mode : division.mode_names)
      model_.coordinate_names.push_back(robot_.links[link].name + "/" + mode);
    model_.nq += ndof;

    const double L = division.length;
    const std::vector<Point> points = divisionPoints(link, division, X_start);
    const Vector6d& xi_star = division.reference_strain;
    Matrix6Xd Phi(6, ndof);
    for (std::size_t a = 0; a + 1 < points.size(); ++a) {
      const double X0 = points[a].X, X1 = points[a + 1].X, w = points[a + 1].weight;
      VirtualJoint joint;
      joint.kind = VirtualJointKind::RodInterval;
      joint.link = link;
      joint.parent = previous;
      if (a == 0) joint.g_fixed = toSE3(division.origin);
      joint.idx_q = idx;
      joint.nq = ndof;
      joint.magnus_order = division.magnus_order;
      joint.h = X1 - X0;
      joint.xi_star = xi_star;
      joint.Phi_z1.resize(6, ndof);
      joint.Phi_z2.resize(6, ndof);
      joint.basis_rows = division.basis_rows;
      setStrainComponents(joint);
      if (joint.magnus_order == 4) {
        const auto [z1, z2] = zannaPoints(X0, joint.h);
        division.basis(z1 / L, joint.Phi_z1);
        division.basis(z2 / L, joint.Phi_z2);
      } else {
        division.basis((X0 + 0.5 * joint.h) / L, joint.Phi_z1);
        joint.Phi_z2.setZero();
      }
      const SectionProperties section = sectionProperties(division.section, X1 / L);
      joint.radius = section.radius;
      const SectionProperties middle =
          sectionProperties(division.section, (X0 + 0.5 * joint.h) / L);
      joint.section_stiffness = middle.stiffnessDiagonal(division.material);
      joint.section_damping = middle.dampingDiagonal(division.material);
      division.basis(X1 / L, Phi);
      rod_points_.push_back({n(), w, section.area, section.radius});
      if (w > 0.0) {
        joint.has_inertia = true;
        joint.M = w * division.material.density * section.inertiaDiagonal().asDiagonal();
        joint.mass = w * division.material.density * section.area;
        stiffness_terms_.push_back({idx, ndof, w, Phi, section, division.material});
        addCableSamples(link, d, X1, w, idx, Phi, xi_star);
      }
      previous = push(std::move(joint));
      attachLoadsAt(link, X_start + X1, previous);
      attachClosedChainsAt(link, X_start + X1, previous);
    }
    division_checks_.push_back({idx, ndof, division.gauss_points_pointer});
    return previous;
  }

  std::vector<Point> divisionPoints(int link, const RodDivisionSpec& division,
                                    double X_start) const {
    const double L = division.length;
    std::vector<Point> points = {{0.0, 0.0}};
    const GaussRule gauss = gaussLegendre(division.gauss_points, L);
    for (int k = 0; k < division.gauss_points; ++k)
      points.push_back({gauss.nodes[k], gauss.weights[k]});
    points.push_back({L, 0.0});
    // a point load needs a frame where it acts: split the interval there
    for (const PointLoadDesc& load : robot_.point_loads) {
      if (load.link != robot_.links[link].name) continue;
      const double X = loadAbscissa(load, link) - X_start;
      if (X <= 0.0 || X > L) continue;
      const auto same = [&](const Point& p) {
        return std::abs(p.X - X) <= 1e-12 * std::max(1.0, L);
      };
      if (std::none_of(points.begin(), points.end(), same)) points.push_back({X, 0.0});
    }
    // so does a closed-chain joint frame
    for (const ClosedChainDesc& chain : robot_.closed_chains) {
      for (const ClosedChainFrameDesc* frame : {&chain.a, &chain.b}) {
        if (frame->link != robot_.links[link].name) continue;
        const double X =
            (frame->abscissa < 0.0 ? centrelineLength(robot_.links[link]) : frame->abscissa) -
            X_start;
        if (X <= 0.0 || X > L) continue;
        const auto same = [&](const Point& p) {
          return std::abs(p.X - X) <= 1e-12 * std::max(1.0, L);
        };
        if (std::none_of(points.begin(), points.end(), same)) points.push_back({X, 0.0});
      }
    }
    std::sort(points.begin(), points.end(),
              [](const Point& a, const Point& b) { return a.X < b.X; });
    return points;
  }

  double loadAbscissa(const PointLoadDesc& load, int link) const {
    return load.abscissa < 0.0 ? centrelineLength(robot_.links[link]) : load.abscissa;
  }

  void attachLoadsAt(int link, double X, int joint) {
    for (std::size_t i = 0; i < robot_.point_loads.size(); ++i) {
      const PointLoadDesc& load = robot_.point_loads[i];
      if (load.link != robot_.links[link].name) continue;
      if (std::abs(loadAbscissa(load, link) - X) <= 1e-12 * std::max(1.0, X))
        load_joint_[i] = joint;
    }
  }

  // the virtual joint of a closed-chain frame on a soft link, keyed by (chain, side)
  void attachClosedChainsAt(int link, double X, int joint) {
    for (std::size_t i = 0; i < robot_.closed_chains.size(); ++i) {
      const ClosedChainDesc& chain = robot_.closed_chains[i];
      for (int side = 0; side < 2; ++side) {
        const ClosedChainFrameDesc& frame = side == 0 ? chain.a : chain.b;
        if (frame.link != robot_.links[link].name) continue;
        const double at =
            frame.abscissa < 0.0 ? centrelineLength(robot_.links[link]) : frame.abscissa;
        if (std::abs(at - X) <= 1e-12 * std::max(1.0, X)) chain_joint_[{i, side}] = joint;
      }
    }
  }

  void compileClosedChains() {
    model_.constraint_time_constant = robot_.constraint_time_constant;
    model_.n_constraints = 0;
    for (std::size_t i = 0; i < robot_.closed_chains.size(); ++i) {
      const ClosedChainDesc& chain = robot_.closed_chains[i];
      const std::string at = "/closed_chains/" + std::to_string(i);
      CompiledClosedChain compiled;
      compiled.name = chain.name;
      for (int side = 0; side < 2; ++side) {
        const ClosedChainFrameDesc& frame = side == 0 ? chain.a : chain.b;
        int joint = -1;
        if (frame.link != "world") {
          const int link = linkIndex(frame.link);
          const bool at_link_frame =
              robot_.links[link].kind() == BodyKind::Rigid || frame.abscissa == 0.0;
          joint = at_link_frame ? model_.links[link].joint : chain_joint_.at({i, side});
        }
        (side == 0 ? compiled.joint_a : compiled.joint_b) = joint;
        (side == 0 ? compiled.g_a : compiled.g_b) = toSE3(frame.placement);
      }
      // constrained directions: the orthogonal complement of the free motions, within the plane
      // (rotation z, translations x, y) for a planar loop
      const Matrix6Xd free = jointBasis(chain.joint);
      Eigen::MatrixXd candidates = Eigen::MatrixXd::Identity(6, 6);
      if (chain.planar) {
        candidates = Eigen::MatrixXd::Zero(6, 3);
        candidates(2, 0) = candidates(3, 1) = candidates(4, 2) = 1.0;
        for (Eigen::Index c = 0; c < free.cols(); ++c) {
          const double in_plane = (candidates.transpose() * free.col(c)).norm();
          if (in_plane > 1e-9 && std::abs(in_plane - free.col(c).norm()) > 1e-9) {
            throw ParseError(at + "/planar",
                             "a free motion of the joint is neither in the plane (rotation about "
                             "z, translation along x, y) nor normal to it: align the axis");
          }
        }
      }
      Eigen::MatrixXd complement = candidates;
      if (free.cols() > 0) {
        const Eigen::HouseholderQR<Eigen::MatrixXd> qr(free);
        const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(6, free.cols());
        complement -= Q * (Q.transpose() * candidates);
      }
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd(complement, Eigen::ComputeThinU);
      int rank = 0;
      while (rank < svd.singularValues().size() && svd.singularValues()(rank) > 1e-9) ++rank;
      // prefer the unit directions when the joint is aligned with the frame (readable rows)
      compiled.Phi_perp = svd.matrixU().leftCols(rank);
      for (int c = 0; c < rank; ++c) {
        Eigen::Index largest = 0;
        compiled.Phi_perp.col(c).cwiseAbs().maxCoeff(&largest);
        if (compiled.Phi_perp(largest, c) < 0.0) compiled.Phi_perp.col(c) *= -1.0;
        compiled.Phi_perp.col(c) = compiled.Phi_perp.col(c).unaryExpr(
            [](double x) { return std::abs(x) < 1e-15 ? 0.0 : x; });
      }
      if (rank == 0) throw ParseError(at + "/joint/type", "the joint constrains nothing");
      compiled.row = model_.n_constraints;
      model_.n_constraints += rank;
      model_.closed_chains.push_back(std::move(compiled));
    }
  }

  // the coordinate of a name of model_.coordinate_names
  int coordinateIndex(const std::string& name, const std::string& at) const {
    const auto& names = model_.coordinate_names;
    const auto found = std::find(names.begin(), names.end(), name);
    if (found != names.end()) return static_cast<int>(found - names.begin());
    std::string known;
    for (std::size_t k = 0; k < names.size() && k < 12; ++k)
      known += (k > 0 ? ", " : "") + names[k];
    if (names.size() > 12) known += ", ...";
    throw ParseError(
        at, "unknown coordinate \"" + name + "\" (the model's coordinates: " + known + ")");
  }

  // references resolved by name (findControllerProblem() checked that the inputs and cables
  // exist); the written inputs are marked so that their time functions no longer act
  void compileController(std::size_t i) {
    const ControllerDesc& desc = robot_.controllers[i];
    const std::string at = "/controllers/" + std::to_string(i);
    CompiledController compiled;
    compiled.name = desc.name;
    compiled.type = desc.type;
    compiled.sample_period = desc.sample_period;
    if (desc.active) {
      compiled.active_from = desc.active->from;
      if (desc.active->until) compiled.active_until = *desc.active->until;
      compiled.after = desc.active->after;
    }
    const auto n = static_cast<Eigen::Index>(desc.controlled.size());
    for (Eigen::Index k = 0; k < n; ++k) {
      const ControlledVariableDesc& variable = desc.controlled[k];
      CompiledController::Variable v{variable.kind, 0, 0, variable.setpoint, variable.name};
      const std::string variable_at = at + "/controlled/" + std::to_string(k);
      if (variable.kind == ControlledVariableDesc::Kind::CableLength) {
        v.index = cableIndex(variable.name);
        v.label = variable.name + " length";
      } else if (variable.kind == ControlledVariableDesc::Kind::TendonLength) {
        v.index = lvpTendonIndex(variable.name);
        v.label = variable.name + " length";
      } else if (variable.kind == ControlledVariableDesc::Kind::TipPosition) {
        v.index = linkIndex(variable.name);
        v.axis = variable.axis;
        v.label = variable.name + " tip " + std::string(1, "xyz"[variable.axis]);
      } else {
        v.index = coordinateIndex(variable.name, variable_at);
      }
      for (const CompiledController::Variable& earlier : compiled.variables) {
        if (earlier.kind == v.kind && earlier.index == v.index && earlier.axis == v.axis)
          throw ParseError(variable_at, "\"" + variable.name + "\" is listed twice");
      }
      compiled.variables.push_back(v);
    }
    if (desc.type == ControllerDesc::Type::ComputedTorque && n != model_.nv) {
      throw ParseError(at + "/controlled",
                       "computed torque needs every coordinate controlled (" +
                           std::to_string(model_.nv) + "; " + std::to_string(n) +
                           " given): use collocated_pfbl for an underactuated robot");
    }
    for (const ControllerInputDesc& input : desc.inputs) {
      CompiledController::Input in;
      in.name = input.name;
      in.min = input.min.value_or(-std::numeric_limits<double>::infinity());
      in.max = input.max.value_or(std::numeric_limits<double>::infinity());
      if (const int cable = cableIndex(input.name); cable >= 0) {
        in.kind = CompiledController::Input::Kind::Cable;
        in.index = cable;
        in.min = std::max(in.min, 0.0);  // tendons only pull
        model_.cables[cable].controlled = true;
      } else if (const int tendon = lvpTendonIndex(input.name); tendon >= 0) {
        in.kind = CompiledController::Input::Kind::LvpTendon;
        in.index = tendon;
        in.min = std::max(in.min, 0.0);
        model_.lvp_tendons[tendon].controlled = true;
      } else if (const int cavity = cavityPressureIndex(input.name); cavity >= 0) {
        in.kind = CompiledController::Input::Kind::CavityPressure;
        in.index = cavity;
        model_.cavity_pressures[cavity].controlled = true;
      } else {
        in.index = forceInputIndex(input.name);
        model_.joint_inputs[in.index].controlled = true;
      }
      compiled.inputs.push_back(in);
    }
    const auto gains = [n](const std::vector<double>& values) {
      return values.size() == 1 ? Eigen::VectorXd::Constant(n, values[0]).eval()
                                : Eigen::Map<const Eigen::VectorXd>(values.data(), n).eval();
    };
    compiled.kp = gains(desc.kp);
    compiled.kd = gains(desc.kd);
    model_.controllers.push_back(std::move(compiled));
  }

  int lvpTendonIndex(const std::string& name) const {
    for (std::size_t c = 0; c < robot_.lvp_tendons.size(); ++c) {
      if (robot_.lvp_tendons[c].name == name) return static_cast<int>(c);
    }
    return -1;
  }

  int cavityPressureIndex(const std::string& name) const {
    for (std::size_t c = 0; c < robot_.cavity_pressures.size(); ++c) {
      if (robot_.cavity_pressures[c].name == name) return static_cast<int>(c);
    }
    return -1;
  }

  int cableIndex(const std::string& name) const {
    for (std::size_t c = 0; c < robot_.cables.size(); ++c) {
      if (robot_.cables[c].name == name) return static_cast<int>(c);
    }
    return -1;
  }

  // the index in model_.joint_inputs (force inputs only, in description order) of a named input
  int forceInputIndex(const std::string& name) const {
    int index = 0;
    for (const JointInputDesc& input : robot_.joint_inputs) {
      if (input.mode == JointInputDesc::Mode::Position) continue;
      if (input.name == name) return index;
      ++index;
    }
    return -1;
  }

  void addCableSamples(int link, int d, double X, double w, int idx, const Matrix6Xd& Phi,
                       const Vector6d& xi_star) {
    for (std::size_t c = 0; c < robot_.cables.size(); ++c) {
      const CableDesc& cable = robot_.cables[c];
      if (cable.link != robot_.links[link].name) continue;
      for (const CableSegmentDesc& segment : cable.path) {
        if (segment.division != d) continue;
        CableSample sample;
        sample.idx_q = idx;
        sample.nq = static_cast<int>(Phi.cols());
        sample.weight = w;
        sample.Phi = Phi;
        sample.xi_star = xi_star;
        sample.d << 0.0, polynomial(segment.y, X, 0), polynomial(segment.z, X, 0);
        sample.d_prime << 0.0, polynomial(segment.y, X, 1), polynomial(segment.z, X, 1);
        model_.cables[c].samples.push_back(std::move(sample));
      }
    }
  }

  void compileInputsAndLoads() {
    for (const LvpTendonDesc& tendon : robot_.lvp_tendons) {
      CompiledLvpTendon compiled{tendon.name, tendon.tension, false, {}};
      for (const LvpAnchorDesc& anchor : tendon.anchors) {
        const int link = linkIndex(anchor.link);
        const LvpBodyDesc& body = robot_.links[static_cast<std::size_t>(link)].lvp();
        compiled.anchors.push_back(
            {link, Eigen::Vector3d(body.radius * std::cos(anchor.angle),
                                   body.radius * std::sin(anchor.angle),
                                   anchor.end == LvpAnchorDesc::End::Tip ? body.length : 0.0)});
      }
      model_.lvp_tendons.push_back(std::move(compiled));
    }
    for (const CavityPressureDesc& pressure : robot_.cavity_pressures)
      model_.cavity_pressures.push_back(
          {pressure.name, linkIndex(pressure.link), pressure.pressure});
    for (const JointInputDesc& input : robot_.joint_inputs) {
      const LinkInfo& info = model_.links[linkIndex(input.link)];
      const int coordinate = model_.joints[info.joint].idx_q + input.dof;
      if (input.mode == JointInputDesc::Mode::Position) {
        model_.prescribed.push_back({coordinate, input.value});
      } else {
        model_.joint_inputs.push_back({coordinate, input.value});
      }
    }
    compileClosedChains();
    for (std::size_t i = 0; i < robot_.controllers.size(); ++i) compileController(i);
    for (std::size_t i = 0; i < robot_.point_loads.size(); ++i) {
      const PointLoadDesc& load = robot_.point_loads[i];
      const int link = linkIndex(load.link);
      const bool at_link_frame =
          robot_.links[link].kind() == BodyKind::Rigid || load.abscissa == 0.0;
      CompiledPointLoad compiled;
      compiled.name = load.name;
      compiled.joint = at_link_frame ? model_.links[link].joint : load_joint_.at(i);
      compiled.offset = Eigen::Vector3d(load.offset.data());
      compiled.frame = load.frame;
      compiled.wrench = Eigen::Map<const Vector6d>(load.wrench.data());
      compiled.scale = load.scale;
      model_.point_loads.push_back(std::move(compiled));
    }
  }

  // contact spheres, buoyancy, drag and added mass at the frames (docs/theory/gvs.md §13.2, §13.3)
  void compileEnvironment() {
    const EnvironmentDesc& environment = robot_.environment;
    CompiledEnvironment& out = model_.environment;
    const auto unit = [](const Vec3& a) { return Eigen::Vector3d(a.data()).normalized(); };
    if (const auto& contact = environment.contact) {
      out.stiffness = contact->stiffness;
      out.exponent = contact->exponent;
      out.smoothing = contact->smoothing;
      out.damping = contact->damping;
      out.friction = contact->friction;
      out.slip_velocity = contact->slip_velocity;
      for (const ContactPlaneDesc& plane : contact->planes) {
        out.plane_points.emplace_back(plane.point.data());
        out.plane_normals.push_back(unit(plane.normal));
      }
      for (const ContactSphereDesc& sphere : contact->spheres) {
        out.sphere_centres.emplace_back(sphere.centre.data());
        out.sphere_radii.push_back(sphere.radius);
      }
      for (const ContactCylinderDesc& cylinder : contact->cylinders) {
        out.cylinder_points.emplace_back(cylinder.point.data());
        out.cylinder_axes.push_back(unit(cylinder.axis));
        out.cylinder_radii.push_back(cylinder.radius);
      }
      const bool obstacles =
          !contact->planes.empty() || !contact->spheres.empty() || !contact->cylinders.empty();
      if (obstacles && contact->stiffness > 0.0) {
        out.has_contact = true;
        // a rod's computational points, from its base; a rigid body's bounding sphere
        for (std::size_t i = 0; i < robot_.links.size(); ++i) {
          const LinkInfo& info = model_.links[i];
          if (hasCentreline(robot_.links[i].kind())) {
            out.contact_spheres.push_back({info.joint, Eigen::Vector3d::Zero(), info.base_radius});
          } else if (contact->rigid_bodies && robot_.links[i].kind() == BodyKind::Rigid) {
            const RigidBodyDesc& body = robot_.links[i].rigid();
            out.contact_spheres.push_back(
                {info.joint, shapeCentre(body), boundingRadius(body.shape)});
          }
        }
        for (const RodPoint& point : rod_points_)
          out.contact_spheres.push_back({point.joint, Eigen::Vector3d::Zero(), point.radius});
      }
    }
    if (const auto& fluid = environment.fluid) {
      out.has_fluid = true;
      const double rho = fluid->density;
      for (const RodPoint& point : rod_points_) {
        if (!(point.weight > 0.0)) continue;
        VirtualJoint& joint = model_.joints[point.joint];
        // transverse added mass rho C_a A per unit length (Morison)
        const double m_a = point.weight * rho * fluid->added_mass_coefficient * point.area;
        if (m_a > 0.0) {
          joint.has_added_mass = true;
          joint.added_mass_diagonal = DiagonalInertia{};
          joint.added_mass_diagonal->diagonal << 0, 0, 0, 0, m_a, m_a;
          joint.added_mass = joint.added_mass_diagonal->matrix();
        }
        // quadratic drag 1/2 rho C d |v| v on the projected width d = 2 r (normal) and the
        // wetted perimeter pi d (tangential)
        CompiledEnvironment::FluidFrame frame;
        frame.joint = point.joint;
        frame.displaced_mass = rho * point.area * point.weight;
        const double diameter = 2.0 * point.radius, q = 0.5 * rho * point.weight;
        frame.drag.diagonal() << 0, 0, 0, q * fluid->drag_tangential * std::numbers::pi * diameter,
            q * fluid->drag_normal * diameter, q * fluid->drag_normal * diameter;
        frame.has_drag = !frame.drag.isZero(0.0);
        out.fluid_frames.push_back(frame);
      }
      for (std::size_t i = 0; i < robot_.links.size(); ++i) {
        if (robot_.links[i].kind() != BodyKind::Rigid) continue;
        const RigidBodyDesc& body = robot_.links[i].rigid();
        const auto listed =
            std::find_if(fluid->bodies.begin(), fluid->bodies.end(),
                         [&](const FluidBodyDesc& b) { return b.link == robot_.links[i].name; });
        const FluidBodyDesc entry = listed == fluid->bodies.end() ? FluidBodyDesc{} : *listed;
        CompiledEnvironment::FluidFrame frame;
        frame.joint = model_.links[i].joint;
        frame.offset = Eigen::Vector3d(body.com.data());
        frame.displaced_mass = rho * entry.volume.value_or(shapeVolume(body.shape));
        frame.drag.diagonal() = Eigen::Map<const Vector6d>(entry.drag.data());
        frame.has_drag = !frame.drag.isZero(0.0);
        out.fluid_frames.push_back(frame);
        const Vector6d added = Eigen::Map<const Vector6d>(entry.added_mass.data());
        if (!added.isZero(0.0)) {
          // given at the centre of mass: Ad*_gc M_A Ad_gc^-1 about the link frame origin
          VirtualJoint& joint = model_.joints[frame.joint];
          joint.has_added_mass = true;
          joint.added_mass_diagonal = DiagonalInertia{frame.offset, added};
          joint.added_mass = joint.added_mass_diagonal->matrix();
        }
      }
    }
    // sorted by joint: the load pass walks the joints once
    stableSortByJoint(out.contact_spheres);
    stableSortByJoint(out.fluid_frames);
    for (const VirtualJoint& joint : model_.joints)
      model_.has_added_mass = model_.has_added_mass || joint.has_added_mass;
  }

  // radius of the sphere around the shape, centred at shapeCentre()
  static double boundingRadius(const ShapeDesc& shape) {
    const Vec3& s = shape.size;
    switch (shape.type) {
      case ShapeType::Box:
      case ShapeType::Mesh:  // its bounding box
        return 0.5 * std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      case ShapeType::Cylinder:
        return std::sqrt(s[0] * s[0] + 0.25 * s[1] * s[1]);
      case ShapeType::Sphere:
        return s[0];
    }
    return 0.0;
  }

  // centre of the shape (of a mesh's bounding box) in the link frame
  static Eigen::Vector3d shapeCentre(const RigidBodyDesc& body) {
    const Placement& origin = body.shape.origin;
    const Eigen::Matrix3d R = rpyToRotation(origin.rpy[0], origin.rpy[1], origin.rpy[2]);
    return Eigen::Vector3d(body.com.data()) + Eigen::Vector3d(origin.position.data()) +
           R * Eigen::Vector3d(body.shape.box_centre.data());
  }

  int linkIndex(const std::string& name) const {
    for (std::size_t i = 0; i < robot_.links.size(); ++i) {
      if (robot_.links[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  void assembleStiffnessAndDamping() {
    model_.K = Eigen::MatrixXd::Zero(model_.nq, model_.nq);
    model_.D = Eigen::MatrixXd::Zero(model_.nq, model_.nq);
    for (const StiffnessTerm& t : stiffness_terms_) {
      const Vector6d stiffness = t.section.stiffnessDiagonal(t.material);
      const Vector6d damping = t.section.dampingDiagonal(t.material);
      model_.K.block(t.idx, t.idx, t.n, t.n) +=
          t.w * t.Phi.transpose() * stiffness.asDiagonal() * t.Phi;
      model_.D.block(t.idx, t.idx, t.n, t.n) +=
          t.w * t.Phi.transpose() * damping.asDiagonal() * t.Phi;
      addCoordinateBlock(model_.elastic_blocks, t.idx, t.n);
    }
  }

  // a strain mode that no Gauss point sees has no stiffness: a free, undamped hinge (e.g. a
  // piecewise-constant piece between two Gauss points)
  void checkEveryModeIsStiff() const {
    for (const DivisionCheck& division : division_checks_) {
      const int n = division.n;
      const Eigen::MatrixXd block = model_.K.block(division.idx, division.idx, n, n);
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(block, Eigen::EigenvaluesOnly);
      if (n > 0 && !(eigen.eigenvalues().minCoeff() > 1e-12 * eigen.eigenvalues().maxCoeff())) {
        throw ParseError(division.gauss_points_pointer,
                         "the Gauss points do not resolve every strain mode of the basis (a mode "
                         "has no stiffness): add Gauss points");
      }
    }
  }

  int push(VirtualJoint&& joint) {
    joint.inertia = SpatialInertia::fromMatrix(joint.M);
    joint.placement_rotates = !joint.g_fixed.R.isIdentity(0.0);
    joint.has_placement = joint.placement_rotates || !joint.g_fixed.p.isZero(0.0);
    if (joint.kind == VirtualJointKind::Rigid && joint.nq == 1) {
      joint.screw = joint.Phi.col(0);
      const Eigen::Vector3d w = joint.screw.head<3>(), v = joint.screw.tail<3>();
      joint.single_screw =
          (w.isZero(0.0) || std::abs(w.norm() - 1.0) < 1e-15) && w.cross(v).isZero(1e-15);
      if (joint.single_screw) joint.screw_frame_axis = frameAxis(joint.screw);
      if (joint.single_screw && !w.isZero(0.0)) {
        joint.screw_angle_slot = static_cast<int>(model_.screw_angle_coordinates.size());
        model_.screw_angle_coordinates.push_back(joint.idx_q);
      }
    }
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
  struct DivisionCheck {
    int idx, n;
    std::string gauss_points_pointer;
  };
  std::vector<DivisionCheck> division_checks_;
  struct RodPoint {
    int joint;      // the interval joint whose child frame is the point
    double weight;  // quadrature weight [m] (0 at the ends and load points)
    double area;    // section area [m^2]
    double radius;  // section radius [m]
  };
  std::vector<RodPoint> rod_points_;
  std::map<std::size_t, int> load_joint_;  ///< point load index -> virtual joint, for soft links
  std::map<std::pair<std::size_t, int>, int> chain_joint_;  ///< (closed chain, side) -> joint
};

}  // namespace

bool commutes(const Matrix6Xd& Phi) {
  for (Eigen::Index a = 0; a < Phi.cols(); ++a) {
    for (Eigen::Index b = a + 1; b < Phi.cols(); ++b) {
      if (ad(Vector6d(Phi.col(a)), Vector6d(Phi.col(b))).norm() > 1e-14) return false;
    }
  }
  return true;
}

Matrix6Xd jointBasis(const JointDesc& joint) {
  const Eigen::Vector3d axis = Eigen::Vector3d(joint.axis.data()).normalized();
  Matrix6Xd Phi = Matrix6Xd::Zero(6, jointDof(joint.type));
  switch (joint.type) {
    case JointType::Fixed:
      break;
    case JointType::Revolute:
      Phi.col(0).head<3>() = axis;
      break;
    case JointType::Prismatic:
      Phi.col(0).tail<3>() = axis;
      break;
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
    case JointType::Spherical:
      Phi.topRows<3>().setIdentity();
      break;
    case JointType::Free:
      Phi.setIdentity();
      break;
  }
  return Phi;
}

void requireEngineModel(const Model& model, const char* algorithm) {
  if (!model.agnostic_only) return;
  throw std::invalid_argument(std::string(algorithm) +
                              ": the model has an LVP body, which the GVS engine cannot "
                              "represent; use the model-agnostic dynamics "
                              "(model_agnostic_dynamics.hpp)");
}

Model buildModel(const RobotDescription& robot) {
  return ModelBuilder(robot).build();
}

double shapeVolume(const ShapeDesc& shape) {
  const Vec3& s = shape.size;
  switch (shape.type) {
    case ShapeType::Box:
    case ShapeType::Mesh:  // its bounding box
      return s[0] * s[1] * s[2];
    case ShapeType::Cylinder:
      return std::numbers::pi * s[0] * s[0] * s[1];
    case ShapeType::Sphere:
      return 4.0 / 3.0 * std::numbers::pi * s[0] * s[0] * s[0];
  }
  return 0.0;
}

}  // namespace tendril
