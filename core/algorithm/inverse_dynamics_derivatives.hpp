#pragma once
// Analytical derivatives of the inverse dynamics, dID/dq and dID/dv (docs/theory/gvs.md §9), by
// one forward and one backward recursion over the virtual joints, in world coordinates: the
// closed-form partials of IDSVA (docs/theory/rigid.md §3) generalised to rod intervals,
// whose motion subspace varies with their own coordinates (local terms C19, C20, C24, C29 from
// core/math/dexp_derivatives.hpp) and which share their coordinates along a division.
//
// No 6 x nv matrix is carried from frame to frame: each virtual joint contributes world columns
// for its own coordinates only (summed along its division), the subtree composites are 6 x 6, and
// the blocks between two divisions (or rigid joints) are formed once per pair from sums over their
// intervals. The derivation and the formulas are at the top of the .cpp file. Gravity is the base
// acceleration -G, so it needs no term of its own (the corrected D12 sign follows).

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief ID(q, v, a, t) and its derivatives: data.tau, data.dtau_dq (nv x nq), data.dtau_dv
/// (nv x nv); also the world columns that frameDerivatives() reads. dID/da is the mass matrix
/// (massMatrix()). Allocation-free.
void inverseDynamicsDerivatives(const Model& model, Data& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

/// \brief inverseDynamicsDerivatives() on the position stage already in data (see
///        inverseDynamicsAtKinematics()): after a forward dynamics at the same q, which formed it.
void inverseDynamicsDerivativesAtKinematics(const Model& model, Data& data,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            const Eigen::Ref<const Eigen::VectorXd>& a,
                                            double t = 0.0);

/// \brief inverseDynamicsDerivatives() by the route for every model (coordinate groups of any
///        size), which the rigid-tree route (models whose joints each own their coordinates,
///        supportsRigidTreeRoutes()) must reproduce; for the tests and the benchmarks that compare
///        the two.
void groupedInverseDynamicsDerivatives(const Model& model, Data& data,
                                       const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v,
                                       const Eigen::Ref<const Eigen::VectorXd>& a, double t = 0.0);

/// \brief Body-frame derivatives of one frame's twist and acceleration (6 x nv each).
struct FrameDerivatives {
  explicit FrameDerivatives(const Model& model)
      : J(Eigen::MatrixXd::Zero(6, model.nv)),
        deta_dq(Eigen::MatrixXd::Zero(6, model.nv)),
        deta_dot_dq(Eigen::MatrixXd::Zero(6, model.nv)),
        deta_dot_dv(Eigen::MatrixXd::Zero(6, model.nv)) {}
  Eigen::MatrixXd J;            ///< d eta / dv: the body Jacobian
  Eigen::MatrixXd deta_dq;      ///< d eta / dq
  Eigen::MatrixXd deta_dot_dq;  ///< d eta_dot / dq (eta_dot with gravity as base acceleration)
  Eigen::MatrixXd deta_dot_dv;  ///< d eta_dot / dv
};

/// \brief The derivatives of the twist and acceleration of a frame placed at g_offset in child
///        frame j (all zero for j < 0, the world), in that frame. Only the columns of j's
///        ancestors are non-zero. \pre inverseDynamicsDerivatives() ran at the state of interest.
void frameDerivatives(const Model& model, const Data& data, int j, const SE3& g_offset,
                      FrameDerivatives& out);

}  // namespace tendril
