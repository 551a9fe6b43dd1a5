#pragma once
// Forward dynamics with closed-chain joints and prescribed (joint-coordinate-controlled)
// coordinates (docs/theory/gvs.md §11, §12).
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
//
// Derivatives (50), (51), (44): differentiating M_uu qdd_u - A_u^T lambda = f_u and
// A_u qdd_u = c (qdd_k, q_k, qdot_k fixed: the prescribed columns and rows are zero) gives, for x a
// free q or qdot,
//   [[M_uu, -A_u^T], [A_u, 0]] [dqdd_u/dx; dlambda/dx] = [dr_u/dx; dc/dx]
//   dr/dq = d(B u)/dq - K - dID/dq(q, qdot, qdd) + d(A^T lambda)/dq,  dr/dqdot = -D - dID/dqdot
//   dc/dq = -d(A qdd + A-dot qdot)/dq - (2/T_B) d(A qdot)/dq - (1/T_B^2) de/dq
//   dc/dqdot = -d(A qdd + A-dot qdot)/dqdot - (2/T_B) A
// with ID differentiated at the constrained qdd (so that dM/dq qdd is included) and lambda held
// fixed in A^T lambda. The same Schur complement solves it: dlambda = S^-1 (dc - A_u M_uu^-1 dr),
// dqdd_u = M_uu^-1 (dr + A_u^T dlambda).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/constraints.hpp"
#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Workspace of the constrained forward dynamics, sized once (no allocation per call).
struct ConstrainedDynamicsData {
  explicit ConstrainedDynamicsData(const Model& model);

  ConstraintData constraints;
  std::vector<int> free_coordinates;  ///< u: every coordinate not prescribed (nu)
  std::vector<char> prescribed_mask;  ///< 1 on the prescribed coordinates (nv)
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

  // computed by constrainedForwardDynamicsDerivatives()
  Eigen::MatrixXd dqdd_dq, dqdd_dv;        ///< d qdd/dq, d qdd/dv (nv x nv); prescribed: 0
  Eigen::MatrixXd dforces_dq, dforces_dv;  ///< dr/dq, dr/dv (nv x nv)
  Eigen::MatrixXd dc_dq, dc_dv;            ///< dc/dq, dc/dv (m x nv)
  Eigen::MatrixXd X, dlambda;              ///< nu x nu, m x nu
};

/// \brief Whether the model has closed chains or prescribed coordinates.
[[nodiscard]] bool hasConstraints(const Model& model);

/// \brief Overwrites the prescribed entries of q and v with f(t) and f'(t).
void applyPrescribed(const Model& model, double t, Eigen::Ref<Eigen::VectorXd> q,
                     Eigen::Ref<Eigen::VectorXd> v);

/// \brief Accelerations of the constrained system at (t, q, v). Without closed chains, on a model
///        the articulated-body recursion takes, by hybridDynamics() (articulated_body.hpp): O(n),
///        and cdd's factors and forces are left as they were; otherwise by the partitioned solve.
/// \param[in] tau_actuation B u(t) (dim model.nv), without -K q - D v
/// \return qdd, stored in cdd.qdd (nv); also cdd.lambda, cdd.efforts. NaN with cdd.problem set
///         when M or the Schur complement is singular (redundant constraint)
const Eigen::VectorXd& constrainedForwardDynamics(
    const Model& model, Data& data, ConstrainedDynamicsData& cdd,
    const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t);

/// \brief constrainedForwardDynamics() by the partitioned solve whatever the model: also leaves
///        cdd.forces, cdd.M_uu, cdd.A_u and the factors of M_uu and S, which the derivatives and
///        the force-space Newton matrix reuse.
const Eigen::VectorXd& factorisedConstrainedDynamics(
    const Model& model, Data& data, ConstrainedDynamicsData& cdd,
    const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& tau_actuation, double t);

/// \brief Analytical derivatives of constrainedForwardDynamics() with respect to q and v (50),
///        (51), (44) into cdd.dqdd_dq and cdd.dqdd_dv (nv x nv; the rows and columns of the
///        prescribed coordinates are zero). Also everything constrainedForwardDynamics() fills.
///        NaN with cdd.problem set when the solve fails. Allocation-free.
/// \param[in] tau_actuation B u(t) at q (dim model.nv), without -K q - D v
void constrainedForwardDynamicsDerivatives(const Model& model, Data& data,
                                           ConstrainedDynamicsData& cdd,
                                           const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& v,
                                           const Eigen::Ref<const Eigen::VectorXd>& tau_actuation,
                                           double t);

/// \brief The parts of constrainedForwardDynamicsDerivatives() before the KKT solve: the force
///        and constraint derivatives cdd.dforces_dq, dforces_dv, dc_dq, dc_dv at the constrained
///        qdd, with cdd.M_uu and cdd.A_u (what an integrator's Newton matrix in force space needs,
///        second_order_linear_solver.hpp). False when the forward dynamics fails (cdd.problem
///        names a singular matrix; a non-finite qdd leaves it empty).
///        Allocation-free.
bool constrainedForceDerivatives(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
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

/// \brief Jacobian of indexThreeResidual() with respect to (q_u, lambda) when v and a follow q
///        through the Newmark formulas (10): dv/dq = v_rate I, da/dq = a_rate I (docs/theory/gvs.md
///        (52b, 12, 45)):
///          J = [[(dtau/dq - dID/dq + d(A^T lambda)/dq + v_rate (-D - dID/dv) - a_rate M)_uu,
///                A_u^T], [(de/dq)_u, 0]].
///        Also leaves the residual's A and e in cdd.constraints.
/// \param[out] J (nu + m) x (nu + m), sized by the caller
void indexThreeJacobian(const Model& model, Data& data, ConstrainedDynamicsData& cdd,
                        const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v,
                        const Eigen::Ref<const Eigen::VectorXd>& a,
                        const Eigen::Ref<const Eigen::VectorXd>& lambda, double t, double v_rate,
                        double a_rate, Eigen::Ref<Eigen::MatrixXd> J);

}  // namespace tendril
