#include "core/algorithm/actuation.hpp"

#include <Eigen/Geometry>

namespace tendril {

CableDirection cableDirection(const CableSample& sample,
                              const Eigen::Ref<const Eigen::VectorXd>& q) {
  Vector6d xi = sample.xi_star;
  xi.noalias() += sample.Phi * q.segment(sample.idx_q, sample.nq);
  const Eigen::Vector3d T = xi.tail<3>() + xi.head<3>().cross(sample.d) + sample.d_prime;
  CableDirection direction;
  direction.norm = T.norm();
  direction.t = T / direction.norm;
  return direction;
}

double cableLength(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q) {
  double length = 0.0;
  for (const CableSample& sample : cable.samples)
    length += sample.weight * cableDirection(sample, q).norm;
  return length;
}

void addCableForces(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q,
                    double tension, Eigen::Ref<Eigen::VectorXd> tau) {
  for (const CableSample& sample : cable.samples) {
    const CableDirection direction = cableDirection(sample, q);
    Vector6d wrench;
    wrench << sample.d.cross(direction.t), direction.t;
    tau.segment(sample.idx_q, sample.nq).noalias() -=
        (tension * sample.weight) * (sample.Phi.transpose() * wrench);
  }
}

void actuationForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q, double t,
                     Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  for (const CompiledCable& cable : model.cables) {
    if (cable.controlled) continue;
    const double tension = cable.tension(t);
    if (tension != 0.0) addCableForces(cable, q, tension, tau);
  }
  for (const CompiledJointInput& input : model.joint_inputs) {
    if (!input.controlled) tau(input.coordinate) += input.value(t);
  }
}

void actuationJacobian(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       double t) {
  data.dtau_applied_dq.setZero();
  for (const CompiledCable& cable : model.cables) {
    const double tension = cable.controlled ? 0.0 : cable.tension(t);
    if (tension == 0.0) continue;
    for (const CableSample& sample : cable.samples) {
      const CableDirection direction = cableDirection(sample, q);
      // U = [d~; I]^T Phi = Phi_linear - d~ Phi_angular: how the cable tangent T moves with q
      auto U = data.scratch_3n.topRows(3).leftCols(sample.nq);
      auto PU = data.scratch_3n.bottomRows(3).leftCols(sample.nq);
      U = sample.Phi.bottomRows<3>();
      U.noalias() -= skew(sample.d) * sample.Phi.topRows<3>();
      const Eigen::Matrix3d projector =
          (Eigen::Matrix3d::Identity() - direction.t * direction.t.transpose()) / direction.norm;
      PU.noalias() = (tension * sample.weight) * projector * U;
      auto block = data.dtau_applied_dq.block(sample.idx_q, sample.idx_q, sample.nq, sample.nq);
      block.noalias() -= U.transpose() * PU;
    }
  }
}

double cableLengthCurvature(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v) {
  double sum = 0.0;
  for (const CableSample& sample : cable.samples) {
    const CableDirection direction = cableDirection(sample, q);
    // T' = U v with U = Phi_linear - d~ Phi_angular; |T|'' at rest in a = v^T U^T P U v
    const auto v_j = v.segment(sample.idx_q, sample.nq);
    const Eigen::Vector3d rate =
        sample.Phi.bottomRows<3>() * v_j - sample.d.cross(sample.Phi.topRows<3>() * v_j);
    const Eigen::Vector3d normal = rate - direction.t * direction.t.dot(rate);
    sum += sample.weight * normal.dot(rate) / direction.norm;
  }
  return sum;
}

}  // namespace tendril
