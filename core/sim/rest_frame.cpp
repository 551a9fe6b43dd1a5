#include "core/sim/rest_frame.hpp"

#include "core/sim/make_frame.hpp"

namespace tendril {

FramePtr restFrame(const RobotDescription& robot) {
  const Model model = buildModel(robot);
  Data data(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nq);
  return makeFrame(model, data, zero, zero, 0.0);
}

}  // namespace tendril
