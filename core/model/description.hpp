#pragma once
// Plain, editable description of a robot: what the JSON file stores and what the UI edits.
// SI units throughout. No Eigen logic here; buildModel() validates meaning and compiles a Model.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/model/bodies/body_kind.hpp"
#include "core/model/placement.hpp"

namespace tendril {

enum class JointType {
  Fixed,
  Revolute,
  Prismatic,
  Helical,
  Cylindrical,
  Universal,
  Planar,
  Spherical,
  Free
};

/// \brief Limits and friction of a joint as a URDF states them (<limit>, <dynamics>): kept with
///        the model for the user and for export, not used by the dynamics. Each value is optional.
///        Units of the joint's coordinate: rad or m, N m or N.
struct JointLimitsDesc {
  std::optional<double> lower;     ///< lowest position [rad or m]
  std::optional<double> upper;     ///< highest position [rad or m]
  std::optional<double> velocity;  ///< largest speed [rad/s or m/s]
  std::optional<double> effort;    ///< largest torque or force [N m or N]
  std::optional<double> damping;   ///< viscous coefficient [N m s/rad or N s/m]
  std::optional<double> friction;  ///< static friction [N m or N]
  bool operator==(const JointLimitsDesc&) const = default;
};

/// \brief A rigid joint between a link's parent frame and the link's base frame.
struct JointDesc {
  JointType type = JointType::Fixed;
  Vec3 axis{1.0, 0.0,
            0.0};  ///< joint axis in the joint frame (revolute, prismatic, helical, cylindrical)
  double pitch = 0.0;                     ///< helical pitch [m/rad]
  std::optional<JointLimitsDesc> limits;  ///< metadata only (tree joints)
  bool operator==(const JointDesc&) const = default;
};

/// \brief One link of the tree: a joint to its parent followed by a body of one of the kinds of
///        core/model/bodies/body_kind.hpp.
struct LinkDesc {
  std::string name;
  std::string parent = "world";  ///< name of the parent link, or "world"
  Placement origin;              ///< joint frame in the parent's tip frame
  JointDesc joint;
  BodyDesc body;

  [[nodiscard]] BodyKind kind() const { return static_cast<BodyKind>(body.index()); }
  /// \brief The body as a kind. \throw std::bad_variant_access when it is of another kind.
  RigidBodyDesc& rigid() { return std::get<RigidBodyDesc>(body); }
  const RigidBodyDesc& rigid() const { return std::get<RigidBodyDesc>(body); }
  SoftBodyDesc& soft() { return std::get<SoftBodyDesc>(body); }
  const SoftBodyDesc& soft() const { return std::get<SoftBodyDesc>(body); }
  ConstantCurvatureBodyDesc& constantCurvature() {
    return std::get<ConstantCurvatureBodyDesc>(body);
  }
  const ConstantCurvatureBodyDesc& constantCurvature() const {
    return std::get<ConstantCurvatureBodyDesc>(body);
  }
  LvpBodyDesc& lvp() { return std::get<LvpBodyDesc>(body); }
  const LvpBodyDesc& lvp() const { return std::get<LvpBodyDesc>(body); }
  bool operator==(const LinkDesc&) const = default;
};

/// \brief A scalar input over time: constant, ramp, sine, a piecewise-linear table, or a cubic
///        rest-to-rest move.
struct TimeFunction {
  enum class Kind { Constant, Ramp, Sine, Table, Cubic };
  Kind kind = Kind::Constant;
  double value = 0.0;      ///< constant: the value; ramp, cubic: the final value
  double initial = 0.0;    ///< cubic: the value up to start
  double start = 0.0;      ///< ramp: start time [s] (value 0 before); cubic: t0
  double duration = 1.0;   ///< ramp: time to reach the value [s]; cubic: t1 - t0
  double amplitude = 0.0;  ///< sine: offset + amplitude sin(2 pi frequency t + phase)
  double frequency = 1.0;  ///< sine [Hz]
  double phase = 0.0;      ///< sine [rad]
  double offset = 0.0;     ///< sine
  std::vector<std::array<double, 2>>
      table;  ///< (t, value) pairs, t increasing; held constant outside
  /// table: Linear joins the points by straight pieces; Spline by the cubic spline through them
  /// (C^2: value, slope and acceleration continuous at the points), natural (zero second
  /// derivative at both ends) or, with end_slopes, clamped to those first derivatives.
  enum class Interpolation { Linear, Spline };
  Interpolation interpolation = Interpolation::Linear;
  std::optional<std::array<double, 2>> end_slopes;  ///< spline: [f'(t_0), f'(t_n)]
  /// spline: f'' at the points, derived from table and end_slopes by prepareSpline() (the JSON
  /// reader and spline() call it; evaluating a spline whose moments do not match throws)
  std::vector<double> spline_moments;
  /// \brief Computes spline_moments from table and end_slopes (O(n), tridiagonal solve).
  void prepareSpline();
  /// \brief A table with spline interpolation through \p points, moments prepared.
  static TimeFunction spline(std::vector<std::array<double, 2>> points,
                             std::optional<std::array<double, 2>> end_slopes = std::nullopt);
  double operator()(double t) const;
  /// \brief d^order f / dt^order for order 0, 1, 2. Ramp and table are piecewise linear: their
  ///        first derivative is the slope of the piece holding t (the later piece at a node),
  ///        their second derivative is 0 (the velocity jumps at the kinks); a spline table has
  ///        all three continuous (outside its points it is held: derivatives 0). The cubic
  ///        initial + (value - initial) (3 s^2 - 2 s^3), s = (t - t0) / (t1 - t0), starts and ends
  ///        at rest; its acceleration jumps at t0 and t1 (the value on [t0, t1) is returned).
  double derivative(double t, int order) const;
  static TimeFunction constant(double value) {
    TimeFunction f;
    f.value = value;
    return f;
  }
  bool operator==(const TimeFunction&) const = default;
};

/// \brief A generalised force on one coordinate of a rigid joint: the force [N] or torque [N m]
///        along the axis for revolute, prismatic, helical and cylindrical joints; for universal,
///        planar, spherical and free joints, whose coordinates are exponential coordinates, the
///        force conjugate to that coordinate (not a torque about a fixed axis).
struct JointInputDesc {
  std::string name;  ///< optional; a controller names the inputs it writes
  /// Force: `value` is the generalised force. Position: the coordinate is prescribed, q_k =
  /// value(t) [rad or m] (joint-coordinate control, docs/theory/gvs.md §11); the effort holding it
  /// is an output.
  enum class Mode { Force, Position };
  std::string link;  ///< the link whose joint is driven
  int dof = 0;       ///< which of the joint's coordinates
  Mode mode = Mode::Force;
  TimeFunction value;
  bool operator==(const JointInputDesc&) const = default;
};

/// \brief Where a cable runs through one division: offset from the centreline in the section
///        plane, d(X) = [0, y(X), z(X)], each a polynomial in the division's abscissa X [m]
///        (coefficients c0 + c1 X + c2 X^2 ...; one coefficient: constant, two: linear).
struct CableSegmentDesc {
  int division = 0;
  std::vector<double> y{0.0};
  std::vector<double> z{0.0};
  bool operator==(const CableSegmentDesc&) const = default;
};

/// \brief A cable (tendon) inside a soft link. Its tension T >= 0 pulls: the generalised force is
///        -T dl/dq with l the cable length, which bends the rod toward the cable and shortens it.
struct CableDesc {
  std::string name;
  std::string link;
  std::vector<CableSegmentDesc> path;  ///< the divisions it runs through
  TimeFunction tension;                ///< [N]
  bool operator==(const CableDesc&) const = default;
};

/// \brief Where an LVP tendon is fixed: a material point on the outer surface of an LVP body, at
///        one of its ends, at an angle about its axis x3 from x1.
struct LvpAnchorDesc {
  enum class End { Base, Tip };
  std::string link;
  End end = End::Tip;
  double angle = 0.0;  ///< [rad] from the body's x1 axis, about x3
  bool operator==(const LvpAnchorDesc&) const = default;
};

/// \brief A tendon on the surface of LVP bodies: straight segments between consecutive anchors
///        (possibly on different bodies). Tension T >= 0 pulls: the generalised force is -T dl/dq,
///        l the sum of the segments' lengths.
struct LvpTendonDesc {
  std::string name;
  std::vector<LvpAnchorDesc> anchors;  ///< at least two
  TimeFunction tension;                ///< [N]
  bool operator==(const LvpTendonDesc&) const = default;
};

/// \brief A pressure in the cavity of a hollow LVP body: the generalised force p dV/dq.
struct CavityPressureDesc {
  std::string name;
  std::string link;
  TimeFunction pressure;  ///< [Pa] above the outside
  bool operator==(const CavityPressureDesc&) const = default;
};

enum class LoadFrame { Local, Global };

/// \brief A wrench applied at a point of a link: for a soft link at abscissa X from its base, for a
///        rigid link in its link frame, offset by `offset` in the local frame.
struct PointLoadDesc {
  std::string name;
  std::string link;
  double abscissa = 0.0;               ///< soft links: X from the base [m]; -1 = the tip
  Vec3 offset{0.0, 0.0, 0.0};          ///< application point in the local frame [m]
  LoadFrame frame = LoadFrame::Local;  ///< axes of the wrench: following the body, or world
  std::array<double, 6> wrench{0, 0, 0, 0, 0, 0};    ///< [moment (N m); force (N)]
  TimeFunction scale = TimeFunction::constant(1.0);  ///< multiplies the wrench
  bool operator==(const PointLoadDesc&) const = default;
};

/// \brief One side of a closed-chain joint: a frame fixed to a link (for a soft link, to its
///        cross-section at abscissa X) or to the world.
struct ClosedChainFrameDesc {
  std::string link = "world";  ///< a link name, or "world" (side B only)
  double abscissa = 0.0;       ///< soft links: X from the base [m]; -1 = the tip; rigid: 0
  Placement placement;  ///< the joint frame in the link frame (rigid), the section frame (soft) or
                        ///< the world
  bool operator==(const ClosedChainFrameDesc&) const = default;
};

/// \brief A loop-closing joint (docs/theory/gvs.md §12): frame A on one link, frame B on
///        another link or the world; the two frames coincide when the loop is assembled. The joint
///        leaves free the motions of a tree joint of the same type (axis as for JointDesc, in the
///        common frame) and constrains the complement, Phi_perp (6 x m).
struct ClosedChainDesc {
  std::string name;
  JointDesc joint;  ///< fixed, revolute, prismatic, universal, planar or spherical
  /// keep only the in-plane constrained directions (rotation about z, translation along x and y
  /// of the joint frame): for loops that move in that plane only (planar rods, parallel axes),
  /// whose out-of-plane constraints would be redundant
  bool planar = false;
  ClosedChainFrameDesc a, b;
  bool operator==(const ClosedChainDesc&) const = default;
};

/// \brief A contact half-space: the robot stays on the side the normal points to.
struct ContactPlaneDesc {
  Vec3 point{0.0, 0.0, 0.0};   ///< a point of the plane [m]
  Vec3 normal{0.0, 0.0, 1.0};  ///< unit normal toward the free side (normalised on reading)
  bool operator==(const ContactPlaneDesc&) const = default;
};

/// \brief A solid contact sphere: the robot stays outside.
struct ContactSphereDesc {
  Vec3 centre{0.0, 0.0, 0.0};  ///< [m]
  double radius = 0.1;         ///< [m]
  bool operator==(const ContactSphereDesc&) const = default;
};

/// \brief A hollow contact cylinder of infinite length that the robot stays inside
///        (docs/theory/gvs.md §13.2).
struct ContactCylinderDesc {
  Vec3 point{0.0, 0.0, 0.0};  ///< a point of the axis [m]
  Vec3 axis{0.0, 0.0, 1.0};   ///< axis direction (normalised on reading)
  double radius = 0.15;       ///< inner radius [m]
  bool operator==(const ContactCylinderDesc&) const = default;
};

/// \brief Penalty contact of every computational point (a sphere of the local rod radius; for a
///        rigid body the bounding sphere of its shape, at its centre of mass) with fixed obstacles.
///        Normal force k delta^p (1 + c delta-dot), delta the penetration depth.
struct ContactDesc {
  double stiffness = 1e5;       ///< k_c [N/m^p]
  double exponent = 1.5;        ///< p >= 1 (1: linear spring, 1.5: Hertz)
  double smoothing = 0.0;       ///< width [m] of the C^1 blend of the force at delta = 0; 0 = off
  double damping = 0.0;         ///< Hunt-Crossley c [s/m]: force k delta^p (1 + c delta-dot)
  double friction = 0.0;        ///< Coulomb coefficient mu (0 = frictionless)
  double slip_velocity = 1e-3;  ///< regularisation speed of the friction law [m/s]
  bool rigid_bodies = true;     ///< whether rigid bodies take part (rod points always do)
  std::vector<ContactPlaneDesc> planes;
  std::vector<ContactSphereDesc> spheres;
  std::vector<ContactCylinderDesc> cylinders;
  bool operator==(const ContactDesc&) const = default;
};

/// \brief Hydrodynamic properties of one rigid link (docs/theory/gvs.md §13.3), about its
///        centre of mass with the link's axes.
struct FluidBodyDesc {
  std::string link;
  std::optional<double> volume;  ///< displaced volume [m^3]; absent: the volume of its shape
  std::array<double, 6> drag{0, 0, 0, 0, 0, 0};        ///< diagonal of D in F = -D |v| eta [SI]
  std::array<double, 6> added_mass{0, 0, 0, 0, 0, 0};  ///< diagonal of M_A [kg m^2, kg]
  bool operator==(const FluidBodyDesc&) const = default;
};

/// \brief A still fluid filling the space: buoyancy, drag F = -D |v| eta and added mass M_A.
struct FluidDesc {
  double density = 1000.0;              ///< rho_w [kg/m^3]
  double drag_normal = 1.0;             ///< rods: C_n (transverse drag coefficient)
  double drag_tangential = 0.01;        ///< rods: C_t (skin friction along the axis)
  double added_mass_coefficient = 1.0;  ///< rods: C_a (transverse added mass rho_w C_a A)
  std::vector<FluidBodyDesc> bodies;    ///< rigid links with drag, added mass or a volume
  bool operator==(const FluidDesc&) const = default;
};

/// \brief What surrounds the robot. Both parts are optional.
struct EnvironmentDesc {
  std::optional<ContactDesc> contact;
  std::optional<FluidDesc> fluid;
  bool operator==(const EnvironmentDesc&) const = default;
};

/// \brief A variable a controller drives to its set-point: a coordinate (one of the names of
///        Model::coordinate_names, e.g. "arm/joint/0" or "rod/div0/bend_y/0"), the length of a
///        cable (collocated with the cable's tension) or of an LVP tendon (with its tension), or
///        one world coordinate of a link's tip (a task-space output).
struct ControlledVariableDesc {
  enum class Kind { Coordinate, CableLength, TendonLength, TipPosition };
  Kind kind = Kind::Coordinate;
  std::string name;       ///< the coordinate's name, the cable's or LVP tendon's, or the link's
  TimeFunction setpoint;  ///< the desired value over time [rad, m]
  int axis = 0;           ///< TipPosition: the world axis x, y, z (0, 1, 2)
  bool operator==(const ControlledVariableDesc&) const = default;
};

/// \brief An input a controller writes: a force-mode joint input, a cable, an LVP tendon or a
///        cavity pressure, by name, with its saturation. A cable or tendon never pushes: its
///        tension is at least max(min, 0).
struct ControllerInputDesc {
  std::string name;
  std::optional<double> min, max;  ///< [N m, N, Pa]; absent: unbounded
  bool operator==(const ControllerInputDesc&) const = default;
};

/// \brief When a controller runs: [from, until). Before from it writes nothing (its inputs are
///        0); from until on it writes nothing (Off) or keeps regulating to its set-point frozen at
///        until, with zero set-point rates (Hold). A schedule of controllers is a list of them with
///        windows; two may write the same input only if their spans (to +inf when held) are
///        disjoint.
struct ControllerWindowDesc {
  enum class After { Off, Hold };
  double from = 0.0;            ///< [s], >= 0
  std::optional<double> until;  ///< [s], > from; absent: no end
  After after = After::Off;
  bool operator==(const ControllerWindowDesc&) const = default;
};

/// \brief A feedback law evaluated inside the dynamics (docs/theory/controllers.md): it reads the
///        state and writes inputs, replacing the inputs' own time functions.
struct ControllerDesc {
  /// PdGravityCompensation: u = A^-1 [K_P e + K_D e' + g(q) + s(q)] (A: the inputs' rows at the
  /// controlled coordinates). ComputedTorque: u = B^-1 ID(q, v, y_d'' + K_D e' + K_P e), every
  /// coordinate controlled. CollocatedPfbl: partial feedback linearisation of the outputs.
  enum class Type { PdGravityCompensation, ComputedTorque, CollocatedPfbl };
  std::string name;
  Type type = Type::PdGravityCompensation;
  std::vector<ControlledVariableDesc> controlled;
  std::vector<ControllerInputDesc> inputs;  ///< as many as controlled variables
  /// proportional and derivative gains: one for every variable, or one per variable. PD: a
  /// stiffness and damping [N m/rad, N/m; N m s/rad, N s/m]; computed torque and PFBL: the
  /// error dynamics e'' + K_D e' + K_P e = 0 [1/s^2; 1/s]
  std::vector<double> kp{1.0};
  std::vector<double> kd{1.0};
  double sample_period = 0.0;                  ///< zero-order hold [s]; 0 = at every evaluation
  std::optional<ControllerWindowDesc> active;  ///< absent: always active
  bool operator==(const ControllerDesc&) const = default;
};

struct RobotDescription {
  std::string name = "untitled";
  std::string description;        ///< free text: provenance, parameter choices (JSON "description")
  Vec3 gravity{0.0, 0.0, -9.81};  ///< [m/s^2]
  std::vector<LinkDesc> links;    ///< any order; parents are resolved by name
  std::vector<JointInputDesc> joint_inputs;
  std::vector<CableDesc> cables;
  std::vector<LvpTendonDesc> lvp_tendons;
  std::vector<CavityPressureDesc> cavity_pressures;
  std::vector<PointLoadDesc> point_loads;
  std::vector<ControllerDesc> controllers;
  EnvironmentDesc environment;  ///< contact obstacles and surrounding fluid
  std::vector<ClosedChainDesc> closed_chains;
  /// Baumgarte stabilisation time constant T_B of the closed-chain constraints [s]
  /// (docs/theory/gvs.md (46b)): the constraint error decays like a critically damped oscillator
  /// of this time constant
  double constraint_time_constant = 0.01;
  bool operator==(const RobotDescription&) const = default;
};

}  // namespace tendril
