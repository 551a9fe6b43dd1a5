// Analytical derivatives against central finite differences, side by side: dID (one recursive
// pass) against 2 n or 4 n inverse dynamics, dFD (the integrators' Jacobian) against 4 n forward
// dynamics, and statics with either Jacobian. Models: Legendre rods of 24 and 72 dof and the
// bundled cable manipulator (36) and underwater robot (80).

#include <benchmark/benchmark.h>

#include <string>

#include "core/algorithm/actuation.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/statics.hpp"
#include "core/sim/dynamics_system.hpp"
#include "tests/benchmarks/bench_support.hpp"

namespace tendril::bench {
namespace {

RobotDescription legendreRod(int divisions) {
  StrainBasisDesc basis;  // docs/theory/gvs.md §14: orders (4, 4, 4, 2, 2, 2), 24 modes
  basis.order = {4, 4, 4, 2, 2, 2};
  RobotDescription robot = test::uniformRod(0.5, 0.01, basis, 5);
  robot.name = "legendre_rod_" + std::to_string(24 * divisions);
  DivisionDesc division = robot.links[0].soft().divisions[0];
  division.length = 0.5 / divisions;
  robot.links[0].soft().divisions.assign(divisions, division);
  return robot;
}

RobotDescription derivativeModel(const std::string& name) {
  if (name == "legendre_rod_24") return legendreRod(1);
  if (name == "legendre_rod_72") return legendreRod(3);
  return test::example(name);
}

// the state of every benchmark: test::randomState (q in [-0.5, 0.5], v and a in [-1, 1])
void BM_IdDerivativesAnalytic(benchmark::State& state, const std::string& name) {
  Workspace w(derivativeModel(name));
  for (auto _ : state) {
    inverseDynamicsDerivatives(*w.model, *w.data, w.x.q, w.x.v, w.x.a);
    benchmark::DoNotOptimize(w.data->dtau_dq.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// central differences of ID in q and, with `velocity`, in v: 2 n or 4 n evaluations of the
// cheapest ID (inverseDynamicsWithoutSubspaces: differences need no subspaces)
void idDifferences(benchmark::State& state, const std::string& name, bool velocity) {
  Workspace w(derivativeModel(name));
  const Model& model = *w.model;
  Eigen::MatrixXd dq(model.nv, model.nq), dv(model.nv, model.nv);
  Eigen::VectorXd x = w.x.q, y = w.x.v, plus(model.nv);
  const double h = 1e-6;
  for (auto _ : state) {
    for (int i = 0; i < model.nq; ++i) {
      x(i) = w.x.q(i) + h;
      plus = inverseDynamicsWithoutSubspaces(model, *w.data, x, w.x.v, w.x.a);
      x(i) = w.x.q(i) - h;
      dq.col(i) =
          (plus - inverseDynamicsWithoutSubspaces(model, *w.data, x, w.x.v, w.x.a)) / (2.0 * h);
      x(i) = w.x.q(i);
    }
    if (velocity) {
      for (int i = 0; i < model.nv; ++i) {
        y(i) = w.x.v(i) + h;
        plus = inverseDynamicsWithoutSubspaces(model, *w.data, w.x.q, y, w.x.a);
        y(i) = w.x.v(i) - h;
        dv.col(i) =
            (plus - inverseDynamicsWithoutSubspaces(model, *w.data, w.x.q, y, w.x.a)) / (2.0 * h);
        y(i) = w.x.v(i);
      }
    }
    benchmark::DoNotOptimize(dq.data());
    benchmark::DoNotOptimize(dv.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_IdDerivativesCentralFdQ(benchmark::State& state, const std::string& name) {
  idDifferences(state, name, false);
}

void BM_IdDerivativesCentralFdQV(benchmark::State& state, const std::string& name) {
  idDifferences(state, name, true);
}

// the reference of the "one derivative pass <= 4 (ID + M)" target
void BM_IdPlusMassMatrix(benchmark::State& state, const std::string& name) {
  Workspace w(derivativeModel(name));
  for (auto _ : state) {
    benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::DoNotOptimize(massMatrixFromKinematics(*w.model, *w.data).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// the integrators' Jacobian dFD/dq, dFD/dv at t = 1 s (cables tensioned): AnalyticJacobian and
// FiniteDifferenceJacobian, exactly as DynamicsSystem calls them
void fdJacobian(benchmark::State& state, const std::string& name, DynamicsJacobian& jacobian) {
  Workspace w(derivativeModel(name));
  Eigen::MatrixXd dq, dv;
  for (auto _ : state) {
    jacobian.compute(*w.model, *w.data, 1.0, w.x.q, w.x.v, dq, dv);
    benchmark::DoNotOptimize(dq.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_FdDerivativesAnalytic(benchmark::State& state, const std::string& name) {
  AnalyticJacobian jacobian;
  fdJacobian(state, name, jacobian);
}

void BM_FdDerivativesCentralFd(benchmark::State& state, const std::string& name) {
  FiniteDifferenceJacobian jacobian;
  fdJacobian(state, name, jacobian);
}

// the whole static solve from q = 0 at t = 3 s (cables at full tension), as `tendril-cli statics`
void statics(benchmark::State& state, const std::string& name, bool analytic) {
  Workspace w(derivativeModel(name));
  StaticsOptions options;
  options.time = 3.0;
  options.analytic_jacobian = analytic;
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(w.model->nq);
  int iterations = 0;
  for (auto _ : state) {
    const StaticsResult result = solveStatics(*w.model, *w.data, q0, options);
    if (!result.converged) state.SkipWithError(result.message.c_str());
    iterations = result.iterations;
    benchmark::DoNotOptimize(result.q.data());
  }
  state.counters["newton_iterations"] = iterations;
  w.label(state);
}

void BM_StaticsAnalytic(benchmark::State& state, const std::string& name) {
  statics(state, name, true);
}

void BM_StaticsFd(benchmark::State& state, const std::string& name) {
  statics(state, name, false);
}

const bool registered = [] {
  const char* models[] = {"legendre_rod_24", "cable_manipulator", "legendre_rod_72",
                          "underwater_robot"};
  const std::pair<const char*, void (*)(benchmark::State&, const std::string&)> per_model[] = {
      {"BM_IdDerivativesAnalytic", BM_IdDerivativesAnalytic},
      {"BM_IdDerivativesCentralFdQ", BM_IdDerivativesCentralFdQ},
      {"BM_IdDerivativesCentralFdQV", BM_IdDerivativesCentralFdQV},
      {"BM_IdPlusMassMatrix", BM_IdPlusMassMatrix},
      {"BM_FdDerivativesAnalytic", BM_FdDerivativesAnalytic},
      {"BM_FdDerivativesCentralFd", BM_FdDerivativesCentralFd}};
  for (const auto& [family, function] : per_model) {
    for (const char* model : models) {
      benchmark::RegisterBenchmark((std::string(family) + "/" + model).c_str(), function,
                                   std::string(model))
          ->Unit(benchmark::kMicrosecond);
    }
  }
  for (const char* model : {"cable_manipulator", "soft_cantilever"}) {
    benchmark::RegisterBenchmark((std::string("BM_StaticsAnalytic/") + model).c_str(),
                                 BM_StaticsAnalytic, std::string(model))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_StaticsFd/") + model).c_str(), BM_StaticsFd,
                                 std::string(model))
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace tendril::bench
