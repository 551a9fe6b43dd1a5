#pragma once
// The compiled, immutable model of a hybrid soft-rigid linkage.
//
// buildModel() flattens the link tree into "virtual joints" sorted parents-first
// (docs/theory/gvs.md §2): every rigid joint, and every interval between two consecutive
// computational points of a soft division (a pseudo-rigid joint whose twist comes from the Magnus
// expansion of the strain field). Each virtual joint j owns a child frame j; inertia is lumped at
// those frames. So every algorithm is a forward and a backward loop over [0, n_vjoints).
//
// Notation (core/math/lie.hpp): g_j pose of child frame j in world; Omega_j joint twist with
// g_parent * g_fixed * exp(Omega_j) = g_j; S_j = T(Omega_j) Z_j its motion subspace in the base
// frame; q_j = q.segment(idx_q, nq) the coordinates it depends on.

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/math/lie.hpp"
#include "core/math/spatial_inertia.hpp"
#include "core/model/description.hpp"

namespace tendril {

using Matrix6Xd = Eigen::Matrix<double, 6, Eigen::Dynamic>;

enum class VirtualJointKind {
  Rigid,       ///< Omega = Phi q_j (a rigid joint of the description, possibly fixed: nq = 0)
  RodInterval  ///< Omega from the Magnus expansion of xi = Phi(X) q_div + xi* over [X, X + h]
};

struct VirtualJoint {
  VirtualJointKind kind = VirtualJointKind::Rigid;
  int parent = -1;  ///< parent virtual joint (whose child frame this joint starts from), -1 = world
  /// its coordinate group: the virtual joints sharing one coordinate block (a division's
  /// intervals, or one rigid joint) form a chain from group_first; -1 where there is none
  /// (declareTopology())
  int group_first = -1, group_previous = -1, group_next = -1;
  int link = -1;  ///< index of the description link it belongs to
  SE3 g_fixed;    ///< constant placement of the joint base in the parent's child frame
  int idx_q = 0;  ///< first coordinate of q_j in q
  int nq = 0;     ///< number of coordinates q_j

  // rigid: motion basis
  Matrix6Xd Phi;  ///< 6 x nq, columns are unit screws in the joint base frame
  /// Phi's columns commute (fixed, revolute, prismatic, helical, cylindrical joints): then
  /// T(Phi q) Phi = Phi, so S = Phi and S-dot = 0 at every q (docs/theory/gvs.md §1)
  bool constant_subspace = false;
  /// Phi is the 6 x 6 identity (a free joint): S = T(Omega) without the product
  bool identity_basis = false;
  /// one coordinate along a screw whose linear part is parallel to its unit (or zero) angular
  /// part (revolute, prismatic, helical): exp has a closed form and S = screw
  bool single_screw = false;
  Vector6d screw = Vector6d::Zero();  ///< Phi's column when single_screw
  /// k when the single screw is a rotation about the frame axis +-e_k through the origin (most
  /// revolute joints: exp is a plane rotation of the other two axes), else -1
  int screw_frame_axis = -1;
  /// a single screw that rotates: its place in Model::screw_angle_coordinates, whose sines and
  /// cosines the pose passes take in one batch (screwAngles()); else -1
  int screw_angle_slot = -1;
  bool has_placement = true;      ///< g_fixed differs from the identity
  bool placement_rotates = true;  ///< g_fixed's rotation differs from the identity

  // rod interval: strain bases at the collocation points (order 4: the two Zanna points;
  // order 2: Phi_z1 holds the midpoint)
  int magnus_order = 4;
  double h = 0.0;            ///< interval length [m]
  Matrix6Xd Phi_z1, Phi_z2;  ///< 6 x nq
  /// the strain component of each mode: column k of Phi_z1 and Phi_z2 has its one entry in row
  /// basis_rows[k] (the block layout of core/model/strain_basis.hpp)
  std::vector<int> basis_rows;
  /// the distinct components of basis_rows, ascending (a Kirchhoff rod: the three angular ones),
  /// and the position of each mode's component among them: the ID derivatives form a rod
  /// interval's 6 x 6 cores on these columns only
  std::vector<int> strain_components;
  std::vector<int> component_slot;
  Vector6d xi_star = Vector6d::Zero();  ///< reference strain (constant along a division)

  // inertia lumped at the child frame, expressed in it
  bool has_inertia = false;
  Matrix6d M = Matrix6d::Zero();
  SpatialInertia inertia;                         ///< M in compact form
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  ///< centre of mass in the child frame (energy)
  double mass = 0.0;                              ///< lumped mass (energy, gravity bookkeeping)

  double radius = 0.0;  ///< cross-section size at the child frame (drawing, contact)
  /// rod interval: Sigma = diag(G Jx, E Jy, E Jz, E A, G A, G A) and Upsilon = eta diag(Jx, 3 Jy,
  /// 3 Jz, 3 A, A, A) of the section at the interval's middle (the internal forces of the
  /// viewport's colour map)
  Vector6d section_stiffness = Vector6d::Zero();
  Vector6d section_damping = Vector6d::Zero();

  /// added mass M_A of the surrounding fluid, in the child frame (docs/theory/gvs.md §13.3): the
  /// dynamics use M + M_A as the inertia of the frame; gravity does not act on M_A
  bool has_added_mass = false;
  Matrix6d added_mass = Matrix6d::Zero();
  /// M_A in diagonal form, when it has one (the builder's always do): cheap to transform
  std::optional<DiagonalInertia> added_mass_diagonal;
};

/// \brief How a description link maps onto virtual joints.
struct LinkInfo {
  std::string name;
  BodyKind kind = BodyKind::Rigid;
  int joint = -1;  ///< virtual joint of the link's rigid joint (its child frame is the link frame)
  int first_interval = -1, last_interval = -1;  ///< soft: range of rod-interval virtual joints
  int tip = -1;              ///< virtual joint whose child frame precedes the tip
  SE3 g_tip;                 ///< tip frame in that child frame
  int idx_q = 0, nq = 0;     ///< all coordinates of the link (joint + rod)
  double base_radius = 0.0;  ///< soft: section size at X = 0 (drawing)
  bool is_leaf = true;
};

/// \brief One Gauss point of a cable's path: the data of (D60) at that point.
struct CableSample {
  int idx_q = 0, nq = 0;  ///< the division's coordinates
  double weight = 0.0;    ///< quadrature weight [m]
  Matrix6Xd Phi;          ///< strain basis at the point (6 x nq)
  Vector6d xi_star = Vector6d::Zero();
  Eigen::Vector3d d = Eigen::Vector3d::Zero();        ///< cable offset from the centreline [m]
  Eigen::Vector3d d_prime = Eigen::Vector3d::Zero();  ///< its derivative along X
};

struct CompiledCable {
  std::string name;
  TimeFunction tension;
  bool controlled = false;  ///< a controller writes its tension (actuationForces() skips it)
  std::vector<CableSample> samples;
};

struct CompiledPointLoad {
  std::string name;
  int joint = -1;  ///< virtual joint whose child frame carries the load
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  LoadFrame frame = LoadFrame::Local;
  Vector6d wrench = Vector6d::Zero();
  TimeFunction scale;
};

/// \brief A contact sphere carried by a child frame: a rod's computational point or a rigid body.
struct CompiledContactSphere {
  int joint = -1;
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  ///< centre in the child frame [m]
  double radius = 0.0;                               ///< [m]
};

/// \brief The environment compiled for the algorithms (core/algorithm/external_loads.cpp).
struct CompiledEnvironment {
  // contact
  bool has_contact = false;
  double stiffness = 0.0, exponent = 1.0, smoothing = 0.0, damping = 0.0, friction = 0.0,
         slip_velocity = 1e-3;
  std::vector<CompiledContactSphere> contact_spheres;
  std::vector<Eigen::Vector3d> plane_points, plane_normals;
  std::vector<Eigen::Vector3d> sphere_centres;
  std::vector<double> sphere_radii;
  std::vector<Eigen::Vector3d> cylinder_points, cylinder_axes;
  std::vector<double> cylinder_radii;

  // fluid: per frame with buoyancy or drag (frames with added mass carry it in VirtualJoint)
  struct FluidFrame {
    int joint = -1;
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();  ///< centre of buoyancy and of drag
    double displaced_mass = 0.0;                       ///< rho_w V [kg]
    bool has_drag = false;
    Matrix6d drag = Matrix6d::Zero();  ///< D at the offset, link axes: F = -D |v| eta
  };
  bool has_fluid = false;
  std::vector<FluidFrame> fluid_frames;
};

struct CompiledJointInput {
  int coordinate = 0;
  TimeFunction value;
  bool controlled = false;  ///< a controller writes its value (actuationForces() skips it)
};

/// \brief A controller of the description with its references resolved
///        (core/algorithm/controller.hpp evaluates it).
struct CompiledController {
  std::string name;
  ControllerDesc::Type type = ControllerDesc::Type::PdGravityCompensation;
  struct Variable {
    ControlledVariableDesc::Kind kind = ControlledVariableDesc::Kind::Coordinate;
    int index = 0;  ///< the coordinate, the cable in Model::cables, the tendon in lvp_tendons,
                    ///< or the link in Model::links (TipPosition)
    int axis = 0;   ///< TipPosition: world x, y or z
    TimeFunction setpoint;
    std::string label;  ///< the coordinate's name, or "<cable> length"
  };
  struct Input {
    enum class Kind { JointInput, Cable, LvpTendon, CavityPressure };
    Kind kind = Kind::JointInput;
    int index = 0;  ///< in Model::joint_inputs, cables, lvp_tendons or cavity_pressures
    double min = 0.0, max = 0.0;  ///< saturation (-inf, +inf when unbounded; a cable's min >= 0)
    std::string name;
  };
  std::vector<Variable> variables;
  std::vector<Input> inputs;   ///< as many as variables
  Eigen::VectorXd kp, kd;      ///< one per variable
  double sample_period = 0.0;  ///< zero-order hold [s]; 0 = every evaluation
  /// the window [active_from, active_until) (0, +inf without one) and what follows it
  double active_from = 0.0;
  double active_until = std::numeric_limits<double>::infinity();
  ControllerWindowDesc::After after = ControllerWindowDesc::After::Off;
  /// \brief Whether the law runs at t: inside the window, or after it when held.
  bool activeAt(double t) const {
    return t >= active_from && (t < active_until || after == ControllerWindowDesc::After::Hold);
  }
  /// \brief The time at which the set-points are read at t: t, or active_until once held
  ///        (the set-point's rates are then 0).
  double setpointTime(double t) const { return std::min(t, active_until); }
  bool setpointFrozen(double t) const { return t >= active_until; }
};

/// \brief A coordinate prescribed by a position-mode joint input: q_k = position(t).
struct CompiledPrescribedCoordinate {
  int coordinate = 0;
  TimeFunction position;
};

/// \brief A closed-chain joint (docs/theory/gvs.md §12): e = Phi_perp^T log(g_BA)^v with
///        g_A = g[joint_a] g_a, g_B = g[joint_b] g_b (or g_b alone when joint_b < 0: the world).
struct CompiledClosedChain {
  std::string name;
  int joint_a = -1;    ///< virtual joint whose child frame carries frame A
  SE3 g_a;             ///< frame A in that child frame
  int joint_b = -1;    ///< virtual joint carrying frame B, -1 = world
  SE3 g_b;             ///< frame B in that child frame (or in world)
  Matrix6Xd Phi_perp;  ///< constrained directions (6 x m), orthonormal columns, in frame B (= A)
  int row = 0;         ///< first row of this joint in the stacked constraints
  int m() const { return static_cast<int>(Phi_perp.cols()); }
};

/// \brief A tendon on LVP bodies (RobotDescription::lvp_tendons): straight segments between
///        consecutive material anchors.
struct CompiledLvpTendon {
  std::string name;
  TimeFunction tension;
  bool controlled = false;  ///< a controller writes its tension (addLvpActuationForces() skips it)
  struct Anchor {
    int link = -1;
    Eigen::Vector3d x = Eigen::Vector3d::Zero();  ///< material point of the undeformed body [m]
  };
  std::vector<Anchor> anchors;
};

/// \brief A pressure in an LVP body's cavity (RobotDescription::cavity_pressures).
struct CompiledCavityPressure {
  std::string name;
  int link = -1;
  TimeFunction pressure;    ///< [Pa], relative to the outside
  bool controlled = false;  ///< a controller writes it (addLvpActuationForces() skips it)
};

/// \brief A range of coordinates [idx, idx + n).
struct CoordinateBlock {
  int idx = 0;
  int n = 0;
};

/// \brief Adds [idx, idx + n) to disjoint ascending blocks, merging it with those it overlaps
///        (sharing a coordinate; blocks that only touch stay apart).
void addCoordinateBlock(std::vector<CoordinateBlock>& blocks, int idx, int n);

/// \brief The coordinate structure of the virtual-joint tree beyond each joint's group links
///        (VirtualJoint::group_first ...), declared by buildModel() for the algorithms that walk
///        it (mass matrix, ID derivatives, closed chains).
struct Topology {
  /// per joint: (first joint of a group, that group's last joint on the way to the root) for every
  /// group on the path from j (its own included, with j) to the root
  std::vector<std::vector<std::pair<int, int>>> coordinate_path;
  /// the coordinates of j's ancestors lie in [0, ancestor_cols[j])
  std::vector<int> ancestor_cols;
};

struct Model;

/// \brief Fills model.topology from model.joints (parents first).
void declareTopology(Model& model);

struct Model {
  int nq = 0;  ///< generalised coordinates (rigid joints, rod strain modes); nv == nq
  int nv = 0;
  std::vector<VirtualJoint> joints;  ///< parents before children
  std::vector<LinkInfo> links;       ///< in description order
  Eigen::MatrixXd K;                 ///< generalised stiffness (nq x nq), constant
  Eigen::MatrixXd D;                 ///< generalised damping (nq x nq), constant
  /// the diagonal blocks (one per division, disjoint, ascending) outside which K and D are zero
  std::vector<CoordinateBlock> elastic_blocks;
  Vector6d gravity = Vector6d::Zero();  ///< G = [0; a_g] in world
  std::vector<std::string>
      coordinate_names;  ///< nq labels, e.g. "link1/joint/0", "rod/div0/bend_y/2"
  std::vector<CompiledCable> cables;
  std::vector<CompiledPointLoad> point_loads;
  std::vector<CompiledJointInput> joint_inputs;
  std::vector<CompiledPrescribedCoordinate> prescribed;  ///< joint-coordinate control (3.4)
  std::vector<CompiledClosedChain> closed_chains;        ///< loop-closing joints (3.5)
  std::vector<CompiledController> controllers;           ///< feedback laws in the dynamics
  int n_constraints = 0;                   ///< rows of the stacked closed-chain constraints
  double constraint_time_constant = 0.01;  ///< Baumgarte T_B [s]
  CompiledEnvironment environment;         ///< contact and fluid loads
  bool has_added_mass = false;             ///< some joint has_added_mass (mass matrix slow path)
  /// some link's body has no virtual-joint form (an LVP body): only the model-agnostic family
  /// (core/algorithm/model_agnostic_dynamics.hpp) can evaluate the model, the engine's
  /// inverseDynamics and massMatrix refuse it, and DynamicsFamily::Auto picks the agnostic family
  /// (core/algorithm/dynamics_family.hpp)
  bool agnostic_only = false;
  std::vector<CompiledLvpTendon> lvp_tendons;            ///< tendons on LVP bodies' surfaces
  std::vector<CompiledCavityPressure> cavity_pressures;  ///< pressures in LVP bodies' cavities
  Topology topology;  ///< coordinate groups and paths of the joints
  /// the coordinate of every rotating single screw, by VirtualJoint::screw_angle_slot
  std::vector<int> screw_angle_coordinates;
  RobotDescription description;  ///< the source, for drawing and saving

  int n_vjoints() const { return static_cast<int>(joints.size()); }
};

using ModelPtr = std::shared_ptr<const Model>;

/// \brief Refuses a Model::agnostic_only model in an algorithm of the GVS engine (whose virtual
///        joints do not carry its LVP bodies): throws std::invalid_argument naming \p algorithm.
void requireEngineModel(const Model& model, const char* algorithm);

/// \brief Compiles a description. \throw ParseError (core/io/json_io.hpp) naming the JSON pointer
///        of a physically invalid value not caught by parsing (e.g. a singular inertia).
Model buildModel(const RobotDescription& robot);

/// \brief Volume of a rigid body's shape [m^3] (box: product of the extents; cylinder: pi r^2 l;
///        sphere: 4/3 pi r^3): what the body displaces in a fluid unless its entry gives a volume.
[[nodiscard]] double shapeVolume(const ShapeDesc& shape);

/// \brief Whether the columns of a motion basis commute pairwise (ad_a b = 0).
bool commutes(const Matrix6Xd& Phi);

/// \brief Motion basis Phi (6 x dof) of a rigid joint, in its joint frame (docs/theory/gvs.md §1).
Matrix6Xd jointBasis(const JointDesc& joint);

}  // namespace tendril
