// tendril_instruction_driver MODEL.json ALGORITHM N: calls one engine algorithm N times at one
// random state, for instruction counts under valgrind --tool=callgrind (noise-free, unlike wall
// time on a shared machine). count_instructions.sh runs it twice and prints instructions per call.
// ALGORITHM: id (inverse dynamics), idv (inverseDynamicsWithoutSubspaces), idm (ID + mass matrix
// from its kinematics), fd (forward dynamics), did (ID derivatives), dfd (forward-dynamics
// derivatives), aid, aiid, amid (the model-agnostic ID, IID, and ID with the mass matrix).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/algorithm/forward_dynamics.hpp"
#include "core/algorithm/forward_dynamics_derivatives.hpp"
#include "core/algorithm/inverse_dynamics.hpp"
#include "core/algorithm/inverse_dynamics_derivatives.hpp"
#include "core/algorithm/mass_matrix.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/io/json_io.hpp"

int main(int argc, char** argv) {
  using namespace tendril;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s MODEL.json id|idv|idm|fd|did|dfd|aid|aiid|amid N\n", argv[0]);
    return 2;
  }
  try {
    const std::string algorithm = argv[2];
    const int n = std::atoi(argv[3]);
    const Model model = buildModel(loadRobot(argv[1]));
    Data data(model);
    std::srand(1);  // Eigen's Random draws from std::rand: the same state every run
    const Eigen::VectorXd q = 0.3 * Eigen::VectorXd::Random(model.nq);
    const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv);
    const Eigen::VectorXd a = Eigen::VectorXd::Random(model.nv);
    double sink = 0.0;  // keeps the calls from being optimised away
    for (int i = 0; i < n; ++i) {
      if (algorithm == "id") {
        sink += inverseDynamics(model, data, q, v, a)(0);
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
