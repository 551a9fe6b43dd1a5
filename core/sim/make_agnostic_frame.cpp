#include "core/sim/make_agnostic_frame.hpp"

#include "core/algorithm/model_agnostic_centreline.hpp"
#include "core/sim/make_frame.hpp"

namespace tendril {

FramePtr makeModelAgnosticFrame(const Model& model, Data& data, ModelAgnosticPoses& poses,
                                const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t,
                                std::uint64_t index, const Energies& energy,
                                const ControlRecord& control) {
  modelAgnosticPoses(model, data, q, poses);
  const std::shared_ptr<Frame> frame = frameWithoutShapes(q, v, t, index, energy, control);
  const RobotDescription& robot = model.description;
  const ModelAgnosticWorkspace& w = data.agnostic;
  std::vector<CentrelineSample> samples;
  for (std::size_t b = 0; b < w.bodies.size(); ++b) {
    const int link = w.link[b];
    const LinkInfo& info = model.links[link];
    if (info.kind != BodyKind::Rigid) {  // a rod, segment or LVP body: a tube along its axis
      samples.clear();
      centrelineSamples(model, w.bodies[b], w.evaluations[b], q.segment(info.idx_q, info.nq),
                        samples);
      RodShape rod;
      rod.link = link;
      for (const CentrelineSample& s : samples) {
        const SE3 g = poses.proximal[b] * s.G;
        rod.points.push_back(g.p);
        rod.orientations.push_back(g.R);
        rod.radii.push_back(s.radius);
      }
      frame->rods.push_back(std::move(rod));
    } else {
      const SE3& D = poses.distal[b];
      Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
      pose.linear() = D.R;
      pose.translation() = D.act(Eigen::Vector3d(robot.links[link].rigid().com.data()));
      frame->bodies.push_back(BodyShape{link, pose, robot.links[link].rigid().shape});
    }
    if (info.is_leaf) frame->tips_W.push_back(poses.distal[b].p);
  }
  return frame;
}

}  // namespace tendril
