#pragma once
// The body interface of the model-agnostic inverse dynamics (Pustina, Della Santina, De Luca,
// arXiv 2402.07037; docs/theory/model-agnostic.md §2), and its kinds:
// the rigid link, the GVS rod and the constant-curvature segment.
//
// A BODY is one description link: its joint followed by its body (model.links[i]), with the
// coordinates q_i = q.segment(links[i].idx_q, links[i].nq), n_i = links[i].nq. The dynamics
// (model_agnostic_dynamics.hpp) recurse only between bodies; inside one, a body is a black box
// that, given (q_i, v_i), reports in its BodyEvaluation:
//
//   - the pose G_D of its DISTAL frame D in its PROXIMAL frame P, the body-frame Jacobian J_D
//     (6 x n_i) of that relative motion, (G_D^-1 dG_D)^v = J_D dq_i, its relative twist J_D v_i and
//     its bias Jdot_D v_i. P is where the link's joint starts (after its fixed placement g_fixed
//     in the parent's D, or in world for a root); D is where the children's placements start: the
//     child frame of virtual joint links[i].tip (buildModel folds the link's g_tip into the
//     children's g_fixed, so D is the link's tip frame up to that constant);
//   - a list of inertial ELEMENTS k (a rigid section, a lumped cross-section, a point mass...):
//     pose G_k in P, body-frame Jacobian J_k (6 x cols_k: the leading columns of the 6 x n_i
//     Jacobian, the others being zero), relative twist J_k v_i, bias b_k = Jdot_k v_i, and a
//     spatial inertia M_k, constant in the element frame.
//
// "Relative" means with P at rest: V_k = Ad_{G_k^-1} V_P + J_k v_i is the absolute twist of
// element k for a proximal twist V_P. Nothing else about the body (how it deforms, how its
// integrals are taken) is visible to the recursion. This is the spatial form of the paper's
// point-quadrature form (section 2.8): its material points p_k with weights w_k are elements with
// M_k = w_k diag(0, 0, 0, 1, 1, 1); a rigid section adds its rotational inertia.
//
// ADDING A KIND (e.g. a constant-curvature segment with closed-form arc kinematics and its own
// Gauss quadrature): write a struct with
//
//   static bool handles(const Model&, int link);          // does this kind model the link?
//   explicit Kind(const Model&, int link);                 // precompute what evaluate() needs
//   void prepare(const Model&, BodyEvaluation& out) const; // size out: n, elements (with their
//                                                          // cols, J 6 x cols, constant M),
//                                                          // J_D (6 x n) unless tip_element >= 0
//   void evaluate(const Model&, const Eigen::Ref<const Eigen::VectorXd>& q_i,
//                 const Eigen::Ref<const Eigen::VectorXd>& v_i, BodyEvaluation& out) const;
//
// (a kind that integrates a deforming part itself reports it as a LumpedInertia at one element,
// as the planar constant-curvature segment does) and add it to the AgnosticBody variant below:
// nothing else changes (makeAgnosticBody() picks the
// first alternative whose handles() accepts a link; the passes never look inside a kind).
// evaluate() must not allocate (prepare() sized everything) and writes G, J, Jv and b of every
// element and, unless tip_element >= 0, G_D, J_D, Jv_D and b_D; J entries that are constant (a
// single screw's) may be written once by prepare(). The element that is D, if any, has all n_i
// columns. The recursion dispatches once per body (std::visit), never per element. Closed-form
// kinds need not chain anything: G_k, J_k and b_k of each element may come straight from its
// quadrature point.

#include <Eigen/Core>
#include <array>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "core/math/lie.hpp"
#include "core/math/spatial_inertia.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief One inertial element of a body: what the body reports (G, J, Jv, b; M set by prepare())
///        and what the dynamics write (X, V, A, W).
struct AgnosticElement {
  SE3 G;        ///< element frame in the body's proximal frame P
  Matrix6Xd J;  ///< body-frame Jacobian, leading columns (6 x cols; columns cols..n_i are zero)
  Vector6d Jv = Vector6d::Zero();  ///< J v_i: the element twist relative to P, in its frame
  Vector6d b = Vector6d::Zero();   ///< Jdot v_i: its acceleration relative to P at a_i = 0
  SpatialInertia M;                ///< spatial inertia in the element frame (constant)
  /// M is diagonal about the element's origin (a rod's or segment's section, a point mass):
  /// M = diag(d), which the dynamics apply and transform with a fraction of the general products
  /// (set by prepareAgnosticBody())
  bool diagonal = false;
  Vector6d d = Vector6d::Zero();
  /// the element frame is P whatever q (G = identity, J without columns, Jv = b = 0): a fixed
  /// joint's child frame. Set by the kind's prepare(); the dynamics then skip its transports
  bool at_P = false;
  // written by the dynamics (model_agnostic_dynamics.cpp)
  SE3 X;                          ///< element frame in the frame P hangs from: g_fixed G
  Vector6d V = Vector6d::Zero();  ///< absolute twist, in the element frame
  Vector6d A = Vector6d::Zero();  ///< absolute acceleration (gravity as base acceleration -G)
  Vector6d W = Vector6d::Zero();  ///< inertial wrench M A + ad*_V M V, in the element frame

  int cols() const { return static_cast<int>(J.cols()); }
};

/// \brief A deforming part of a body whose inertia the body integrates itself, reported as the
///        kinetic energy of its material about a frame C: the frame of element `element`, which
///        moves with the body's leading coordinates (its J) while the part deforms with its own
///        coordinates y = q_i.segment(offset, n), w = y-dot, which do not move C.
///
/// With V the absolute twist of C, T = 1/2 V^T I(y) V + V^T H(y) w + 1/2 w^T M(y) w, the part's
/// inertial wrench at C and its generalised inertial forces follow from the Euler-Poincare and
/// Lagrange equations (model_agnostic_dynamics.cpp):
///   W     = d/dt (I V + H w) + ad*_V (I V + H w),
///   tau_y = d/dt (H^T V + M w) - dT/dy.
/// A closed-form or pre-integrated kind (the planar constant-curvature arc) reports these instead
/// of one element per quadrature point: the recursion then does per body what it did per point.
/// The element's M is I (written by evaluate()); every field below is written by evaluate().
struct LumpedInertia {
  int element = -1;        ///< the element whose frame is C, or -1 when the body has no such part
  int offset = 0;          ///< first of the part's own coordinates among the body's
  int n = 0;               ///< their number
  SpatialInertia I_dot;    ///< dI/dt
  Matrix6Xd H, H_dot;      ///< momentum at C per unit w (6 x n), and its rate
  Eigen::MatrixXd M;       ///< n x n
  Eigen::VectorXd Mdot_w;  ///< (dM/dt) w
  std::vector<SpatialInertia> dI;  ///< dI/dy_j
  Matrix6Xd dH_w;                  ///< column j: (dH/dy_j) w
  Eigen::VectorXd dK;              ///< entry j: 1/2 w^T (dM/dy_j) w
  Eigen::VectorXd tau;             ///< written by the dynamics: the part's inertial forces
};

/// \brief Everything one body reports at (q_i, v_i). Sized by the kind's prepare().
struct BodyEvaluation {
  int n = 0;                              ///< n_i, coordinates of the body
  std::vector<AgnosticElement> elements;  ///< inertial elements
  /// the distal frame D is element tip_element's frame (then G_D, J_D, Jv_D, b_D are not written
  /// and that element's are meant), or -1
  int tip_element = -1;
  SE3 G_D;                           ///< distal frame in P
  Matrix6Xd J_D;                     ///< its body-frame Jacobian (6 x n_i)
  Vector6d Jv_D = Vector6d::Zero();  ///< J_D v_i
  Vector6d b_D = Vector6d::Zero();   ///< Jdot_D v_i
  Matrix6Xd scratch;                 ///< the kind's own (6 x n_i)
  LumpedInertia lumped;              ///< a part integrated by the body itself, if any
  /// the forces of the body's own material on its coordinates (n_i), written by evaluate() of a
  /// kind with a nonlinear constitutive law (LVP: neo-Hookean s(q) + Kelvin-Voigt eta K(q) v);
  /// empty for the kinds whose elasticity is Model::K, Model::D. The ID and MID add them
  Eigen::VectorXd internal_forces;
  /// an LVP body's per-point workspace
  std::optional<LvpKinematics::PointState> lvp;
  /// set by the caller before evaluate(): whether a kind with a constitutive law writes
  /// internal_forces (false: left zero, and its material integrals are skipped; for what needs
  /// only the motion, such as poses, tendon lengths and the inertial passes)
  bool material_forces = true;
  /// set by the caller before evaluate(): whether the elements are written (false: the distal
  /// frame alone, its Jacobian, J v and bias, which is all tendon anchors need; a kind may still
  /// write its elements when they cost nothing more, as the rigid kinds do)
  bool elements_wanted = true;

  const SE3& distalPose() const { return tip_element < 0 ? G_D : elements[tip_element].G; }
  const Matrix6Xd& distalJacobian() const {
    return tip_element < 0 ? J_D : elements[tip_element].J;
  }
};

/// \brief A rigid link: its joint (any type: fixed, revolute, prismatic, helical, cylindrical,
///        universal, planar, spherical, free) and one element, the lumped link inertia joint.M at
///        the joint's child frame, which is also D.
///
/// G = exp(Phi q) (closed form for a single screw), J = T(-Omega) Phi with Omega = Phi q, so that
/// J v = Ad_{G^-1} T(Omega) Omega' (the joint-base subspace S = T(Omega) Phi moved to the child
/// frame), and b = Ad_{G^-1} (S-dot v) with S-dot v = T'(Omega, Omega') Omega'. For commuting
/// columns (single screws, cylindrical) J = Phi and b = 0.
struct RigidAgnosticBody {
  int link = -1;
  int joint = -1;  ///< the link's virtual joint

  static bool handles(const Model& model, int link);
  RigidAgnosticBody(const Model& model, int link);
  void prepare(const Model& model, BodyEvaluation& out) const;
  void evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                const Eigen::Ref<const Eigen::VectorXd>& v_i, BodyEvaluation& out) const;
};

/// \brief A GVS rod link: its joint followed by its rod intervals (all divisions), with the very
///        Magnus (2nd order, or 4th order Zanna) and exp/tangent helpers of the kinematics. The
///        elements are the interval child frames (the computational points) that carry a lumped
///        inertia joint.M; D is the last interval's child frame.
///
/// Along the chain of frames f = joint, intervals (each g_pc = g_fixed exp(Omega)):
///   G_f = G_{f-1} g_pc,   J_f = Ad_{g_pc^-1} J_{f-1} + [T(-Omega) Z on the division's columns],
///   Jv_f = Ad_{g_pc^-1} Jv_{f-1} + s,   b_f = Ad_{g_pc^-1} b_{f-1} + ad_{Jv_f} s +
///   Ad_{exp(-Omega)} (S-dot v), with s = Ad_{exp(-Omega)} T(Omega) Omega' the interval's own
///   relative twist.
/// A recursion inside the black box; the dynamics only see its results.
struct GvsRodAgnosticBody {
  int link = -1;
  int joint = -1;             ///< the link's rigid virtual joint
  int first = -1, last = -1;  ///< its rod-interval virtual joints
  /// per frame of the chain (0: the joint's child frame, f > 0: interval first + f - 1), the
  /// element it carries or -1
  std::vector<int> element_of_frame;

  static bool handles(const Model& model, int link);
  GvsRodAgnosticBody(const Model& model, int link);
  void prepare(const Model& model, BodyEvaluation& out) const;
  void evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                const Eigen::Ref<const Eigen::VectorXd>& v_i, BodyEvaluation& out) const;
};

/// \brief A constant-curvature segment (core/model/bodies/constant_curvature.hpp): its joint, then
///        the arc g(s) = exp(s xi) of its constant strain xi = (0, theta_y/L, theta_z/L, 1 +
///        delta/L, 0, 0), in closed form, with its own Gauss rule over the sections at s_k
///        (w_k rho diag(Jx, Jy, Jz, A, A, A)), D the section at s = L. No Magnus expansion and no
///        recursion along the segment: each station is evaluated alone.
///
/// Arc part of a station, relative to the joint's child frame, with phi = theta s / L (planar):
///   G = (R_y(phi), s (sinc phi, 0, -(1 - cos phi)/phi)),
///   J e_theta = (0, s/L, 0, (s^2/L) f1(phi), 0, (s^2/L) f2(phi)),
///   Jdot v = (s^3/L^2) theta'^2 (0, 0, 0, f1'(phi), 0, f2'(phi)),
///   f1 = (phi - sin phi)/phi^2, f2 = (cos phi - 1)/phi^2 = -sinc^2(phi/2)/2,
/// by series below |phi| = 1 where the closed forms cancel (docs/theory/model-agnostic.md §5 gives
/// the same Jacobian at s = L in the paper's frame). A planar segment reports no element per Gauss
/// point: its arc is one LumpedInertia at the joint's child frame C, its I, H, M and their
/// derivatives summed over the Gauss points from the chord p(s), dp/dtheta and d2p/dtheta2 (the
/// same quadrature as the GVS engine's, so the two agree to rounding). A spatial segment has an
/// element per Gauss point, with G = exp(s xi), J = T(-s xi) s Phi and
/// Jdot v = T'(-s xi, -s xi') s xi' (lie.hpp), exp and T in closed form. Composed with the
/// joint's motion (G_J, J_J, b_J) as every chain of frames: J = [Ad_{g^-1} J_J | J_arc],
/// b = Ad_{g^-1} b_J + ad_{J v} (J_arc v_B) + b_arc.
struct ConstantCurvatureAgnosticBody {
  /// four Gauss points at once (one AVX2 register)
  using Lane = Eigen::Array4d;
  /// Gauss points in lanes of four, padded with massless points at the middle
  struct PointLanes {
    Lane s, u, inverse_u;
    Lane middle_offset;  ///< (u - 1/2) / 2: theta u / 2 = theta / 4 + theta (u - 1/2) / 2
    Lane su, suu;        ///< s u, s u^2
    Lane mass, inertia_x, inertia_z, spread;  ///< the section's m, a, d and d - a
  };

  int link = -1;
  int joint = -1;  ///< the link's rigid virtual joint
  bool planar = true;
  double length = 0.0;
  Matrix6Xd Phi;                        ///< d xi / d q_B (6 x n_B)
  std::vector<double> abscissae;        ///< s_k of the Gauss points, then L (the distal frame)
  std::vector<SpatialInertia> inertia;  ///< of the sections at the Gauss points
  std::vector<PointLanes> lanes;        ///< the Gauss points again, for the planar lumping
  double total_mass = 0.0;
  /// the sections' rotational inertias about y summed, and weighted by u and u^2
  double inertia_y = 0.0, inertia_y_u = 0.0, inertia_y_uu = 0.0;

  static bool handles(const Model& model, int link);
  ConstantCurvatureAgnosticBody(const Model& model, int link);
  void prepare(const Model& model, BodyEvaluation& out) const;
  void evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                const Eigen::Ref<const Eigen::VectorXd>& v_i, BodyEvaluation& out) const;

 private:
  // the planar arc lumped at C (elements[0]) at theta = q_B and its rate; sin and cos of theta / 4
  void lumpPlanarArc(double theta, double theta_dot, double sin_quarter, double cos_quarter,
                     BodyEvaluation& out) const;
};

/// \brief A locally volume-preserving body (core/model/bodies/lvp_body.hpp, docs/theory/lvp.md):
///        its joint, then one point element per quadrature point of the undeformed volume, with
///        M_k = rho dV_k diag(0, 0, 0, 1, 1, 1), pose (I, f(x_k, q)) after the joint, J_k = [0;
///        df/dq], b_k = [0; (d^2 f/dq^2 v) v] (the paper's point-quadrature form, section 2.8); D
///        the frame at the tip centre (LvpKinematics::distal). Composed with the joint as every
///        chain of frames: J = [Ad_{g^-1} J_J | J_arc], b = Ad_{g^-1} b_J + ad_{J v}(J_arc v) +
///        b_arc. evaluate() also writes the internal forces (neo-Hookean + Kelvin-Voigt).
struct LvpAgnosticBody {
  int link = -1;
  int joint = -1;  ///< the link's rigid virtual joint
  std::shared_ptr<const LvpKinematics> kinematics;
  double density = 0.0;

  static bool handles(const Model& model, int link);
  LvpAgnosticBody(const Model& model, int link);
  void prepare(const Model& model, BodyEvaluation& out) const;
  void evaluate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                const Eigen::Ref<const Eigen::VectorXd>& v_i, BodyEvaluation& out) const;
};

/// \brief Every body kind. A new kind is one more alternative (see the top of this file).
using AgnosticBody = std::variant<RigidAgnosticBody, GvsRodAgnosticBody,
                                  ConstantCurvatureAgnosticBody, LvpAgnosticBody>;

/// \brief The kind that models link \p link: the first alternative of AgnosticBody whose
///        handles() accepts it, or nothing when none does.
std::optional<AgnosticBody> makeAgnosticBody(const Model& model, int link);

/// \brief Sizes \p out for \p body (n, elements with their cols and inertias, J_D).
void prepareAgnosticBody(const Model& model, const AgnosticBody& body, BodyEvaluation& out);

/// \brief Evaluates \p body at its coordinates: one dispatch, then the kind's evaluate().
/// \param[in] q_i the body's coordinates (dim n_i)
/// \param[in] v_i their rates (dim n_i)
/// \param[in,out] out prepared by prepareAgnosticBody(); G, J, Jv, b of every element and of D
inline void evaluateAgnosticBody(const Model& model, const AgnosticBody& body,
                                 const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                 const Eigen::Ref<const Eigen::VectorXd>& v_i,
                                 BodyEvaluation& out) {
  std::visit([&](const auto& kind) { kind.evaluate(model, q_i, v_i, out); }, body);
}

}  // namespace tendril
