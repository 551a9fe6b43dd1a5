#pragma once
// Workspace of Kim's chain rule on the articulated-body recursion
// (articulated_body_derivatives.hpp). Held by Data as one member (Data::articulated_derivatives)
// and sized once by its constructor; the passes never allocate.

#include <Eigen/Core>
#include <vector>

#include "core/math/dexp_derivatives.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {

struct ArticulatedDerivativeWorkspace {
  ArticulatedDerivativeWorkspace() = default;
  /// \brief Sizes everything for \p model (allocates).
  explicit ArticulatedDerivativeWorkspace(const Model& model);

  /// the articulated recursion applies and every joint is rigid (supportsArticulatedDerivatives())
  bool supported = false;

  //-------------------- per state (one per virtual joint, child frame)
  std::vector<Matrix6d> inertia;   ///< I_j: body inertia plus added mass
  std::vector<Vector6d> momentum;  ///< I_j V_j
  std::vector<Matrix6d> Pi;        ///< Î - U Psi U^T: what the joint hands its parent
  std::vector<Vector6d> beta;      ///< B̂ + Pi c + U Psi u: the bias it hands its parent
  /// joints whose subspace varies with their coordinates (universal, planar, spherical, free):
  /// column block k of dS_dq is dS/dq_k (6 x nq each), dsigma_dq and dsigma_dv are the partials
  /// of sigma = S-dot v_j (6 x nq); empty elsewhere
  std::vector<Matrix6Xd> dS_dq, dsigma_dq, dsigma_dv;
  std::vector<TangentExpansion> tangent;  ///< T(-Omega_j) expanded
  Eigen::VectorXd velocity;               ///< v of the state (nv)

  //-------------------- per direction (one per virtual joint, child frame)
  std::vector<char> moved;            ///< the frame moves along the direction (dP, dV nonzero)
  std::vector<Vector6d> dP;           ///< (g^-1 dg)^v of the frame
  std::vector<Vector6d> dV;           ///< d twist
  std::vector<Vector6d> dh;           ///< (g_pc^-1 dg_pc)^v of the joint
  std::vector<Vector6d> dc;           ///< d(eta + S_prescribed qdd_prescribed)
  std::vector<Vector6d> dB;           ///< d bias wrench B̂
  std::vector<Matrix6d> dI;           ///< d articulated inertia Î
  std::vector<char> dI_nonzero;       ///< dI holds something (the ancestors of a moved joint)
  std::vector<Vector6d> da;           ///< d acceleration
  std::vector<char> dS_nonzero;       ///< dS holds something
  std::vector<Matrix6Xd> dS;          ///< d motion subspace (6 x nq)
  std::vector<Matrix6Xd> dU;          ///< d(Î S_free) (6 x n_free)
  std::vector<Eigen::MatrixXd> dPsi;  ///< d(S_free^T Î S_free)^-1 (n_free x n_free)
  std::vector<Eigen::VectorXd> du;    ///< d(tau_free - S_free^T B̂) (n_free)

  Eigen::VectorXd dtau;  ///< the direction's change of the applied forces (nv)
  /// unit directions of the Jacobians' columns (nv each, zero between uses)
  Eigen::VectorXd unit_q, unit_v, unit_qdd;
  Matrix6Xd dS_free;                                                 ///< 6 x max nq scratch
  Eigen::MatrixXd small_scratch;                                     ///< max nq x max nq
  Eigen::MatrixXd psi_U_t, dpsi_U_t;                                 ///< max nq x 6
  Eigen::VectorXd vector_scratch, vector_scratch2, vector_scratch3;  ///< max nq
};

}  // namespace tendril
