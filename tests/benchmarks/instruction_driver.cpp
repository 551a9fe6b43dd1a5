// tendril_instruction_driver MODEL ALGORITHM N: calls one engine algorithm N times at one
// random state, for instruction counts under valgrind --tool=callgrind (noise-free, unlike wall
// time on a shared machine). count_instructions.sh runs it twice and prints instructions per call.
// MODEL: a JSON file, or one of the rigid robots of tests/support/rigid_models.hpp by its benchmark
// name (arm7, chainN, humanoid35, tree31_bf2, tree31_bf5, tree63_bf2).
// ALGORITHM: id (inverse dynamics), m (mass matrix), mg (its grouped route), idv
// (inverseDynamicsWithoutSubspaces), idm (ID + mass matrix from its kinematics), fd (forward
// dynamics), did (ID derivatives), didg (their grouped route), dfd (forward-dynamics derivatives),
// aid, aiid, amid (the model-agnostic ID, IID, and ID with the mass matrix).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/kinematics.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"
#include "tests/support/rigid_models.hpp"

namespace {

tendril::RobotDescription robotNamed(const std::string& name) {
  using namespace tendril;
  if (name == "arm7") return test::benchmarkArm();
  if (name == "humanoid35") return test::benchmarkHumanoid();
  if (name.starts_with("chain")) return test::benchmarkChain(std::stoi(name.substr(5)));
  if (name == "tree31_bf2") return test::branchedTree(31, 2);
  if (name == "tree31_bf5") return test::branchedTree(31, 5);
  if (name == "tree63_bf2") return test::branchedTree(63, 2);
  return loadRobot(name);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tendril;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s MODEL id|m|mg|idv|idm|fd|did|didg|dfd|aid|aiid|amid N\n",
                 argv[0]);
    return 2;
  }
  try {
    const std::string algorithm = argv[2];
    const int n = std::atoi(argv[3]);
    const Model model = buildModel(robotNamed(argv[1]));
    Data data(model);
    std::srand(1);  // Eigen's Random draws from std::rand: the same state every run
    const Eigen::VectorXd q = 0.3 * Eigen::VectorXd::Random(model.nq);
    const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv);
    const Eigen::VectorXd a = Eigen::VectorXd::Random(model.nv);
    double sink = 0.0;  // keeps the calls from being optimised away
    for (int i = 0; i < n; ++i) {
      if (algorithm == "id") {
        sink += inverseDynamics(model, data, q, v, a)(0);
      } else if (algorithm == "m") {
        sink += massMatrix(model, data, q)(0, 0);
      } else if (algorithm == "mg") {
        forwardKinematics(model, data, q);
        sink += groupedMassMatrixFromKinematics(model, data)(0, 0);
      } else if (algorithm == "idv") {
        sink += inverseDynamicsWithoutSubspaces(model, data, q, v, a)(0);
      } else if (algorithm == "idm") {
        sink += inverseDynamics(model, data, q, v, a)(0);
        massMatrixFromKinematics(model, data);
        sink += data.M(0, 0);
      } else if (algorithm == "fd") {
        sink += forwardDynamics(model, data, q, v, a)(0);
      } else if (algorithm == "did") {
        inverseDynamicsDerivatives(model, data, q, v, a);
        sink += data.dtau_dq(0, 0);
      } else if (algorithm == "didg") {
        groupedInverseDynamicsDerivatives(model, data, q, v, a);
        sink += data.dtau_dq(0, 0);
      } else if (algorithm == "dfd") {
        forwardDynamicsDerivatives(model, data, q, v, a, 0.0);
        sink += data.dqdd_dq(0, 0);
      } else if (algorithm == "aid") {
        sink += modelAgnosticID(model, data, q, v, a)(0);
      } else if (algorithm == "aiid") {
        sink += modelAgnosticIID(model, data, q, v, a)(0);
      } else if (algorithm == "amid") {
        sink += modelAgnosticMID(model, data, q, v, a)(0);
        sink += data.agnostic.M(0, 0);
      } else {
        std::fprintf(stderr, "unknown algorithm '%s'\n", algorithm.c_str());
        return 2;
      }
    }
    std::printf("%s %s x %d (%g)\n", argv[1], algorithm.c_str(), n, sink);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}
