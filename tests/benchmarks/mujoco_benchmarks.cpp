// Tendril and MuJoCo side by side on the same rigid models, in the same run. Every MuJoCo row
// that ends in "_fromq" starts from qpos/qvel, like Tendril's calls, which always redo kinematics;
// the others time the bare kernel on precomputed kinematics.

#include <benchmark/benchmark.h>

#include "core/algorithm/articulated_body.hpp"
#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "tests/benchmarks/bench_support.hpp"
#include "tests/support/mujoco_bridge.hpp"

namespace tendril::bench {
namespace {

// arguments: 0 = the bundled rigid_7dof_arm, n > 0 = a revolute chain of n links
RobotDescription comparedRobot(benchmark::State& state) {
  return state.range(0) == 0 ? test::example("rigid_7dof_arm")
                             : revoluteChain(static_cast<int>(state.range(0)));
}

struct Twin {
  explicit Twin(const Workspace& w)
      : twin(*w.model), m(twin.model()), d(twin.data()), result(twin.nv()) {
    twin.setState(twin.toMujoco(w.x.q, w.x.v, w.x.a));
    // kinematics once, for the bare kernels
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_comVel(m, d);
  }
  test::MujocoTwin twin;
  const mjModel* m;
  mjData* d;
  Eigen::VectorXd result;
};

void BM_Compare_Tendril_InverseDynamics(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  for (auto _ : state) {
    benchmark::DoNotOptimize(inverseDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_MuJoCo_mj_inverse(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  for (auto _ : state) {
    mj_inverse(t.m, t.d);
    benchmark::DoNotOptimize(t.d->qfrc_inverse);
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// like-for-like with inverseDynamics: kinematics, com frames, velocities, then RNE
void BM_Compare_MuJoCo_rne_fromq(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  for (auto _ : state) {
    mj_kinematics(t.m, t.d);
    mj_comPos(t.m, t.d);
    mj_comVel(t.m, t.d);
    mj_rne(t.m, t.d, 1, t.result.data());
    benchmark::DoNotOptimize(t.result.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_MuJoCo_rne(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  for (auto _ : state) {
    mj_rne(t.m, t.d, 1, t.result.data());
    benchmark::DoNotOptimize(t.result.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_Tendril_MassMatrix(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  for (auto _ : state) {
    benchmark::DoNotOptimize(massMatrix(*w.model, *w.data, w.x.q).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// like-for-like with massMatrix: kinematics, com frames, CRB, dense copy
void BM_Compare_MuJoCo_crb_fullM_fromq(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  Eigen::MatrixXd M(t.m->nv, t.m->nv);
  for (auto _ : state) {
    mj_kinematics(t.m, t.d);
    mj_comPos(t.m, t.d);
    mj_crb(t.m, t.d);
    mj_fullM(t.m, M.data(), t.d->qM);
    benchmark::DoNotOptimize(M.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_MuJoCo_crb_fullM(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  Eigen::MatrixXd M(t.m->nv, t.m->nv);
  for (auto _ : state) {
    mj_crb(t.m, t.d);
    mj_fullM(t.m, M.data(), t.d->qM);
    benchmark::DoNotOptimize(M.data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_Tendril_ForwardDynamics(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  for (auto _ : state) {
    benchmark::DoNotOptimize(forwardDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

void BM_Compare_Tendril_ArticulatedBodyForwardDynamics(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        articulatedBodyForwardDynamics(*w.model, *w.data, w.x.q, w.x.v, w.x.a).data());
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// mj_forward with contacts and constraints disabled: kinematics, CRB, sparse LDL, RNE, solve
void BM_Compare_MuJoCo_mj_forward(benchmark::State& state) {
  Workspace w(comparedRobot(state));
  Twin t(w);
  for (auto _ : state) {
    mj_forward(t.m, t.d);
    benchmark::DoNotOptimize(t.d->qacc);
    benchmark::ClobberMemory();
  }
  w.label(state);
}

// 0: rigid_7dof_arm; then chains of 7 to 56 links
#define TENDRIL_BENCH_COMPARE(bm) BENCHMARK(bm)->Arg(0)->Arg(7)->Arg(14)->Arg(28)->Arg(56)

TENDRIL_BENCH_COMPARE(BM_Compare_Tendril_InverseDynamics);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_mj_inverse);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_rne_fromq);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_rne);
TENDRIL_BENCH_COMPARE(BM_Compare_Tendril_MassMatrix);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_crb_fullM_fromq);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_crb_fullM);
TENDRIL_BENCH_COMPARE(BM_Compare_Tendril_ForwardDynamics);
TENDRIL_BENCH_COMPARE(BM_Compare_Tendril_ArticulatedBodyForwardDynamics);
TENDRIL_BENCH_COMPARE(BM_Compare_MuJoCo_mj_forward);

}  // namespace
}  // namespace tendril::bench
