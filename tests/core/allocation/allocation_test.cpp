// The recursive algorithms allocate nothing once Data is built (core/algorithm/data.hpp's
// contract): kinematics, inverse dynamics, mass matrix, actuation and forward dynamics, on every
// example; nor do the callbacks of the SUNDIALS integrators (the residual form's residual, Jacobian
// and mass refresh, the block linear solver) nor, once started, their steps. malloc is interposed
// in this executable (glibc's __libc_malloc underneath) to count calls; the executable is not built
// with the sanitizers, which interpose malloc themselves.

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/articulated_body_derivatives.hpp"
#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/hybrid_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "core/sim/controllers.hpp"
#include "core/sim/dynamics_system.hpp"
#include "core/sim/second_order_linear_solver.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/block_linear_solver.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);

void* malloc(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(pointer, size);
}
}

namespace tendril {
namespace {

long allocationsDuring(const std::function<void()>& call) {
  call();  // warm-up: lazily sized workspaces are allowed on the first call
  const long before = allocations.load();
  call();
  return allocations.load() - before;
}

Model exampleModel(const char* stem) {
  return buildModel(
      loadRobot(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / (std::string(stem) + ".json")));
}

// a SUNDIALS integrator on \p system: once it has taken its first steps (lazily sized
// workspaces), advancing it to the next output time allocates nothing, and it really steps
void expectSundialsStepsAllocateNothing(DynamicsSystem& system, IntegratorKind kind) {
  const Model& model = system.model();
  SimulationOptions options;
  options.integrator = kind;
  options.step = 0.0;
  options.relative_tolerance = 1e-4;
  options.absolute_tolerance = 1e-6;
  const auto stepper = kind == IntegratorKind::Bdf ? detail::makeBdf(system, options)
                                                   : detail::makeIda(system, options);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq), v = Eigen::VectorXd::Zero(model.nv);
  stepper->reset(0.0, q, v);
  std::string error;
  double t = 0.0;
  ASSERT_TRUE(stepper->advanceTo(t += 0.05, q, v, error)) << error;
  const long steps = stepper->steps();
  EXPECT_EQ(allocationsDuring([&] { stepper->advanceTo(t += 0.05, q, v, error); }), 0);
  EXPECT_GT(stepper->steps(), steps + 2);
}

// the three laws inside the dynamics: computed torque and PD on the controlled arm, PFBL of three
// tendon lengths on the cable manipulator
TEST(AllocationTest, ControllersInTheLoopAllocateNothing) {
  const std::filesystem::path examples(TENDRIL_EXAMPLES_DIR);
  RobotDescription arm = loadRobot(examples / "controlled_arm.json");
  std::vector<RobotDescription> robots{arm};
  arm.controllers[0].type = ControllerDesc::Type::PdGravityCompensation;
  robots.push_back(arm);
  RobotDescription tendons = loadRobot(examples / "cable_manipulator.json");
  ControllerDesc pfbl;
  pfbl.name = "pfbl";
  pfbl.type = ControllerDesc::Type::CollocatedPfbl;
  for (const char* cable : {"long1", "long2", "long3"}) {
    pfbl.controlled.push_back(
        {ControlledVariableDesc::Kind::CableLength, cable, TimeFunction::constant(0.85)});
    pfbl.inputs.push_back({cable, std::nullopt, std::nullopt});
  }
  tendons.controllers.push_back(pfbl);
  robots.push_back(tendons);
  for (const RobotDescription& robot : robots) {
    SCOPED_TRACE(robot.name);
    const Model model = buildModel(robot);
    ControllerLoop loop(model);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.3, 0.4);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.2);
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
    EXPECT_EQ(allocationsDuring([&] { loop.addForces(0.5, q, v, tau); }), 0);
    EXPECT_TRUE(tau.allFinite());
  }
}

TEST(AllocationTest, CounterSeesAllocations) {
  // the interposer works: a fresh std::vector and a fresh Eigen vector allocate
  EXPECT_GT(allocationsDuring([] {
              std::vector<double> v(100);
              (void)v;
            }),
            0);
  EXPECT_GT(allocationsDuring([] {
              Eigen::VectorXd x = Eigen::VectorXd::Ones(100);
              EXPECT_EQ(x.sum(), 100.0);
            }),
            0);
}

TEST(AllocationTest, RecursiveAlgorithmsAllocateNothing) {
  for (const auto& entry : std::filesystem::directory_iterator(TENDRIL_EXAMPLES_DIR)) {
    SCOPED_TRACE(entry.path().filename().string());
    const Model model = buildModel(loadRobot(entry.path()));
    Data data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.3, 0.4);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.2);
    const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.0);
    Eigen::VectorXd tau(model.nv);
    Eigen::MatrixXd J(6, model.nv);
    if (model.agnostic_only) {  // an LVP body: the model-agnostic family only
      EXPECT_EQ(allocationsDuring([&] { modelAgnosticIID(model, data, q, v, a); }), 0);
      EXPECT_EQ(allocationsDuring([&] { modelAgnosticID(model, data, q, v, a, 1.5); }), 0);
      EXPECT_EQ(allocationsDuring([&] { modelAgnosticMID(model, data, q, v, a, 1.5); }), 0);
      continue;
    }
    EXPECT_EQ(allocationsDuring([&] { forwardKinematics(model, data, q, v); }), 0);
    EXPECT_EQ(allocationsDuring([&] { frameJacobian(model, data, model.n_vjoints() - 1, J); }), 0);
    EXPECT_EQ(allocationsDuring([&] { inverseDynamics(model, data, q, v, a, 0.5); }), 0);
    EXPECT_EQ(allocationsDuring([&] { massMatrix(model, data, q); }), 0);
    EXPECT_EQ(allocationsDuring([&] { actuationForces(model, q, 1.0, tau); }), 0);
    EXPECT_EQ(allocationsDuring([&] { forwardDynamics(model, data, q, v, tau, 0.5); }), 0);
    EXPECT_EQ(allocationsDuring([&] { inverseDynamicsDerivatives(model, data, q, v, a, 0.5); }), 0);
    EXPECT_EQ(allocationsDuring([&] { actuationJacobian(model, data, q, 1.0); }), 0);
    EXPECT_EQ(allocationsDuring([&] { forwardDynamicsDerivatives(model, data, q, v, tau, 0.5); }),
              0);
    EXPECT_EQ(allocationsDuring([&] { modelAgnosticIID(model, data, q, v, a); }), 0);
    EXPECT_EQ(allocationsDuring([&] { modelAgnosticID(model, data, q, v, a, 0.5); }), 0);
    EXPECT_EQ(allocationsDuring([&] { modelAgnosticMIID(model, data, q, v, a); }), 0);
    EXPECT_EQ(allocationsDuring([&] { modelAgnosticMID(model, data, q, v, a, 0.5); }), 0);
    if (!data.articulated.supported) continue;
    std::vector<char> prescribed(static_cast<std::size_t>(model.nv), 0);
    prescribed[0] = 1;  // a joint partly prescribed when it has several coordinates
    EXPECT_EQ(allocationsDuring([&] { articulatedBodyForwardDynamics(model, data, q, v, tau); }),
              0);
    EXPECT_EQ(allocationsDuring([&] { hybridDynamics(model, data, q, v, tau, prescribed, a); }), 0);
  }
}

TEST(AllocationTest, ArticulatedBodyPassesAllocateNothingOnEveryJointType) {
  // free, spherical, planar, universal and cylindrical joints take the multi-coordinate branch
  RobotDescription robot;
  const JointType types[] = {JointType::Free,      JointType::Spherical,   JointType::Planar,
                             JointType::Universal, JointType::Cylindrical, JointType::Revolute};
  std::string parent = "world";
  for (const JointType type : types) {
    const std::string name = "link" + std::to_string(robot.links.size());
    LinkDesc link;
    link.name = name;
    link.parent = parent;
    link.joint.type = type;
    link.body = RigidBodyDesc{};
    robot.links.push_back(link);
    parent = name;
  }
  const Model model = buildModel(robot);
  Data data(model);
  ASSERT_TRUE(data.articulated.supported);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.3, 0.4);
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.2);
  const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.0);
  std::vector<char> prescribed(static_cast<std::size_t>(model.nv), 0);
  for (std::size_t i = 0; i < prescribed.size(); i += 3) prescribed[i] = 1;
  EXPECT_EQ(allocationsDuring([&] { articulatedBodyForwardDynamics(model, data, q, v, a); }), 0);
  EXPECT_EQ(allocationsDuring([&] { hybridDynamics(model, data, q, v, a, prescribed, a); }), 0);
  EXPECT_EQ(allocationsDuring([&] {
              forwardDynamicsDerivatives(model, data, q, v, a, 0.0,
                                         ForwardDerivativeRoute::ArticulatedBody);
            }),
            0);
  HybridDynamicsDerivatives derivatives(model);
  EXPECT_EQ(allocationsDuring([&] {
              hybridDynamicsDerivatives(model, data, q, v, a, prescribed, a, 0.0, derivatives);
            }),
            0);
  // Kim's chain rule (Tables 6 and 7) and one direction of it
  Eigen::MatrixXd M_inverse(model.nv, model.nv);
  EXPECT_EQ(allocationsDuring([&] {
              articulatedBodyForwardDynamicsDerivatives(model, data, q, v, a, 0.0, M_inverse);
            }),
            0);
  EXPECT_EQ(allocationsDuring([&] {
              forwardDynamicsDerivatives(model, data, q, v, a, 0.0,
                                         ForwardDerivativeRoute::ArticulatedChainRule);
            }),
            0);
  EXPECT_EQ(allocationsDuring([&] {
              articulatedHybridDynamicsDerivatives(model, data, q, v, a, prescribed, a, 0.0,
                                                   derivatives);
            }),
            0);
  Eigen::VectorXd dy(model.nv);
  EXPECT_EQ(
      allocationsDuring([&] { articulatedBodyDirectionalDerivative(model, data, q, v, a, dy); }),
      0);
}

TEST(AllocationTest, ConstrainedDynamicsAllocatesNothing) {
  // closed chains and prescribed coordinates: the accelerations, their analytical derivatives
  // (50, 51, 44) and the index-3 Newmark residual and Jacobian (52)
  for (const char* stem : {"finray_finger", "parallel_robot", "paper_hybrid_serial_robot"}) {
    SCOPED_TRACE(stem);
    const Model model = exampleModel(stem);
    ASSERT_TRUE(hasConstraints(model));
    Data data(model);
    ConstrainedDynamicsData cdd(model);
    const int nu = static_cast<int>(cdd.free_coordinates.size()), m = model.n_constraints;
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.03, 0.04);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.2);
    const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.0);
    const Eigen::VectorXd lambda = Eigen::VectorXd::LinSpaced(m, -1.0, 1.0);
    Eigen::VectorXd tau(model.nv), R(nu + m);
    Eigen::MatrixXd J(nu + m, nu + m);
    actuationForces(model, q, 0.5, tau);
    EXPECT_EQ(
        allocationsDuring([&] { constrainedForwardDynamics(model, data, cdd, q, v, tau, 0.5); }),
        0);
    EXPECT_EQ(allocationsDuring(
                  [&] { constrainedForwardDynamicsDerivatives(model, data, cdd, q, v, tau, 0.5); }),
              0);
    EXPECT_EQ(
        allocationsDuring([&] { constrainedForceDerivatives(model, data, cdd, q, v, tau, 0.5); }),
        0);
    EXPECT_EQ(
        allocationsDuring([&] { indexThreeResidual(model, data, cdd, q, v, a, lambda, 0.5, R); }),
        0);
    EXPECT_EQ(allocationsDuring(
                  [&] { indexThreeJacobian(model, data, cdd, q, v, a, lambda, 0.5, 2e3, 4e6, J); }),
              0);
  }
}

TEST(AllocationTest, ResidualFormAllocatesNothing) {
  // what IDA calls back: the residual, the Jacobian (analytic and central differences), the mass
  // refresh, and the setup and solve of the block linear solver
  for (const char* stem :
       {"paper_cable_manipulator", "paper_hybrid_serial_robot", "underwater_robot"}) {
    SCOPED_TRACE(stem);
    const Model model = exampleModel(stem);
    const int n = model.nv;
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.03, 0.04);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, 0.5, -0.2);
    const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
    for (JacobianKind kind : {JacobianKind::Analytic, JacobianKind::FiniteDifference}) {
      DynamicsSystem system(model, makeJacobian(kind));
      test::BlockLinearSolver solver(makeResidualMatrix, n);
      ResidualBlocks& blocks = residualBlocks(solver.matrix());
      blocks.c = 2e3;
      blocks.mass = &system.data();
      EXPECT_EQ(allocationsDuring([&] { system.residual(0.5, q, v, a); }), 0);
      EXPECT_EQ(allocationsDuring(
                    [&] { system.residualJacobian(0.5, q, v, a, blocks.dqdd_dq, blocks.dqdd_dv); }),
                0);
      EXPECT_EQ(allocationsDuring([&] {
                  system.residual(0.5, q, v, a);
                  system.residualMassMatrix();
                  system.factorResidualMass();
                }),
                0);
      EXPECT_EQ(allocationsDuring([&] { solver.setup(); }), 0);
      EXPECT_EQ(allocationsDuring([&] { solver.solve(); }), 0);
    }
  }
}

TEST(AllocationTest, ForceSpaceNewtonMatrixAllocatesNothing) {
  // what BDF calls back for its Newton matrix: the force-space Jacobian (analytic and central
  // differences), and the setup and solve of the block linear solver, with and without closed
  // chains and prescribed coordinates
  for (const char* stem : {"paper_cable_manipulator", "parallel_robot", "finray_finger"}) {
    SCOPED_TRACE(stem);
    const Model model = exampleModel(stem);
    const int n = model.nv;
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.03, 0.04);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, 0.5, -0.2);
    for (JacobianKind kind : {JacobianKind::Analytic, JacobianKind::FiniteDifference}) {
      DynamicsSystem system(model, makeJacobian(kind));
      test::BlockLinearSolver solver(makeForceSpaceMatrix, n);
      ForceSpaceBlocks& blocks = forceSpaceBlocks(solver.matrix());
      blocks.gamma = 1e-3;
      EXPECT_EQ(allocationsDuring([&] { system.forceSpaceJacobian(0.5, q, v, blocks); }), 0);
      EXPECT_EQ(allocationsDuring([&] { solver.setup(); }), 0);
      EXPECT_EQ(allocationsDuring([&] { solver.solve(); }), 0);
    }
  }
}

TEST(AllocationTest, SundialsStepsAllocateNothing) {
  // once an integrator has taken its first steps (lazily sized workspaces), advancing it to the
  // next output time allocates nothing: every callback, and the integrators themselves (BDF's
  // force-space Newton matrix with and without closed chains)
  for (const char* stem :
       {"paper_cable_manipulator", "paper_hybrid_serial_robot", "parallel_robot"}) {
    const Model model = exampleModel(stem);
    for (const auto& [kind, jacobian] :
         {std::pair{IntegratorKind::Bdf, JacobianKind::Analytic},
          std::pair{IntegratorKind::Bdf, JacobianKind::FiniteDifference},
          std::pair{IntegratorKind::Ida, JacobianKind::Analytic}}) {
      if (kind == IntegratorKind::Ida && model.n_constraints > 0) continue;  // BDF alone
      SCOPED_TRACE(std::string(stem) + " " + integratorName(kind) +
                   (jacobian == JacobianKind::Analytic ? " analytic" : " fd"));
      DynamicsSystem system(model, makeJacobian(jacobian));
      expectSundialsStepsAllocateNothing(system, kind);
    }
  }
}

TEST(AllocationTest, LvpBodiesAllocateNothing) {
  // the LVP example (a hollow body, its tendons and its cavity pressure): the ID and MID, whose
  // quadrature pass runs on blocks of hyper-dual numbers sized by prepare(), and the tendons'
  // anchor Jacobians
  const Model model = exampleModel("lvp_single_body");
  Data data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.03, 0.04);
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv, 0.5, -0.2);
  const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(model.nv, -1.0, 1.0);
  modelAgnosticMID(model, data, q, v, a, 0.5);
  EXPECT_EQ(allocationsDuring([&] { modelAgnosticID(model, data, q, v, a, 0.5); }), 0);
  EXPECT_EQ(allocationsDuring([&] { modelAgnosticMID(model, data, q, v, a, 0.5); }), 0);
}

TEST(AllocationTest, ModelAgnosticFamilyAllocatesNothing) {
  // the per-step calls of every integrator on the model-agnostic family (MID + Cholesky, central
  // differences of its ID, the force-space blocks of BDF), and BDF and IDA steps once started
  for (const char* stem : {"soft_cantilever", "pcc_planar_arm", "hybrid_serial_robot"}) {
    SCOPED_TRACE(stem);
    const Model model = exampleModel(stem);
    const int n = model.nv;
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq, -0.03, 0.04);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, 0.5, -0.2);
    const Eigen::VectorXd a = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
    DynamicsSystem system(model, makeJacobian(JacobianKind::Analytic),
                          DynamicsFamily::ModelAgnostic);
    Eigen::MatrixXd dq(n, n), dv(n, n);
    system.jacobian(0.5, q, v, dq, dv);  // the mass factor's kind is chosen on first use
    EXPECT_EQ(allocationsDuring([&] { system.acceleration(0.5, q, v); }), 0);
    EXPECT_EQ(allocationsDuring([&] { system.jacobian(0.5, q, v, dq, dv); }), 0);
    EXPECT_EQ(allocationsDuring([&] { system.residual(0.5, q, v, a); }), 0);
    EXPECT_EQ(allocationsDuring([&] { system.residualJacobian(0.5, q, v, a, dq, dv); }), 0);
    EXPECT_EQ(allocationsDuring([&] {
                system.residual(0.5, q, v, a);
                system.residualMassMatrix();
                system.factorResidualMass();
              }),
              0);
    EXPECT_EQ(allocationsDuring([&] { system.energies(q, v); }), 0);
    test::BlockLinearSolver solver(makeForceSpaceMatrix, n);
    ForceSpaceBlocks& blocks = forceSpaceBlocks(solver.matrix());
    blocks.gamma = 1e-3;
    system.forceSpaceJacobian(0.5, q, v, blocks);
    EXPECT_EQ(allocationsDuring([&] { system.forceSpaceJacobian(0.5, q, v, blocks); }), 0);
    for (IntegratorKind kind : {IntegratorKind::Bdf, IntegratorKind::Ida}) {
      SCOPED_TRACE(integratorName(kind));
      DynamicsSystem stepped(model, makeJacobian(JacobianKind::Analytic),
                             DynamicsFamily::ModelAgnostic);
      expectSundialsStepsAllocateNothing(stepped, kind);
    }
  }
}

}  // namespace
}  // namespace tendril
