#include "core/algorithm/tendon_tip_statics.hpp"

#include <Eigen/LU>
#include <cmath>
#include <stdexcept>

#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/model_agnostic_dynamics.hpp"
#include "core/algorithm/model_agnostic_kinematics.hpp"

namespace tendril {
namespace {

int bodyOfLink(const Data& data, int link) {
  const std::vector<int>& links = data.agnostic.link;
  for (std::size_t b = 0; b < links.size(); ++b) {
    if (links[b] == link) return static_cast<int>(b);
  }
  throw std::invalid_argument("tip target: link " + std::to_string(link) +
                              " has no model-agnostic body");
}

// The residual (r, e) of the file comment at (q, T): r in rows [0, nv), e below.
class StaticsResidual {
 public:
  StaticsResidual(const Model& model, Data& data, const std::vector<TipTarget>& targets, double t)
      : model_(model), data_(data), targets_(targets), t_(t), poses_(model, data) {
    for (const TipTarget& target : targets) bodies_.push_back(bodyOfLink(data, target.link));
    inputs_.setZero(static_cast<Eigen::Index>(inputNames(model).size()));
    tendon_offset_ = static_cast<Eigen::Index>(model.joint_inputs.size() + model.cables.size());
    zero_.setZero(model.nv);
    tendon_forces_.setZero(model.nv);
  }

  Eigen::Index rows() const { return model_.nv + 3 * static_cast<Eigen::Index>(targets_.size()); }

  void evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& tensions, Eigen::VectorXd& out) {
    out.resize(rows());
    out.head(model_.nv) = modelAgnosticID(model_, data_, q, zero_, zero_, t_);
    inputs_.segment(tendon_offset_, tensions.size()) = tensions;
    applyInputs(model_, data_, q, inputs_, tendon_forces_);
    out.head(model_.nv) -= tendon_forces_;
    modelAgnosticPoses(model_, data_, q, poses_);
    for (std::size_t k = 0; k < targets_.size(); ++k) {
      out.segment<3>(model_.nv + 3 * static_cast<Eigen::Index>(k)) =
          poses_.distal[static_cast<std::size_t>(bodies_[k])].p - targets_[k].position;
    }
  }

 private:
  const Model& model_;
  Data& data_;
  const std::vector<TipTarget>& targets_;
  double t_;
  ModelAgnosticPoses poses_;
  std::vector<int> bodies_;
  Eigen::VectorXd inputs_, zero_, tendon_forces_;
  Eigen::Index tendon_offset_ = 0;
};

double weightedNorm2(const Eigen::VectorXd& residual, Eigen::Index nv, double weight) {
  return residual.head(nv).squaredNorm() +
         weight * weight * residual.tail(residual.size() - nv).squaredNorm();
}

// Newton matrix at (q, T): central differences in q, the tendons' -B_T = A exactly
void newtonMatrix(const Model& model, Data& data, StaticsResidual& residual,
                  const Eigen::VectorXd& q, const Eigen::VectorXd& tensions, double step,
                  Eigen::MatrixXd& J) {
  const Eigen::Index nv = model.nv, m = tensions.size();
  J.setZero(residual.rows(), nv + m);
  Eigen::VectorXd shifted = q, plus, minus;
  for (Eigen::Index j = 0; j < nv; ++j) {
    shifted(j) = q(j) + step;
    residual.evaluate(shifted, tensions, plus);
    shifted(j) = q(j) - step;
    residual.evaluate(shifted, tensions, minus);
    shifted(j) = q(j);
    J.col(j) = (plus - minus) / (2.0 * step);
  }
  Eigen::VectorXd gradient;
  for (Eigen::Index i = 0; i < m; ++i) {
    lvpTendonLength(model, data, static_cast<int>(i), q, &gradient);
    J.col(nv + i).head(nv) = gradient;  // d(-B_T T)/dT_i = +dl_i/dq
  }
}

}  // namespace

Eigen::VectorXd tipPositions(const Model& model, Data& data, const std::vector<int>& links,
                             const Eigen::Ref<const Eigen::VectorXd>& q) {
  ModelAgnosticPoses poses(model, data);
  modelAgnosticPoses(model, data, q, poses);
  Eigen::VectorXd tips(3 * static_cast<Eigen::Index>(links.size()));
  for (std::size_t k = 0; k < links.size(); ++k) {
    tips.segment<3>(3 * static_cast<Eigen::Index>(k)) =
        poses.distal[static_cast<std::size_t>(bodyOfLink(data, links[k]))].p;
  }
  return tips;
}

TendonTipStaticsResult tendonTipStatics(const Model& model, Data& data,
                                        const std::vector<TipTarget>& targets,
                                        const Eigen::VectorXd& q0, const Eigen::VectorXd& T0,
                                        double t, const TendonTipStaticsOptions& options) {
  const auto m = static_cast<Eigen::Index>(model.lvp_tendons.size());
  if (3 * static_cast<Eigen::Index>(targets.size()) != m) {
    throw std::invalid_argument("tendon statics: " + std::to_string(targets.size()) +
                                " tip targets give " + std::to_string(3 * targets.size()) +
                                " equations for " + std::to_string(m) +
                                " tendon tensions (must be equal)");
  }
  if (q0.size() != model.nq || q0.size() != model.nv || T0.size() != m) {
    throw std::invalid_argument("tendon statics: q0 or T0 has the wrong size");
  }
  const Eigen::Index nv = model.nv;
  StaticsResidual residual(model, data, targets, t);
  TendonTipStaticsResult result;
  result.q = q0;
  result.tensions = T0;
  Eigen::VectorXd value, trial_value, step;
  Eigen::MatrixXd J;
  residual.evaluate(result.q, result.tensions, value);
  auto measure = [&](const Eigen::VectorXd& r) {
    result.force_residual = r.head(nv).cwiseAbs().maxCoeff();
    result.position_residual = r.tail(r.size() - nv).cwiseAbs().maxCoeff();
    return result.force_residual <= options.force_tolerance &&
           result.position_residual <= options.position_tolerance;
  };
  for (; result.iterations < options.max_iterations; ++result.iterations) {
    if (measure(value)) {
      result.converged = true;
      return result;
    }
    newtonMatrix(model, data, residual, result.q, result.tensions, options.q_step, J);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J);
    step = -lu.solve(value);
    if (!step.allFinite()) break;
    const double merit = weightedNorm2(value, nv, options.position_weight);
    double alpha = 1.0;
    for (int halving = 0; halving < 30; ++halving, alpha *= 0.5) {
      residual.evaluate(result.q + alpha * step.head(nv), result.tensions + alpha * step.tail(m),
                        trial_value);
      if (trial_value.allFinite() &&
          weightedNorm2(trial_value, nv, options.position_weight) < merit) {
        break;
      }
    }
    if (!trial_value.allFinite()) break;
    result.q += alpha * step.head(nv);
    result.tensions += alpha * step.tail(m);
    value = trial_value;
  }
  result.converged = measure(value);
  if (!result.converged) {
    result.message = "tendon statics: no convergence after " + std::to_string(result.iterations) +
                     " iterations (force residual " + std::to_string(result.force_residual) +
                     " N, tip error " + std::to_string(result.position_residual) + " m)";
  }
  return result;
}

TendonTipStaticsResult tendonTipStaticsByContinuation(const Model& model, Data& data,
                                                      const std::vector<TipTarget>& targets,
                                                      const Eigen::VectorXd& q0,
                                                      const Eigen::VectorXd& T0, int steps,
                                                      double t,
                                                      const TendonTipStaticsOptions& options) {
  std::vector<int> links;
  for (const TipTarget& target : targets) links.push_back(target.link);
  const Eigen::VectorXd start = tipPositions(model, data, links, q0);
  TendonTipStaticsResult result;
  result.q = q0;
  result.tensions = T0;
  std::vector<TipTarget> partial = targets;
  for (int step = 1; step <= steps; ++step) {
    const double fraction = static_cast<double>(step) / steps;
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const Eigen::Vector3d from = start.segment<3>(3 * static_cast<Eigen::Index>(k));
      partial[k].position = from + fraction * (targets[k].position - from);
    }
    result = tendonTipStatics(model, data, partial, result.q, result.tensions, t, options);
    if (!result.converged) {
      result.message +=
          " (continuation step " + std::to_string(step) + " of " + std::to_string(steps) + ")";
      return result;
    }
  }
  return result;
}

}  // namespace tendril
