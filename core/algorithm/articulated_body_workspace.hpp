#pragma once
// Workspace of the articulated-body forward and hybrid dynamics (articulated_body.hpp). Held by
// Data as one member (Data::articulated) and sized once by its constructor; the passes never
// allocate.

#include <Eigen/Core>
#include <vector>

#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {

struct ArticulatedBodyWorkspace {
  ArticulatedBodyWorkspace() = default;
  /// \brief Sizes everything for \p model (allocates).
  explicit ArticulatedBodyWorkspace(const Model& model);

  /// every joint owns its coordinates (supportsArticulatedBody())
  bool supported = false;

  // per virtual joint, in its child frame
  std::vector<Matrix6d> I_A;  ///< articulated inertia of the joint's subtree
  std::vector<Vector6d> p_A;  ///< its bias wrench (velocity products minus external loads)
  std::vector<Vector6d> c;    ///< velocity-product acceleration S-dot v + ad_{eta_base} S v
  std::vector<Vector6d> a;    ///< acceleration (gravity as the base acceleration -G)
  std::vector<Matrix6Xd> S;   ///< motion subspace (6 x nq_j)
  /// the columns of S of the free coordinates, first n_free of them (a joint partly prescribed)
  std::vector<Matrix6Xd> S_free;
  std::vector<Matrix6Xd> U;                ///< I_A S_free (first n_free of 6 x nq_j)
  std::vector<Eigen::MatrixXd> D_inverse;  ///< (S_free^T I_A S_free)^-1
  std::vector<Eigen::VectorXd> u;          ///< tau - S_free^T p_A
  std::vector<int> n_free;                 ///< free coordinates of the joint in the last call
  /// the free coordinates of joint j, as column indices of S, at free_columns[idx_q ...]
  std::vector<int> free_columns;

  Eigen::VectorXd tau;        ///< applied generalised forces B u - K q - D v (nv)
  Eigen::VectorXd efforts;    ///< hybrid dynamics: the forces that hold prescribed coordinates (nv)
  Eigen::MatrixXd D_scratch;  ///< max nq_j squared
  Eigen::VectorXd free_scratch;   ///< max nq_j
  Eigen::MatrixXd D_inverse_U_t;  ///< max nq_j x 6
};

}  // namespace tendril
