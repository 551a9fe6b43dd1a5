#pragma once
// Forward dynamics with closed-chain joints and prescribed (joint-coordinate-controlled)
// coordinates (theory-gvs.md 3.4, 3.5).
//
// The coordinates split into free ones (u) and prescribed ones (k, q_k = f(t): their q, qdot and
// qdd are f, f', f'' whatever the state says, the paper's choice). The closed chains add the
// Baumgarte-stabilised index-1 constraint (46b), with T_B = model.constraint_time_constant:
//   M_uu qdd_u - A_u^T lambda = tau_u - ID_u(q, qdot, [0; qdd_k])                    (43, 46a)
//   A_u qdd_u = -(A_k qdd_k + A-dot qdot) - (2/T_B) A qdot - e/T_B^2                (46b)
// solved through the Schur complement S = A_u M_uu^-1 A_u^T of the KKT matrix (48, 49)
// [[M_uu, -A_u^T], [A_u, 0]]: M_uu is positive definite, and S is too exactly when A_u has full
// row rank (a redundant constraint makes it singular and is reported). The efforts holding the
// prescribed coordinates are u_k = (M qdd)_k + ID_k(q, qdot, 0) - tau_k - (A^T lambda)_k.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/constraints.hpp"
#include "core/model/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Workspace of the constrained forward dynamics, sized once (no allocation per call).
struct ConstrainedDynamicsData {
  explicit ConstrainedDynamicsData(const Model& model);

  ConstraintData constraints;
  std::vector<int> free_coordinates;  ///< u: every coordinate not prescribed (nu)
  Eigen::VectorXd q, v;               ///< the state with prescribed entries overwritten (nq, nv)
  Eigen::VectorXd qdd;                ///< accelerations (nv): qdd_k = f''(t)
  Eigen::VectorXd lambda;             ///< constraint forces (m): A^T lambda acts on the robot
  Eigen::VectorXd efforts;  ///< generalised forces holding each prescribed coordinate (n_k)
  Eigen::VectorXd forces;   ///< tau - ID(q, qdot, [0; qdd_k]) (nv)
  Eigen::VectorXd forces_u, qdd_u, c;  ///< (nu), (nu), (m)
  Eigen::MatrixXd M_uu, A_u, Y, S;     ///< nu x nu, m x nu, nu x m (M_uu^-1 A_u^T), m x m
  Eigen::LLT<Eigen::MatrixXd> M_factor;
  Eigen::LDLT<Eigen::MatrixXd> S_factor;
  std::string problem;  ///< why the last solve failed (redundant constraint), empty otherwise
};

/// \brief Whether the model has closed chains or prescribed coordinates.
[[nodiscard]] bool hasConstraints(const Model& model);

/// \brief Overwrites the prescribed entries of q and v with f(t) and f'(t).
void applyPrescribed(const Model& model, double t, Eigen::Ref<Eigen::VectorXd> q,
                     Eigen::Ref<Eigen::VectorXd> v);

/// \brief Accelerations of the constrained system at (t, q, v).
/// \param[in] tau_actuation B u(t) (dim model.nv), without -K q - D v
/// \return qdd, stored in cdd.qdd (nv); also cdd.lambda, cdd.efforts. NaN with cdd.problem set
///         when M or the Schur complement is singular (redundant constraint)
const Eigen::VectorXd& constrainedForwardDynamics(
    const Model& model, Data& data, ConstrainedDynamicsData& cdd,
    const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t);

/// \brief Residual of the index-3 equations (52a) for Newmark and statics, on the free rows:
///        R = [ (tau(q, v) - ID(q, v, a) + A^T lambda)_u ; e(q) ], tau = B u(t) - K q - D v.
///        The prescribed entries of q, v, a must already hold f, f', f''.
/// \param[out] R (nu + m)
void indexThreeResidual(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                        const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v,
                        const Eigen::Ref<const Eigen::VectorXd>& a,
                        const Eigen::Ref<const Eigen::VectorXd>& lambda, double t,
                        Eigen::Ref<Eigen::VectorXd> R);

}  // namespace tendril
