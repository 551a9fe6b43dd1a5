// Tests for core/algorithm/model_agnostic_dynamics.cpp and model_agnostic_body.cpp: the bodies'
// reports against finite differences of their poses, IID / ID / MIID / MID against Tendril's
// independent inverseDynamics() and massMatrix(), and the structural identities of
// docs/theory/model-agnostic.md §7: affine in a, c quadratic in v, power balance, gravity as the
// gradient of the potential energy.

#include "core/algorithm/model_agnostic_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/support/test_models.hpp"

namespace tendril {
namespace {

using test::randomState;
using test::relativeError;

// point loads keep their frames (weightless rod intervals) but act with zero wrench; contact and
// fluid are dropped: the model-agnostic ID includes none of them
RobotDescription withoutExternalLoads(RobotDescription robot) {
  for (PointLoadDesc& load : robot.point_loads) load.wrench = {0, 0, 0, 0, 0, 0};
  robot.environment = EnvironmentDesc{};
  return robot;
}

// a serial chain through every joint type, with non-trivial placements
RobotDescription everyJointChain() {
  const JointType types[] = {JointType::Free,      JointType::Revolute,    JointType::Spherical,
                             JointType::Prismatic, JointType::Universal,   JointType::Helical,
                             JointType::Planar,    JointType::Cylindrical, JointType::Fixed,
                             JointType::Revolute};
  RobotDescription robot;
  robot.name = "every_joint_chain";
  std::string parent = "world";
  int i = 0;
  for (JointType type : types) {
    const std::string name = "link" + std::to_string(i);
    LinkDesc link = test::rigidLink(name, parent, type, {0.3 * i - 1.0, 0.5, 1.0});
    link.origin.position = {0.02 * i, -0.01, 0.03};
    link.origin.rpy = {0.2, -0.1 * i, 0.3};
    robot.links.push_back(link);
    parent = name;
    ++i;
  }
  return robot;
}

// randomHybrid's tree (every joint type, branches) with every link rigid
RobotDescription rigidTree(unsigned seed) {
  RobotDescription robot = test::randomHybrid(seed);
  for (LinkDesc& link : robot.links) {
    if (link.kind() != BodyKind::Rigid)
      link.body = test::rigidLink(link.name, link.parent, link.joint.type, link.joint.axis).body;
  }
  robot.name = "rigid_tree" + std::to_string(seed);
  return robot;
}

// randomHybrid with a given Magnus order on its soft links
RobotDescription hybridTree(unsigned seed, int magnus_order) {
  RobotDescription robot = test::randomHybrid(seed);
  for (LinkDesc& link : robot.links) {
    if (link.kind() == BodyKind::Soft) link.soft().magnus_order = magnus_order;
  }
  return robot;
}

// a rod on a spherical joint, carried by a floating rigid base that has a second rigid branch,
// with two divisions (the second placed off the first's end) and a rigid link at the rod's tip
RobotDescription jointedRod(int magnus_order) {
  RobotDescription robot;
  robot.name = "jointed_rod";
  robot.links.push_back(test::rigidLink("base", "world", JointType::Free));
  LinkDesc rod;
  rod.name = "rod";
  rod.parent = "base";
  rod.body = SoftBodyDesc{};
  rod.joint.type = JointType::Spherical;
  rod.origin.position = {0.05, 0.0, 0.02};
  rod.origin.rpy = {0.1, 0.3, -0.2};
  DivisionDesc division;
  division.length = 0.25;
  division.section.radius_start = 0.02;
  division.section.radius_end = 0.012;
  division.basis.family = BasisFamily::Legendre;
  division.basis.order = {1, 2, 1, 1, 0, 0};
  division.reference_strain = {0.2, -0.4, 0.1, 1.0, 0.0, 0.0};
  division.gauss_points = 4;
  DivisionDesc second = division;
  second.basis.family = BasisFamily::Chebyshev;
  second.basis.order = {0, 1, 2, -1, 1, 1};
  second.origin.position = {0.0, 0.01, -0.005};
  second.origin.rpy = {0.05, 0.0, 0.2};
  rod.soft().divisions = {division, second};
  rod.soft().magnus_order = magnus_order;
  robot.links.push_back(rod);
  robot.links.push_back(test::rigidLink("tip", "rod", JointType::Universal, {0, 1, 1}));
  robot.links.push_back(test::rigidLink("side", "base", JointType::Revolute, {1, 0, 0}));
  return robot;
}

RobotDescription rod(int magnus_order) {
  StrainBasisDesc basis;
  basis.order = {1, 2, 2, 0, 1, 1};
  RobotDescription robot = test::uniformRod(0.4, 0.02, basis, 5, magnus_order);
  robot.name = "rod_magnus" + std::to_string(magnus_order);
  return robot;
}

// a fixed, unplaced rigid link (no placement in front of it, none in its parent's tip: its
// element is the frame it hangs from, where the passes skip its transports) between a floating
// base and two children, a revolute link and a rod
RobotDescription fixedUnplacedLink() {
  RobotDescription robot = rod(4);
  robot.name = "fixed_unplaced_link";
  LinkDesc rod_link = robot.links.front();
  rod_link.parent = "middle";
  LinkDesc base = test::rigidLink("base", "world", JointType::Free);
  base.rigid().tip = Placement{};
  robot.links = {base, test::rigidLink("middle", "base", JointType::Fixed),
                 test::rigidLink("arm", "middle", JointType::Revolute, {0, 1, 0}), rod_link};
  return robot;
}

// constant-curvature segments on every kind of joint in front: a planar one on a spherical joint
// carried by a free base, a spatial one (with elongation) on a universal joint at its tip, a rigid
// link on the spatial one, and a planar one on a revolute side branch
RobotDescription constantCurvatureTree() {
  RobotDescription robot;
  robot.name = "constant_curvature_tree";
  robot.links.push_back(test::rigidLink("base", "world", JointType::Free));
  const auto segment = [&](const std::string& name, const std::string& parent, JointType type,
                           CurvatureModel model, double length) {
    LinkDesc link;
    link.name = name;
    link.parent = parent;
    link.joint.type = type;
    link.joint.axis = {0.3, 1.0, -0.2};
    link.origin.position = {0.02, -0.01, 0.03};
    link.origin.rpy = {0.2, -0.1, 0.4};
    ConstantCurvatureBodyDesc body;
    body.model = model;
    body.length = length;
    body.radius = 0.1 * length;
    body.gauss_points = 6;
    link.body = body;
    robot.links.push_back(link);
  };
  segment("planar", "base", JointType::Spherical, CurvatureModel::Planar, 0.3);
  segment("spatial", "planar", JointType::Universal, CurvatureModel::Spatial, 0.25);
  robot.links.push_back(test::rigidLink("tip", "spatial", JointType::Cylindrical, {0, 0, 1}));
  segment("side", "base", JointType::Revolute, CurvatureModel::Planar, 0.2);
  return robot;
}

std::vector<std::pair<std::string, RobotDescription>> everyBodyKindModels() {
  std::vector<std::pair<std::string, RobotDescription>> models;
  models.emplace_back("constant_curvature_tree", constantCurvatureTree());
  models.emplace_back("every_joint_chain", everyJointChain());
  models.emplace_back("fixed_unplaced_link", fixedUnplacedLink());
  for (unsigned seed : {1u, 2u}) models.emplace_back("rigid_tree", rigidTree(seed));
  for (int order : {2, 4}) {
    models.emplace_back("rod_magnus" + std::to_string(order), rod(order));
    models.emplace_back("jointed_rod_magnus" + std::to_string(order), jointedRod(order));
  }
  for (unsigned seed : {1u, 2u, 3u}) {
    models.emplace_back("hybrid_tree" + std::to_string(seed) + "_magnus4", hybridTree(seed, 4));
    models.emplace_back("hybrid_tree" + std::to_string(seed) + "_magnus2", hybridTree(seed, 2));
  }
  for (const char* stem :
       {"cable_manipulator", "contact_cylinder", "finray_finger", "hybrid_serial_robot",
        "paper_cable_manipulator", "paper_contact_cylinder", "paper_hybrid_serial_robot",
        "parallel_robot", "rigid_7dof_arm", "soft_cantilever", "tapered_free_fall",
        "underwater_robot", "pcc_planar_arm", "pcc_spatial_arm", "pcc_hybrid_robot"}) {
    models.emplace_back(stem, withoutExternalLoads(test::example(stem)));
  }
  return models;
}

// the worst relative error of a test over its models and states, recorded as the test property
// worst_<key> when it ends (--gtest_output=xml shows it)
class Worst {
 public:
  explicit Worst(std::string key) : key_("worst_" + std::move(key)) {}
  ~Worst() {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value_);
    ::testing::Test::RecordProperty(key_, text);
  }
  double operator()(double error) {
    value_ = std::max(value_, error);
    return error;
  }

 private:
  std::string key_;
  double value_ = 0.0;
};

constexpr unsigned kSeeds[] = {7u, 8u, 9u};

//-------------------- the body interface against finite differences

// vee(G^-1 dG) along a coordinate direction, by central differences of the pose
Vector6d bodyTwistByDifferences(const SE3& minus, const SE3& plus, const SE3& G, double h) {
  const Eigen::Matrix4d dG = (plus.matrix() - minus.matrix()) / (2.0 * h);
  return vee(G.inverse().matrix() * dG);
}

// one body's report at (q, v) (a copy: the workspace is rewritten by the next evaluation)
BodyEvaluation evaluateAt(const Model& model, Data& data, int b, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v) {
  ModelAgnosticWorkspace& w = data.agnostic;
  evaluateAgnosticBody(model, w.bodies[b], q.segment(w.idx_q[b], w.nq[b]),
                       v.segment(w.idx_q[b], w.nq[b]), w.evaluations[b]);
  return w.evaluations[b];
}

// every frame a body reports (its elements and D): pose, Jacobian, J v and Jdot v
struct ReportedFrame {
  SE3 G;
  Matrix6Xd J;
  Vector6d Jv, b;
};

std::vector<ReportedFrame> reportedFrames(const BodyEvaluation& body) {
  std::vector<ReportedFrame> frames;
  for (const AgnosticElement& e : body.elements) frames.push_back({e.G, e.J, e.Jv, e.b});
  if (body.tip_element < 0) frames.push_back({body.G_D, body.J_D, body.Jv_D, body.b_D});
  return frames;
}

TEST(ModelAgnosticBodyTest, JacobiansAndBiasesMatchFiniteDifferencesOfPoses) {
  Worst worst_J("J_vs_differences_of_G"), worst_b("Jdot_v_vs_differences_of_J");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 21);
    const double h = 1e-6;  // truncation O(h^2) ~ 1e-12, rounding ~ 1e-10
    const ModelAgnosticWorkspace& w = data.agnostic;
    for (int b = 0; b < static_cast<int>(w.bodies.size()); ++b) {
      const BodyEvaluation at = evaluateAt(model, data, b, x.q, x.v);
      const std::vector<ReportedFrame> frames = reportedFrames(at);
      ASSERT_FALSE(frames.empty());
      const auto v_b = x.v.segment(w.idx_q[b], w.nq[b]);
      // J's columns: along each coordinate of the body (zero beyond the reported columns)
      for (int c = 0; c < w.nq[b]; ++c) {
        Eigen::VectorXd q_plus = x.q, q_minus = x.q;
        q_plus(w.idx_q[b] + c) += h;
        q_minus(w.idx_q[b] + c) -= h;
        const std::vector<ReportedFrame> plus =
            reportedFrames(evaluateAt(model, data, b, q_plus, x.v));
        const std::vector<ReportedFrame> minus =
            reportedFrames(evaluateAt(model, data, b, q_minus, x.v));
        for (std::size_t k = 0; k < frames.size(); ++k) {
          const Vector6d expected = bodyTwistByDifferences(minus[k].G, plus[k].G, frames[k].G, h);
          const Vector6d actual =
              c < frames[k].J.cols() ? Vector6d(frames[k].J.col(c)) : Vector6d::Zero();
          EXPECT_LT(worst_J((actual - expected).norm() / std::max(1.0, expected.norm())), 1e-7)
              << "body " << b << " frame " << k << " column " << c;
        }
      }
      // J v and Jdot v = d/dt (J) v along q-dot = v
      const std::vector<ReportedFrame> plus =
          reportedFrames(evaluateAt(model, data, b, x.q + h * x.v, x.v));
      const std::vector<ReportedFrame> minus =
          reportedFrames(evaluateAt(model, data, b, x.q - h * x.v, x.v));
      for (std::size_t k = 0; k < frames.size(); ++k) {
        const Eigen::Index cols = frames[k].J.cols();
        const Vector6d Jv = frames[k].J * v_b.head(cols);
        EXPECT_LT((frames[k].Jv - Jv).norm(), 1e-12 * std::max(1.0, Jv.norm()));
        const Vector6d expected = (plus[k].J - minus[k].J) * v_b.head(cols) / (2.0 * h);
        EXPECT_LT(worst_b((frames[k].b - expected).norm() / std::max(1.0, expected.norm())), 1e-7)
            << "body " << b << " frame " << k;
      }
    }
  }
}

// a lumped part's I (6 x 6), H and M at (q, v) (copies)
struct LumpedReport {
  Matrix6d I;
  Matrix6Xd H;
  Eigen::MatrixXd M;
};

LumpedReport lumpedAt(const Model& model, Data& data, int b, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v) {
  const BodyEvaluation at = evaluateAt(model, data, b, q, v);
  return {at.elements[at.lumped.element].M.matrix(), at.lumped.H, at.lumped.M};
}

TEST(ModelAgnosticBodyTest, LumpedPartsDerivativesMatchFiniteDifferences) {
  // the rates and partials a lumped part reports (the planar arcs) against central differences
  // of its I, H and M along each own coordinate and along q-dot = v
  Worst worst("lumped_derivatives_vs_differences");
  int parts = 0;
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 23);
    const double h = 1e-6;
    const ModelAgnosticWorkspace& w = data.agnostic;
    for (int b = 0; b < static_cast<int>(w.bodies.size()); ++b) {
      const BodyEvaluation at = evaluateAt(model, data, b, x.q, x.v);
      const LumpedInertia& part = at.lumped;
      if (part.element < 0) continue;
      ++parts;
      const Eigen::Index first = w.idx_q[b] + part.offset;
      const Eigen::VectorXd w_part = x.v.segment(first, part.n);
      const auto scaled = [](const auto& error, const auto& expected) {
        return (error).norm() / std::max(1.0, expected.norm());
      };
      // along q-dot = v: I-dot, H-dot and (M-dot) w
      const LumpedReport plus = lumpedAt(model, data, b, x.q + h * x.v, x.v);
      const LumpedReport minus = lumpedAt(model, data, b, x.q - h * x.v, x.v);
      const Matrix6d I_dot = (plus.I - minus.I) / (2.0 * h);
      const Matrix6Xd H_dot = (plus.H - minus.H) / (2.0 * h);
      const Eigen::VectorXd Mdot_w = (plus.M - minus.M) * w_part / (2.0 * h);
      EXPECT_LT(worst(scaled(part.I_dot.matrix() - I_dot, I_dot)), 1e-7) << "body " << b;
      EXPECT_LT(worst(scaled(part.H_dot - H_dot, H_dot)), 1e-7) << "body " << b;
      EXPECT_LT(worst(scaled(part.Mdot_w - Mdot_w, Mdot_w)), 1e-7) << "body " << b;
      // along each own coordinate: dI/dy_j, (dH/dy_j) w and 1/2 w^T (dM/dy_j) w
      for (int j = 0; j < part.n; ++j) {
        Eigen::VectorXd q_plus = x.q, q_minus = x.q;
        q_plus(first + j) += h;
        q_minus(first + j) -= h;
        const LumpedReport up = lumpedAt(model, data, b, q_plus, x.v);
        const LumpedReport down = lumpedAt(model, data, b, q_minus, x.v);
        const Matrix6d dI = (up.I - down.I) / (2.0 * h);
        const Vector6d dH_w = (up.H - down.H) * w_part / (2.0 * h);
        const double dK = 0.5 * w_part.dot((up.M - down.M) * w_part) / (2.0 * h);
        EXPECT_LT(worst(scaled(part.dI[j].matrix() - dI, dI)), 1e-7) << "body " << b;
        EXPECT_LT(worst(scaled(part.dH_w.col(j) - dH_w, dH_w)), 1e-7) << "body " << b;
        EXPECT_LT(worst(std::abs(part.dK(j) - dK) / std::max(1.0, std::abs(dK))), 1e-7);
      }
    }
  }
  EXPECT_GT(parts, 3);  // the planar arcs of the tree and of the examples
}

//-------------------- against Tendril's recursive Newton-Euler and composite-rigid-body algorithms

TEST(ModelAgnosticDynamicsTest, IidEqualsInverseDynamicsWithoutGravity) {
  Worst worst("IID_vs_inverseDynamics");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Model weightless = model;
    weightless.gravity.setZero();
    Data data(model), reference(weightless);
    for (unsigned seed : kSeeds) {
      const test::State x = randomState(model, seed);
      const Eigen::VectorXd expected = inverseDynamics(weightless, reference, x.q, x.v, x.a);
      const Eigen::VectorXd actual = modelAgnosticIID(model, data, x.q, x.v, x.a);
      ASSERT_GT(expected.norm(), 0.0);
      EXPECT_LT(worst(relativeError(actual, expected)), 1e-12);
    }
  }
}

TEST(ModelAgnosticDynamicsTest, IdEqualsInverseDynamicsPlusElasticDampingMinusActuation) {
  Worst worst("ID_vs_inverseDynamics_plus_Kq_Dv_minus_Bu");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), reference(model);
    Eigen::VectorXd Bu(model.nv);
    for (unsigned seed : kSeeds) {
      const test::State x = randomState(model, seed);
      const double t = 0.7;  // where the examples' cable tensions and joint inputs are non-zero
      actuationForces(model, x.q, t, Bu);
      // inverseDynamics() = B u - K q - D v along a motion: internalForces() = -K q - D v
      const Eigen::VectorXd expected = inverseDynamics(model, reference, x.q, x.v, x.a, t) -
                                       internalForces(model, x.q, x.v) - Bu;
      const Eigen::VectorXd actual = modelAgnosticID(model, data, x.q, x.v, x.a, t);
      EXPECT_LT(worst(relativeError(actual, expected)), 1e-12);
      EXPECT_LT(relativeError(data.agnostic.Bu, Bu, 1.0), 1e-15);
    }
  }
}

TEST(ModelAgnosticDynamicsTest, MiidMassMatrixEqualsMassMatrixAndItsVectorEqualsIid) {
  Worst worst_M("M_vs_massMatrix"), worst_tau("MIID_vs_IID"), worst_sym("M_asymmetry");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), reference(model);
    for (unsigned seed : kSeeds) {
      const test::State x = randomState(model, seed);
      const Eigen::VectorXd iid = modelAgnosticIID(model, data, x.q, x.v, x.a);
      const Eigen::VectorXd miid = modelAgnosticMIID(model, data, x.q, x.v, x.a);
      const Eigen::MatrixXd& M = data.agnostic.M;
      const Eigen::MatrixXd expected = massMatrix(model, reference, x.q);
      EXPECT_LT(worst_M(relativeError(M, expected)), 1e-12);
      EXPECT_LT(worst_tau(relativeError(miid, iid)), 1e-14);
      EXPECT_LT(worst_sym(relativeError(M, Eigen::MatrixXd(M.transpose()))), 1e-14);
      // positive semi-definite; definite unless the reference is not either (a rod mode whose
      // basis vanishes at every collocation point of 2nd-order Magnus moves nothing: a zero row)
      const Eigen::VectorXd eigenvalues =
          Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M, Eigen::EigenvaluesOnly).eigenvalues();
      EXPECT_GT(eigenvalues.minCoeff(), -1e-13 * eigenvalues.maxCoeff());
      EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(M).info(),
                Eigen::LLT<Eigen::MatrixXd>(expected).info());
    }
  }
}

TEST(ModelAgnosticDynamicsTest, MidReturnsIdAndTheSameMassMatrix) {
  Worst worst_tau("MID_vs_ID"), worst_M("MID_M_vs_MIID_M");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 31);
    modelAgnosticMIID(model, data, x.q, x.v, x.a);
    const Eigen::MatrixXd M_iid = data.agnostic.M;
    const Eigen::VectorXd id = modelAgnosticID(model, data, x.q, x.v, x.a, 0.3);
    const Eigen::VectorXd mid = modelAgnosticMID(model, data, x.q, x.v, x.a, 0.3);
    EXPECT_LT(worst_tau(relativeError(mid, id)), 1e-14);
    EXPECT_LT(worst_M(relativeError(data.agnostic.M, M_iid)), 1e-14);
  }
}

//-------------------- structure (docs/theory/model-agnostic.md §7)

TEST(ModelAgnosticDynamicsTest, IidIsAffineInAccelerationWithTheMassMatrix) {
  // IID(q, v, a) - IID(q, v, 0) = M a, M from MIID; on a unit vector, a column of M
  Worst worst("affine_in_a");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 41);
    modelAgnosticMIID(model, data, x.q, x.v, x.a);
    const Eigen::MatrixXd M = data.agnostic.M;
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    const Eigen::VectorXd bias = modelAgnosticIID(model, data, x.q, x.v, zero);
    const Eigen::VectorXd full = modelAgnosticIID(model, data, x.q, x.v, x.a);
    EXPECT_LT(worst(relativeError(full - bias, M * x.a)), 1e-12);
    const Eigen::VectorXd e_last = Eigen::VectorXd::Unit(model.nv, model.nv - 1);
    const Eigen::VectorXd at_rest = modelAgnosticIID(model, data, x.q, zero, zero);
    EXPECT_LT(at_rest.norm(), 1e-300);  // no velocity, no acceleration, no gravity: nothing
    const Eigen::VectorXd column = modelAgnosticIID(model, data, x.q, zero, e_last);
    EXPECT_LT(worst(relativeError(column, M.col(model.nv - 1))), 1e-12);
  }
}

TEST(ModelAgnosticDynamicsTest, CoriolisIsQuadraticInVelocity) {
  Worst worst("c_quadratic_in_v");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 51);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    const Eigen::VectorXd c = modelAgnosticIID(model, data, x.q, x.v, zero);
    ASSERT_GT(c.norm(), 0.0);
    for (double alpha : {-1.0, 0.3, 2.5}) {
      const Eigen::VectorXd c_alpha = modelAgnosticIID(model, data, x.q, alpha * x.v, zero);
      EXPECT_LT(worst(relativeError(c_alpha, alpha * alpha * c)), 1e-12) << "alpha " << alpha;
    }
  }
}

TEST(ModelAgnosticDynamicsTest, PowerBalanceOfCoriolisAndMassMatrixRate) {
  // v^T c(q, v) = 1/2 v^T M-dot v, M-dot along q-dot = v by Richardson-extrapolated central
  // differences of MIID's M (truncation O(h^4))
  Worst worst("power_balance");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model);
    const test::State x = randomState(model, 61);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    const auto M_at = [&](const Eigen::VectorXd& q) -> Eigen::MatrixXd {
      modelAgnosticMIID(model, data, q, zero, zero);
      return data.agnostic.M;
    };
    const auto M_dot = [&](double h) -> Eigen::MatrixXd {
      return (M_at(x.q + h * x.v) - M_at(x.q - h * x.v)) / (2.0 * h);
    };
    const double h = 1e-3;
    const Eigen::MatrixXd Md = (4.0 * M_dot(h / 2) - M_dot(h)) / 3.0;
    const double expected = 0.5 * x.v.dot(Md * x.v);
    const double actual = x.v.dot(modelAgnosticIID(model, data, x.q, x.v, zero));
    // relative to the size of the terms of the sum, not of the sum (which may nearly cancel)
    const double scale = 0.5 * (Md.cwiseAbs() * x.v.cwiseAbs()).dot(x.v.cwiseAbs());
    ASSERT_GT(scale, 0.0);
    EXPECT_LT(worst(std::abs(actual - expected) / scale), 1e-7);
  }
}

TEST(ModelAgnosticDynamicsTest, GravityIsTheGradientOfThePotentialEnergy) {
  // g(q) = ID(q, 0, 0) - K q + B u = dU/dq, U = -sum m_j a_g . p_com,j over the lumped masses
  Worst worst("g_vs_dU_dq");
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data data(model), kinematics(model);
    const test::State x = randomState(model, 71);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    const double t = 0.7;
    Eigen::VectorXd g = modelAgnosticID(model, data, x.q, zero, zero, t);
    g += internalForces(model, x.q, zero) + data.agnostic.Bu;
    const Eigen::Vector3d a_g = model.gravity.tail<3>();
    const auto potential = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
      forwardKinematics(model, kinematics, q);
      double U = 0.0;
      for (int j = 0; j < model.n_vjoints(); ++j) {
        const VirtualJoint& joint = model.joints[j];
        if (joint.has_inertia) U -= joint.mass * a_g.dot(kinematics.g[j].act(joint.com));
      }
      return Eigen::VectorXd::Constant(1, U);
    };
    const Eigen::VectorXd expected =
        test::extrapolatedCentralDifference(potential, x.q, 1e-4).row(0).transpose();
    ASSERT_GT(expected.norm(), 0.0);
    EXPECT_LT(worst(relativeError(g, expected)), 1e-8);
  }
}

TEST(ModelAgnosticDynamicsTest, ReadsNothingStaleFromTheWorkspace) {
  // poison everything a pass writes (not the constants prepare() set: inertias, constant Jacobian
  // columns, the zero entries of M between branches) and expect the results of a fresh Data
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [name, robot] : everyBodyKindModels()) {
    SCOPED_TRACE(name);
    const Model model = buildModel(robot);
    Data fresh(model), poisoned(model);
    ModelAgnosticWorkspace& w = poisoned.agnostic;
    for (BodyEvaluation& body : w.evaluations) {
      for (AgnosticElement& e : body.elements) {
        for (Vector6d* vector : {&e.Jv, &e.b, &e.V, &e.A, &e.W}) vector->setConstant(nan);
        e.G.p.setConstant(nan);
        e.X.p.setConstant(nan);
      }
      body.G_D.p.setConstant(nan);
      body.Jv_D.setConstant(nan);
      body.b_D.setConstant(nan);
      if (LumpedInertia& part = body.lumped; part.element >= 0) {
        SpatialInertia& I = body.elements[part.element].M;
        for (SpatialInertia* inertia : {&I, &part.I_dot}) {
          inertia->m = nan;
          inertia->h.setConstant(nan);
          inertia->I.setConstant(nan);
        }
        for (SpatialInertia& dI : part.dI) dI = I;
        for (Matrix6Xd* matrix : {&part.H, &part.H_dot, &part.dH_w}) matrix->setConstant(nan);
        part.M.setConstant(nan);
        for (Eigen::VectorXd* vector : {&part.Mdot_w, &part.dK, &part.tau})
          vector->setConstant(nan);
      }
    }
    for (auto* vectors : {&w.V_D, &w.A_D, &w.F_D, &w.F_Q}) {
      for (Vector6d& vector : *vectors) vector.setConstant(nan);
    }
    for (SE3& X : w.X_D) X.p.setConstant(nan);
    for (auto* inertias : {&w.I_D, &w.I_Q}) {
      for (SpatialInertia& inertia : *inertias) inertia.m = nan;
    }
    for (Matrix6Xd& U : w.U) U.setConstant(nan);
    w.MJ.setConstant(nan);
    w.U_world.setConstant(nan);
    w.J_rows.setConstant(nan);
    for (SE3& pose : w.world_D) pose.p.setConstant(nan);
    for (Matrix6Xd& S : w.S_world) S.setConstant(nan);
    w.tau.setConstant(nan);
    w.Bu.setConstant(nan);
    const test::State x = randomState(model, 81);
    const Eigen::VectorXd expected = modelAgnosticMID(model, fresh, x.q, x.v, x.a, 0.4);
    const Eigen::VectorXd actual = modelAgnosticMID(model, poisoned, x.q, x.v, x.a, 0.4);
    EXPECT_TRUE(actual.allFinite());
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(poisoned.agnostic.M, fresh.agnostic.M);
  }
}

TEST(ModelAgnosticDynamicsTest, WrongSizesThrow) {
  const Model model = buildModel(jointedRod(4));
  Data data(model);
  const test::State x = randomState(model, 1);
  const Eigen::VectorXd short_vector = Eigen::VectorXd::Zero(model.nv - 1);
  EXPECT_THROW(modelAgnosticIID(model, data, short_vector, x.v, x.a), std::invalid_argument);
  EXPECT_THROW(modelAgnosticID(model, data, x.q, short_vector, x.a), std::invalid_argument);
  EXPECT_THROW(modelAgnosticMIID(model, data, x.q, x.v, short_vector), std::invalid_argument);
}

TEST(ModelAgnosticDynamicsTest, BodyPlanFollowsTheLinks) {
  // one body per link, parents first; rigid links one element at D, rods one per weighted point
  const Model model = buildModel(jointedRod(4));
  const Data data(model);
  const ModelAgnosticWorkspace& w = data.agnostic;
  ASSERT_EQ(w.bodies.size(), model.links.size());
  int elements = 0;
  for (int b = 0; b < static_cast<int>(w.bodies.size()); ++b) {
    EXPECT_LT(w.parent[b], b);
    const LinkInfo& info = model.links[w.link[b]];
    EXPECT_EQ(w.idx_q[b], info.idx_q);
    EXPECT_EQ(w.nq[b], info.nq);
    const BodyEvaluation& body = w.evaluations[b];
    if (info.kind == BodyKind::Rigid) {
      EXPECT_TRUE(std::holds_alternative<RigidAgnosticBody>(w.bodies[b]));
      EXPECT_EQ(body.elements.size(), 1u);
      EXPECT_EQ(body.tip_element, 0);
    } else {
      EXPECT_TRUE(std::holds_alternative<GvsRodAgnosticBody>(w.bodies[b]));
      EXPECT_EQ(body.tip_element, -1);
    }
    elements += static_cast<int>(body.elements.size());
  }
  int inertial_frames = 0;
  for (const VirtualJoint& joint : model.joints) inertial_frames += joint.has_inertia ? 1 : 0;
  EXPECT_EQ(elements, inertial_frames);
}

TEST(ModelAgnosticDynamicsTest, FixedUnplacedLinkIsTheFrameItHangsFrom) {
  // the model of everyBodyKindModels() that takes the passes' path for an element at Q with children
  const Model model = buildModel(fixedUnplacedLink());
  const Data data(model);
  const ModelAgnosticWorkspace& w = data.agnostic;
  const int middle = 1;
  ASSERT_EQ(model.links[w.link[middle]].name, "middle");
  const BodyEvaluation& body = w.evaluations[middle];
  ASSERT_EQ(body.elements.size(), 1u);
  EXPECT_TRUE(body.elements[0].at_P);
  EXPECT_EQ(w.has_placement[middle], 0);
  EXPECT_EQ(w.has_children[middle], 1);
}

}  // namespace
}  // namespace tendril
