#pragma once
// Tendon statics with tip targets on the model-agnostic family: the configuration q and the LVP
// tendon tensions T that hold the chosen bodies' tips (distal-frame origins) at given world
// points in static equilibrium. The reference generator of the seed paper's Simulation 1
// (docs/REPRODUCTION.md, "Simulation 1"; tools/helicoid_reference.cpp).
//
// Theory. Unknowns x = (q, T), nv + m of them (m tendons). Equations, nv + 3 k of them (k tips):
//
//   r(q, T) = ID(q, 0, 0, t) - B_T(q) T = 0,   B_T's column i = -(dl_i/dq)^T  (lvp_actuation.hpp)
//   e(q)    = p_tip(q) - p_target = 0          (3 per tip)
//
// i.e. g(q) + s(q, 0) + A(q) T = 0 with A = (dl/dq)^T, the seed paper's statics (55) with the
// tensions as unknowns instead of a Cartesian regulator's output. With 3 k = m the system is
// square and, wherever the elastic equilibrium is stable and the tendons can steer the tips,
// regular: Newton converges quadratically from a nearby solution (continuation in the targets,
// or in time along a trajectory). The Newton matrix
//
//   [ dr/dq   dr/dT ]   dr/dT = -B_T(q) = A(q)  (exact: r is linear in T)
//   [ de/dq   0     ]
//
// takes dr/dq and de/dq by central differences of (r, e) in q (the model-agnostic ID has no
// analytical q-derivative here; the stiffness of the tendons' A(q) T is in dr/dq). The step is
// damped by halving until the weighted residual |r|^2 + w^2 |e|^2 decreases. Tensions are not
// bounded: a negative one (a pushing tendon) is reported, and a caller that needs T >= 0 checks
// it (a regulator would choose among many tension sets; here the tips fix them).
//
// The description's own inputs at time t stay in ID (build the model with zero tensions when the
// unknowns are the whole tensions).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Where a body's tip (its distal frame's origin) must be held.
struct TipTarget {
  int link = 0;                                        ///< description link index
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< [m], world
};

struct TendonTipStaticsOptions {
  double force_tolerance = 1e-9;      ///< converged when max |r_i| <= this [N, N m]
  double position_tolerance = 1e-12;  ///< and max |e_i| <= this [m]
  int max_iterations = 40;
  double q_step = 1e-6;          ///< central-difference step in q
  double position_weight = 1e3;  ///< w [N/m]: 1 mm of tip error weighs as 1 N in the damping
};

struct TendonTipStaticsResult {
  Eigen::VectorXd q;               ///< configuration (nq)
  Eigen::VectorXd tensions;        ///< one per model.lvp_tendons [N]
  double force_residual = 0.0;     ///< max |ID(q, 0, 0, t) - B_T T| [N, N m]
  double position_residual = 0.0;  ///< max |p_tip - p_target| [m]
  int iterations = 0;
  bool converged = false;
  std::string message;  ///< why it stopped when not converged
};

/// \brief Solves r(q, T) = 0, e(q) = 0 from (q0, T0) by damped Newton (see the file comment).
/// \param[in] t time of the description's own inputs in ID
/// \throw std::invalid_argument when the system is not square (3 targets' rows != tendons), a
///        target names a link without a model-agnostic body, or q0, T0 have the wrong size
[[nodiscard]] TendonTipStaticsResult tendonTipStatics(const Model& model, Data& data,
                                                      const std::vector<TipTarget>& targets,
                                                      const Eigen::VectorXd& q0,
                                                      const Eigen::VectorXd& T0, double t = 0.0,
                                                      const TendonTipStaticsOptions& options = {});

/// \brief tendonTipStatics() reached by continuation: the targets move from the tips at q0 to
///        \p targets in \p steps equal steps, each solve starting from the previous one (for a
///        start far from the solution, e.g. the rest shape).
[[nodiscard]] TendonTipStaticsResult tendonTipStaticsByContinuation(
    const Model& model, Data& data, const std::vector<TipTarget>& targets,
    const Eigen::VectorXd& q0, const Eigen::VectorXd& T0, int steps, double t = 0.0,
    const TendonTipStaticsOptions& options = {});

/// \brief World positions of the distal-frame origins of \p links at q (3 per link, stacked).
[[nodiscard]] Eigen::VectorXd tipPositions(const Model& model, Data& data,
                                           const std::vector<int>& links,
                                           const Eigen::Ref<const Eigen::VectorXd>& q);

}  // namespace tendril
