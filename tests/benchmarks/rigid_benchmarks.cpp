// The rigid line against its targets: ID, M, FD (both routes), dID and dFD on the rigid robots of
// issue 28 (tests/support/rigid_models.hpp), beside MuJoCo's mj_inverse, mj_forward and
// mjd_transitionFD on the same models in the same run. Pinocchio's figures, measured elsewhere,
// are in docs/PERFORMANCE.md ("The rigid line").

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/articulated_body_derivatives.hpp"
#include "core/algorithm/constrained_dynamics.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/hybrid_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/math/sin_cos.hpp"
#include "tests/benchmarks/bench_support.hpp"
#include "tests/support/mujoco_bridge.hpp"
#include "tests/support/rigid_models.hpp"

namespace tendril::bench {
namespace {

RobotDescription rigidModel(const std::string& name) {
  if (name == "arm7") return test::benchmarkArm();
  if (name == "humanoid35") return test::benchmarkHumanoid();
  if (name.starts_with("chain")) return test::benchmarkChain(std::stoi(name.substr(5)));
  if (name == "tree31_bf2") return test::branchedTree(31, 2);
  if (name == "tree31_bf5") return test::branchedTree(31, 5);
  return test::branchedTree(63, 2);  // tree63_bf2
}

using Call = void (*)(Workspace&);

void rigidCall(benchmark::State& state, const std::string& name, Call call) {
  Workspace w(rigidModel(name));
  for (auto _ : state) {
    call(w);
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void inverseDynamicsCall(Workspace& w) {
  benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
}
void massMatrixCall(Workspace& w) {
  benchmark::DoNotOptimize(massMatrix(*w.model, *w.data, w.x.q).data());
}
void factorisedForwardDynamicsCall(Workspace& w) {
  benchmark::DoNotOptimize(forwardDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
}
void articulatedBodyCall(Workspace& w) {
  benchmark::DoNotOptimize(
      articulatedBodyForwardDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
}
void idDerivativesCall(Workspace& w) {
  inverseDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a);
  benchmark::DoNotOptimize(w.data->dtau_dq.data());
}
void fdDerivativesCall(Workspace& w) {
  forwardDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a, 0.0);
  benchmark::DoNotOptimize(w.data->dqdd_dq.data());
}
// the two routes of M^-1 dID, for the crossover that preferredForwardDerivativeRoute() encodes
void fdDerivativesDenseCall(Workspace& w) {
  forwardDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a, 0.0,
                             ForwardDerivativeRoute::DenseFactor);
  benchmark::DoNotOptimize(w.data->dqdd_dq.data());
}
void fdDerivativesArticulatedCall(Workspace& w) {
  forwardDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a, 0.0,
                             ForwardDerivativeRoute::ArticulatedBody);
  benchmark::DoNotOptimize(w.data->dqdd_dq.data());
}
// Kim's chain rule on the articulated recursion (Table 6), the third route of dFD
void fdDerivativesKimCall(Workspace& w) {
  forwardDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a, 0.0,
                             ForwardDerivativeRoute::ArticulatedChainRule);
  benchmark::DoNotOptimize(w.data->dqdd_dq.data());
}

// the derivatives with every third link under position control: the simulator's partitioned route
// (constrainedForwardDynamicsDerivatives: factor of M_uu) against hybridDynamicsDerivatives
// (articulated solve), which also gives the efforts' and the prescribed columns, or Kim's chain
// rule on the hybrid recursion (Table 7, articulatedHybridDynamicsDerivatives)
enum class PrescribedRoute { Partitioned, Articulated, Kim };

void prescribedDerivativesCall(benchmark::State& state, const std::string& name,
                               PrescribedRoute route) {
  RobotDescription robot = rigidModel(name);
  for (std::size_t link = 1; link < robot.links.size(); link += 3) {
    JointInputDesc input;
    input.link = robot.links[link].name;
    input.mode = JointInputDesc::Mode::Position;
    input.value.kind = TimeFunction::Kind::Sine;
    input.value.amplitude = 0.4;
    input.value.frequency = 0.7;
    robot.joint_inputs.push_back(input);
  }
  Workspace w(robot);
  const Model& model = *w.model;
  ConstrainedDynamicsData cdd(model);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  constrainedForwardDynamicsDerivatives(model, *w.data, cdd, w.x.q, w.x.v, tau, 0.3);
  HybridDynamicsDerivatives out(model);
  const Eigen::VectorXd q = cdd.q, v = cdd.v, qdd = cdd.qdd;
  for (auto _ : state) {
    if (route == PrescribedRoute::Articulated) {
      hybridDynamicsDerivatives(model, *w.data, q, v, tau, cdd.prescribed_mask, qdd, 0.3, out);
      benchmark::DoNotOptimize(out.dy_dq.data());
    } else if (route == PrescribedRoute::Kim) {
      articulatedHybridDynamicsDerivatives(model, *w.data, q, v, tau, cdd.prescribed_mask, qdd, 0.3,
                                           out);
      benchmark::DoNotOptimize(out.dy_dq.data());
    } else {
      constrainedForwardDynamicsDerivatives(model, *w.data, cdd, q, v, tau, 0.3);
      benchmark::DoNotOptimize(cdd.dqdd_dq.data());
    }
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// MuJoCo at the image of the same state
void mujocoCall(benchmark::State& state, const std::string& name, int which) {
  Workspace w(rigidModel(name));
  test::MujocoTwin twin(*w.model);
  twin.setState(twin.toMujoco(w.x.q, w.x.v, w.x.a));
  const mjModel* m = twin.model();
  mjData* d = twin.data();
  const int nv = m->nv;
  std::vector<mjtNum> A(4 * nv * nv), B(2 * nv * nv);
  for (auto _ : state) {
    if (which == 0) {
      mj_inverse(m, d);
      benchmark::DoNotOptimize(d->qfrc_inverse);
    } else if (which == 1) {
      mj_forward(m, d);
      benchmark::DoNotOptimize(d->qacc);
    } else {
      mjd_transitionFD(m, d, 1e-6, 1, A.data(), nullptr, nullptr, nullptr);
      benchmark::DoNotOptimize(A.data());
    }
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// the sines and cosines of the joint angles: the batch the pose passes take (core/math/sin_cos.hpp)
// beside one libm sincos per angle, on the humanoid's 29 revolutes (range(0)) and other counts
std::vector<double> jointAngles(int n) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> angle(-3.2, 3.2);
  std::vector<double> angles(n);
  for (double& a : angles) a = angle(rng);
  return angles;
}

void BM_SinCos_Batch(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<double> angles = jointAngles(n);
  std::vector<double> s(n), c(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(angles.data());
    sinCos(angles.data(), n, s.data(), c.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SinCos_Batch)->Arg(7)->Arg(29)->Arg(100);

void BM_SinCos_Libm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<double> angles = jointAngles(n);
  std::vector<double> s(n), c(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(angles.data());
    for (int i = 0; i < n; ++i) {
      const double a = angles[i];  // one sincos call: gcc fuses sin and cos of the same value
      s[i] = std::sin(a);
      c[i] = std::cos(a);
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SinCos_Libm)->Arg(7)->Arg(29)->Arg(100);

const std::vector<std::string> kModels = {"arm7",       "chain7",     "chain30",
                                          "chain60",    "chain100",   "tree31_bf2",
                                          "tree31_bf5", "tree63_bf2", "humanoid35"};

[[maybe_unused]] const bool kRegistered = [] {
  const std::vector<std::pair<std::string, Call>> calls = {
      {"ID", inverseDynamicsCall},
      {"M", massMatrixCall},
      {"FD_factorised", factorisedForwardDynamicsCall},
      {"FD_articulated", articulatedBodyCall},
      {"dID", idDerivativesCall},
      {"dFD", fdDerivativesCall},
      {"dFD_DMM", fdDerivativesDenseCall},
      {"dFD_AZA", fdDerivativesArticulatedCall},
      {"dFD_Kim", fdDerivativesKimCall}};
  for (const std::string& model : kModels) {
    for (const auto& [label, call] : calls) {
      benchmark::RegisterBenchmark(("BM_Rigid_Tendril_" + label + "/" + model).c_str(), rigidCall,
                                   model, call);
    }
    if (model == "arm7" || model == "chain30" || model == "humanoid35") {
      const std::pair<const char*, PrescribedRoute> routes[] = {
          {"BM_Rigid_Tendril_dHD_partitioned/", PrescribedRoute::Partitioned},
          {"BM_Rigid_Tendril_dHD_articulated/", PrescribedRoute::Articulated},
          {"BM_Rigid_Tendril_dHD_Kim/", PrescribedRoute::Kim}};
      for (const auto& [prefix, route] : routes) {
        benchmark::RegisterBenchmark((prefix + model).c_str(), prescribedDerivativesCall, model,
                                     route);
      }
    }
    // MuJoCo 2.2's XML reader stops at 100 nested elements: no 100-link chain there
    if (model == "chain100") continue;
    const char* mujoco[] = {"mj_inverse", "mj_forward", "mjd_transitionFD"};
    for (int which = 0; which < 3; ++which) {
      benchmark::RegisterBenchmark(
          ("BM_Rigid_MuJoCo_" + std::string(mujoco[which]) + "/" + model).c_str(), mujocoCall,
          model, which);
    }
  }
  return true;
}();

}  // namespace
}  // namespace tendril::bench
