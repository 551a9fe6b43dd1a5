#pragma once
// Workspace of the model-agnostic inverse dynamics (model_agnostic_dynamics.hpp): the body plan
// derived from the Model, what every body reports, the between-body recursion's state and the
// outputs. Held by Data as one member (Data::agnostic) and sized once by its constructor; the
// passes never allocate.

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/model_agnostic_body.hpp"
#include "core/math/spatial_inertia.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief What a pass needs from a body's evaluation: its distal frame and that frame's Jacobian
///        alone (tendon anchors hang from it), every element's pose and Jacobian (any rates), also
///        their motion at the given rates (J v, Jdot v), or also the material forces there.
enum class BodyOutputs { DistalFrame, Poses, Motion, Everything };

struct ModelAgnosticWorkspace {
  ModelAgnosticWorkspace() = default;
  /// \brief Builds the body plan of \p model and sizes everything (allocates).
  explicit ModelAgnosticWorkspace(const Model& model);

  //-------------------- body plan (constant, from the Model)
  std::vector<AgnosticBody> bodies;  ///< one per description link, parents before children
  std::vector<int> link;             ///< description link of body b
  std::vector<int> parent;           ///< parent body, -1 for a root (attached to the world)
  std::vector<int> idx_q, nq;        ///< coordinates q_b = q.segment(idx_q[b], nq[b])
  /// proximal frame P of body b in its parent's distal frame D (or in world): the g_fixed of the
  /// link's joint (its origin, after the parent link's g_tip)
  std::vector<SE3> g_fixed;
  std::vector<char> has_placement;  ///< g_fixed is not the identity
  std::vector<char> has_children;
  int max_nq = 0;
  /// a link no body kind handles (the passes then throw std::invalid_argument), or -1
  int unsupported_link = -1;

  //-------------------- body evaluations
  // written by evaluateAgnosticBody() in every pass
  std::vector<BodyEvaluation> evaluations;  ///< per body: its elements, D, their Jacobians

  /// while set (ReusedBodyEvaluations), a body whose last evaluation was at the very same
  /// (q_b, v_b) and holds what is asked is not evaluated again (evaluateWorkspaceBody()): a
  /// central difference moves one body's coordinates, and the others are then taken as they are
  bool reuse_unchanged_bodies = false;
  /// per body, where its last evaluation was taken and what it holds (none when not recorded)
  std::vector<Eigen::VectorXd> evaluated_q, evaluated_v;
  enum class Held : char { None, DistalFrame, Motion, Everything };
  std::vector<Held> evaluated;

  //-------------------- between-body recursion
  // written by the passes of model_agnostic_dynamics.cpp. Q is the frame a body hangs from: its
  // parent's D, or the world for a root; twists, accelerations and wrenches are expressed in the
  // frame they belong to
  std::vector<SE3> X_D;            ///< D of body b in its Q: g_fixed G_D
  std::vector<Vector6d> V_D, A_D;  ///< twist and acceleration of D (bodies with children; gravity
                                   ///< as the base acceleration -G)
  /// the children's resultants at D (inertial wrenches; in the ID gravity's too, through the base
  /// acceleration)
  std::vector<Vector6d> F_D;
  std::vector<Vector6d> F_Q;  ///< the resultant of the body and its subtree, at Q
  // mass matrix only (modelAgnosticMIID, modelAgnosticMID). A body's elements other than its
  // tip are summed in Q; what moves with D (the tip element, the children) in world coordinates,
  // where the composites need no transform from one body to the next
  std::vector<SpatialInertia> I_D;  ///< the children's composite inertias, in world coordinates
  /// composite inertia of the body and its subtree, in world (bodies with a parent)
  std::vector<SpatialInertia> I_Q;
  /// momentum at Q per unit a_b (6 x nq_b) of the elements summed in Q: sum_k Ad*_{X_k} M_k J_k
  /// (bodies with an ancestor that has coordinates: it pairs with their columns)
  std::vector<Matrix6Xd> U;
  /// D of body b in the world, and J_D in world coordinates (6 x nq_b), for bodies with children
  /// or a tip element: the blocks of M between a body and its ancestors are pairings of
  /// world-frame columns
  std::vector<SE3> world_D;
  std::vector<Matrix6Xd> S_world;
  // LVP actuation (lvp_actuation.hpp): world Jacobians of two tendon anchors (3 x nv), a
  // tendon's dl/dq (nv), zero rates (nv), the tendons' and pressures' values
  Eigen::Matrix3Xd anchor_J[2];
  Eigen::VectorXd tendon_gradient, zero_rates, lvp_inputs;
  Matrix6Xd MJ;       ///< 6 x max_nq scratch: an inertia times a Jacobian
  Matrix6Xd U_world;  ///< 6 x max_nq scratch: the body's whole momentum per unit a_b, in world
  using JacobianRows = Eigen::Matrix<double, Eigen::Dynamic, 6>;
  JacobianRows J_rows;  ///< max_nq x 6 scratch: a Jacobian transposed (its rows contiguous)

  //-------------------- outputs
  Eigen::VectorXd tau;  ///< IID, ID, MIID or MID (nv)
  Eigen::MatrixXd M;    ///< generalised mass matrix (nv x nv), written by MIID and MID only
  Eigen::VectorXd Bu;   ///< actuation B(q) u(t), written by the ID and MID (nv)
};

/// \brief Evaluates body \p b at (q_b, v_b) into w.evaluations[b] (its material forces only when
///        \p outputs is Everything), unless w.reuse_unchanged_bodies is set and the last evaluation
///        already holds that: at the same q_b (Poses), and the same v_b (Motion), with the forces
///        (Everything). Allocation-free.
void evaluateWorkspaceBody(const Model& model, ModelAgnosticWorkspace& w, int b,
                           const Eigen::Ref<const Eigen::VectorXd>& q_b,
                           const Eigen::Ref<const Eigen::VectorXd>& v_b, BodyOutputs outputs);

/// \brief For its lifetime, the passes on \p w reuse the evaluations of bodies whose coordinates
///        and rates did not change (ModelAgnosticWorkspace::reuse_unchanged_bodies): for a loop of
///        differences that moves one body at a time, in which nothing else (the Model) changes.
class ReusedBodyEvaluations {
 public:
  explicit ReusedBodyEvaluations(ModelAgnosticWorkspace& w);
  ~ReusedBodyEvaluations();
  ReusedBodyEvaluations(const ReusedBodyEvaluations&) = delete;
  ReusedBodyEvaluations& operator=(const ReusedBodyEvaluations&) = delete;

 private:
  ModelAgnosticWorkspace& w_;
  bool was_reusing_;
};

}  // namespace tendril
