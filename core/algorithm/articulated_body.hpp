#pragma once
// Articulated-body forward dynamics and hybrid dynamics in O(n) (docs/theory/rigid.md §1,
// §2; Kim's Lie-group formulation), for trees whose virtual joints each own their
// coordinates: rigid robots, constant-curvature segments and rods of one interval per division.
//
// Three passes over the virtual joints, in child-frame coordinates:
//   1. out:  poses, twists eta, the velocity-product accelerations c = Ad^-1 (S-dot v +
//            ad_{eta_base} S v) and the bias wrenches p = ad*_eta M eta - F_external;
//   2. in:   I_A = M + sum of the children's Ad* (I_A - U D^-1 U^T) Ad*^T,
//            p_A = p + sum of the children's Ad* (p_A + (I_A - U D^-1 U^T) c + U D^-1 u),
//            with U = I_A S, D = S^T U, u = tau - S^T p_A on the free coordinates;
//   3. out:  a = Ad^-1 a_parent + c, qdd = D^-1 (u - U^T a), a += S qdd.
// A prescribed coordinate (hybrid dynamics) enters pass 2 with its acceleration known: S_k qdd_k
// joins c and the coordinate leaves S, so it passes the whole I_A on. The force that holds it is
// S_k^T (I_A a + p_A) - tau_k, the wrench its joint transmits.
//
// With every coordinate free this is the forward dynamics M^-1 (tau - ID(q, v, 0)); with every one
// prescribed it is the inverse dynamics; the tests check both and the partitioned solve between.

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Whether every virtual joint owns its coordinates (no rod division of several
///        intervals, whose coordinates several frames share), which the recursion needs.
[[nodiscard]] bool supportsArticulatedBody(const Model& model);

/// \brief Mean over the coordinates of how many coordinates lie on the way from each to the root,
///        its own joint's included (a chain of n joints: (n + 1) / 2): the depth at which the O(n)
///        recursion starts to beat forming and factoring M.
inline constexpr double kArticulatedBodyDepth = 8.0;

/// \brief Whether the simulator takes the articulated-body recursion for \p model's forward
///        dynamics rather than the factor of M: where it applies and the coordinates lie on average
///        at least kArticulatedBodyDepth deep. Measured on the rigid robots (docs/PERFORMANCE.md,
///        "The rigid line"): the factor is level on chains of 7 to 10 joints and 4-20 % faster on
///        the binary and bf-5 trees, the recursion 3-5 % faster on a chain of 15, 8-16 % on 20,
///        level on the humanoid (mean depth 9.8) and 2.6x faster on a chain of 100.
[[nodiscard]] bool articulatedBodyIsFaster(const Model& model);

/// \brief forwardDynamics() by the articulated-body recursion: qdd = M^-1 (tau_actuation - K q -
///        D v - ID(q, v, 0)) without forming M. Fills data.qdd and the position and velocity
///        stages; not data.M nor its factor. Allocation-free.
/// \pre supportsArticulatedBody(model)
/// \return data.qdd (dim model.nv); NaN when an articulated inertia is not positive definite
const Eigen::VectorXd& articulatedBodyForwardDynamics(
    const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
    const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t = 0.0);

/// \brief Hybrid dynamics: the prescribed coordinates move with known accelerations, the others
///        under known forces. Solves M qdd + ID(q, v, 0) = tau + efforts with efforts zero on the
///        free coordinates and qdd given on the prescribed ones. Allocation-free.
/// \param[in] prescribed per coordinate (dim model.nv): nonzero where qdd is given
/// \param[in] qdd_prescribed read on the prescribed coordinates (dim model.nv)
/// \param[in] tau_actuation B u on every coordinate (dim model.nv), without -K q - D v
/// \return data.qdd (dim model.nv: the given values on the prescribed coordinates); the efforts
///         holding the prescribed coordinates in data.articulated.efforts (zero elsewhere)
/// \pre supportsArticulatedBody(model)
const Eigen::VectorXd& hybridDynamics(const Model& model, Data& data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v,
                                      const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                      const std::vector<char>& prescribed,
                                      const Eigen::Ref<const Eigen::VectorXd>& qdd_prescribed,
                                      double t = 0.0);

/// \brief M^-1 X by the articulated-body recursion, reusing the inertia sweep of the last call:
///        each column x becomes the accelerations that generalised force x alone gives, with no
///        velocity and no gravity. After articulatedBodyForwardDynamics() that is M^-1 x. After
///        hybridDynamics(), with the prescribed coordinates held at zero acceleration: y_u =
///        M_uu^-1 x_u on the free coordinates, and on the prescribed ones the efforts that hold
///        them, y_k = M_ku y_u - x_k (the derivatives of hybridDynamics() are such solves).
///        O(n) per column, allocation-free. Overwrites data.articulated's bias wrenches,
///        accelerations and tau (its scratch), not the inertia sweep: it may be called again.
/// \param[in,out] X nv x m
/// \pre articulatedBodyForwardDynamics() or hybridDynamics() was the last to write data, at the
///      q of interest, and returned finite accelerations
void articulatedBodySolveInPlace(const Model& model, Data& data, Eigen::Ref<Eigen::MatrixXd> X);

}  // namespace tendril
