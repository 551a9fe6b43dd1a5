#pragma once
// Body kind "lvp": a locally volume-preserving soft body (docs/theory/lvp.md). Its undeformed
// shape is a solid or hollow cylinder along its local x3 (= z) axis, 0 <= x3 <= L, outer radius R,
// cavity radius r_c (0: solid). A material point x moves to f(x, q) = h_P(... h_1(x, q) ..., q),
// a composition of primitives h_p, each with det(dh_p/dy) = 1 identically, so that every
// configuration preserves volume locally. Each primitive's parameter is a function of the axial
// coordinate y3 of the point it acts on, a sum of modes q_k P_k(y3 / L) (polynomials) plus an
// optional rest part. Its coordinates follow those of the link's joint, primitive by primitive.
//
// The GVS engine (virtual joints) cannot represent it: a model with such a body is
// Model::agnostic_only and runs on the model-agnostic family (model_agnostic_dynamics.hpp).

#include <Eigen/Core>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/math/hyper_dual.hpp"
#include "core/math/hyper_dual_block.hpp"

namespace tendril {

/// \brief The primitives, with the physical meaning of their parameter p(y3) = scale *
///        (sum_k q_k P_k(s) + P_rest(s)), s = y3 / L:
enum class LvpPrimitiveType {
  Stretch,  ///< axial displacement u = L P [m]: y3 -> y3 + u, (y1, y2) / sqrt(1 + du/dy3)
  BendX1,   ///< curvature kappa = P / L [1/m] of the centreline toward +x1 (in the x1-x3 plane)
  BendX2,   ///< curvature kappa = P / L [1/m] toward +x2 (in the x2-x3 plane)
  Twist,    ///< rotation psi = P [rad] of the section about x3
  ShearX1,  ///< transverse displacement d = L P [m]: y1 -> y1 + d
  ShearX2,  ///< transverse displacement d = L P [m]: y2 -> y2 + d
  Source    ///< cavity inflation a = r_c^2 P [m^2]: r^2 -> r^2 + a (a hollow body only)
};

/// \brief JSON name of a primitive ("stretch", "bend_x1", ...).
[[nodiscard]] const char* lvpPrimitiveName(LvpPrimitiveType type);
/// \brief The primitive of a JSON name, or nothing.
[[nodiscard]] std::optional<LvpPrimitiveType> lvpPrimitiveFromName(const std::string& name);

/// Largest number of coefficients of a mode polynomial (degree 7).
inline constexpr int kLvpMaxCoefficients = 8;

struct LvpPrimitiveDesc {
  LvpPrimitiveType type = LvpPrimitiveType::Stretch;
  /// one coordinate per mode: the coefficients c0, c1, ... of P_k(s) = c0 + c1 s + ..., s = y3 / L
  std::vector<std::vector<double>> modes;
  /// the parameter's part that does not depend on q (the rest shape), same form; empty = 0
  std::vector<double> rest;
  bool operator==(const LvpPrimitiveDesc&) const = default;
};

/// \brief Sizes of the cylindrical product rule over the undeformed body (docs/theory/lvp.md §4).
/// The defaults hold the quadrature's error near 1e-7 of the ID on Simulation 1's bodies; 4 x 2 x 6
/// is three times cheaper at 4e-5 (docs/theory/lvp.md §4,
/// LvpDynamics.QuadratureConvergesTowardAFineRule).
struct LvpQuadratureDesc {
  int axial = 6;    ///< Gauss-Legendre points in x3 on [0, L]
  int radial = 3;   ///< Gauss-Legendre points in r on [r_c, R] (the weight r included)
  int angular = 8;  ///< equally spaced angles (exact for trigonometric degree < angular)
  bool operator==(const LvpQuadratureDesc&) const = default;
};

/// \brief The primitives of the seed paper's Simulation 1 (its Table 4; 8 coordinates): stretch
///        s(1 - s), two bendings with curvature (q_a + s q_b) / L, twist s, two shears s.
[[nodiscard]] std::vector<LvpPrimitiveDesc> lvpTable4Primitives();
/// \brief The primitives of the seed paper's gripper (its Table 5; 2 coordinates): stretch s^2,
///        source s^2 (needs a cavity).
[[nodiscard]] std::vector<LvpPrimitiveDesc> lvpTable5Primitives();

struct LvpBodyDesc {
  double length = 0.1;            ///< L [m]
  double radius = 0.02;           ///< outer radius R [m]
  double cavity_radius = 0.0;     ///< r_c [m], 0 <= r_c < R (0: solid)
  double density = 960.0;         ///< rho [kg/m^3]
  double neo_hookean_c = 1.78e5;  ///< C [Pa] of W = C (I1 - 3)
  double damping = 0.05;          ///< Kelvin-Voigt eta [s]: s_d = eta (ds/dq) q-dot
  std::vector<LvpPrimitiveDesc> primitives = lvpTable4Primitives();
  LvpQuadratureDesc quadrature;
  bool operator==(const LvpBodyDesc&) const = default;
};

/// \brief Coordinates of an LVP body (one per mode of every primitive).
[[nodiscard]] int lvpDof(const LvpBodyDesc& body);

/// \brief First problem of an LVP body description: a non-positive length, radius, density or
///        quadrature size, a cavity radius outside [0, R), a negative C or eta, a mode polynomial
///        of degree above 7, a source without a cavity, and a rest shape whose Jacobian
///        determinant is not 1 (or undefined) somewhere in the body. Names the JSON pointer under
///        \p pointer (e.g. "/links/2/lvp").
struct LvpProblem {
  std::string pointer;
  std::string reason;
};
[[nodiscard]] std::optional<LvpProblem> findLvpBodyProblem(const LvpBodyDesc& body,
                                                           const std::string& pointer);

/// \brief The compiled kinematics of an LVP body: its primitives as coefficient tables, its
///        quadrature, and the map f(x, q) with everything the dynamics and forces need. Coordinates
///        q here are the body's own (lvpDof of them, not the joint's).
class LvpKinematics {
 public:
  explicit LvpKinematics(const LvpBodyDesc& body);

  int dof() const { return dof_; }
  const LvpBodyDesc& description() const { return body_; }
  /// quadrature points x_k of the undeformed body and their volumes dV_k [m^3]
  const std::vector<Eigen::Vector3d>& points() const { return points_; }
  const std::vector<double>& volumes() const { return volumes_; }

  /// f(x, q) (with_source = false: the source primitives act as the identity, as on the axis)
  [[nodiscard]] Eigen::Vector3d position(const Eigen::Vector3d& x,
                                         const Eigen::Ref<const Eigen::VectorXd>& q,
                                         bool with_source = true) const;
  /// F = df/dx at (x, q)
  [[nodiscard]] Eigen::Matrix3d deformationGradient(
      const Eigen::Vector3d& x, const Eigen::Ref<const Eigen::VectorXd>& q) const;
  /// df/dq (3 x dof) at (x, q)
  [[nodiscard]] Eigen::Matrix3Xd positionJacobian(const Eigen::Vector3d& x,
                                                  const Eigen::Ref<const Eigen::VectorXd>& q) const;
  /// (d^2 f / dq^2 v) v: the acceleration of the material point at q-ddot = 0
  [[nodiscard]] Eigen::Vector3d positionBias(const Eigen::Vector3d& x,
                                             const Eigen::Ref<const Eigen::VectorXd>& q,
                                             const Eigen::Ref<const Eigen::VectorXd>& v) const;

  /// the distal frame D in the body's base frame: origin f(0, 0, L) without the sources, axes
  /// from Gram-Schmidt on F e1, F e2 there (x1 first); its body Jacobian (6 x dof, [w; v]), J v
  /// and Jdot v
  struct Distal {
    Eigen::Matrix3d R;
    Eigen::Vector3d p;
    Eigen::Matrix<double, 6, Eigen::Dynamic> J;
    Eigen::Matrix<double, 6, 1> Jv, bias;
  };
  void distal(const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v, Distal& out) const;

  /// elastic energy U = C sum_k dV_k (tr(F^T F) - 3) [J]
  [[nodiscard]] double elasticEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const;
  /// s = dU/dq (dof) and, when v is given, the Kelvin-Voigt force eta (ds/dq) v added to it;
  /// K = ds/dq (dof x dof) when asked
  void internalForces(const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::VectorXd& s,
                      Eigen::MatrixXd* stiffness = nullptr) const;

  /// cavity volume (docs/theory/lvp.md §6: the deformed wall closed by two cones from the ends'
  /// centres) and its gradient dV/dq (dof) when asked; 0 for a solid body
  double cavityVolume(const Eigen::Ref<const Eigen::VectorXd>& q,
                      Eigen::VectorXd* gradient = nullptr) const;

  /// the distal frame at (q, v) without allocating (c and unit are scratch of the right sizes)
  using Coefficients = std::array<HyperDual, kLvpMaxCoefficients>;
  /// evaluate() carries the coordinates' directions in blocks of kBlock lanes (one pass per
  /// block: a single pass for up to 8 coordinates)
  static constexpr int kBlock = 8;
  using Block = HyperDualBlock<kBlock>;
  using BlockCoefficients = std::array<Block, kLvpMaxCoefficients>;
  void distal(const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v, std::vector<Coefficients>& c,
              Eigen::VectorXd& unit, Distal& out) const;

  /// Everything one pass over the quadrature gives at (q, v), for the model-agnostic body: per
  /// point its position, Jacobian (3 x dof), J v and bias; the distal frame; the elastic and
  /// damping forces. Sized by prepare(); evaluate() does not allocate.
  struct PointState {
    std::vector<Eigen::Vector3d> p, Jv, bias;
    std::vector<Eigen::Matrix3Xd> J;
    Distal distal;
    Eigen::VectorXd internal;           ///< s(q) + eta K(q) v (with_forces)
    Eigen::VectorXd stiffness_times_v;  ///< K(q) v
    Eigen::VectorXd unit;               ///< scratch
    std::vector<Coefficients> coefficients;
    std::vector<BlockCoefficients> block_coefficients;
    std::vector<int> block_terms;     ///< per primitive, the coefficients in use
    Eigen::VectorXd volume_gradient;  ///< dV/dq of the cavity (cavityVolume)
  };
  /// f(x, q) and df/dq (3 x dof) without allocating (scratch: a PointState from prepare()), one
  /// pass on blocks per eight coordinates
  void pointJacobian(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& x,
                     PointState& scratch, Eigen::Vector3d& p, Eigen::Ref<Eigen::Matrix3Xd> J) const;
  /// cavityVolume() without allocating (gradient sized dof)
  double cavityVolume(const Eigen::Ref<const Eigen::VectorXd>& q, std::vector<Coefficients>& c,
                      Eigen::VectorXd& unit, Eigen::VectorXd* gradient) const;
  void prepare(PointState& state) const;
  /// \param with_forces also the internal forces (the deformation gradient at every point)
  /// One pass over the quadrature per block of 8 coordinates, on HyperDualBlock numbers.
  void evaluate(const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& v, bool with_forces,
                PointState& state) const;
  /// the distal frame alone at (q, v) (state.distal; the points are not touched, the internal
  /// forces are zero): what tendon anchors and frames need, one point instead of the quadrature
  void evaluateDistal(const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, PointState& state) const;
  /// evaluate() by the reference route, dof + 1 passes on HyperDual numbers (directions e_j and
  /// v, then v and v): kept for the tests that check evaluate() against it
  void evaluateReference(const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, bool with_forces,
                         PointState& state) const;

  /// per primitive, the first coordinate and the number of modes
  struct Primitive {
    LvpPrimitiveType type;
    int first = 0, n = 0;
    /// coefficient tables of the modes' polynomials and of the rest part
    std::vector<std::array<double, kLvpMaxCoefficients>> modes;
    std::array<double, kLvpMaxCoefficients> rest{};
  };
  const std::vector<Primitive>& primitives() const { return primitives_; }

  /// each primitive's polynomial coefficients at q, with derivatives along d1 and d2 (either may
  /// be null: zero)
  void combine(const Eigen::Ref<const Eigen::VectorXd>& q, const double* d1, const double* d2,
               std::vector<Coefficients>& out) const;
  /// y = f(x) for the combined coefficients c, and F = df/dx when asked
  void map(const std::vector<Coefficients>& c, const Eigen::Vector3d& x, bool with_source,
           std::array<HyperDual, 3>& y, std::array<std::array<HyperDual, 3>, 3>* F) const;

 private:
  /// the coefficients at (q, v) with the lanes' directions e_first ... e_{first + kBlock - 1}
  void combineBlock(const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v, int first,
                    std::vector<BlockCoefficients>& out, std::vector<int>& terms) const;
  /// the distal frame on blocks (evaluate())
  void distalBlocks(const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v, PointState& state) const;

  LvpBodyDesc body_;
  int dof_ = 0;
  std::vector<Primitive> primitives_;
  std::vector<Eigen::Vector3d> points_;
  std::vector<double> volumes_;
  Eigen::VectorXd axial_nodes_, axial_weights_;  ///< the Gauss rule in x3 (cavity walls)
};

}  // namespace tendril
