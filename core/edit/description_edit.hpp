#pragma once
// Editing a RobotDescription the way the studio does: whole-description edits (add a link, a
// cable, a point load; remove; re-parent) and single-field edits addressed by JSON pointer into
// the engine's file format. Every function either returns a description that parses and builds
// (buildModel) or throws ParseError naming the JSON pointer of the offending value; the input is
// never modified by a failed edit. No Qt here: the undo commands live in ui/.

#include <nlohmann/json.hpp>
#include <string>

#include "core/model/description.hpp"

namespace tendril {

/// \brief The description as the JSON document the file would hold.
nlohmann::json descriptionToJson(const RobotDescription& robot);

/// \brief Parses \p json strictly and compiles it (buildModel) to catch physically invalid values.
/// \throw ParseError naming the pointer of the first invalid value
RobotDescription descriptionFromJson(const nlohmann::json& json);

/// \brief Compiles \p robot (buildModel). \throw ParseError naming the pointer of an invalid value
void checkDescription(const RobotDescription& robot);

/// \brief \p robot with the value at \p pointer replaced by \p value, checked. Setting the "type"
///        of a time function (a cable tension, a load scale, a joint input value) to another kind
///        replaces the function by one of that kind that starts from the old value (see
///        convertTimeFunction).
/// \throw ParseError for a pointer that does not exist or a value that is invalid there
RobotDescription withValue(const RobotDescription& robot, const std::string& pointer,
                           const nlohmann::json& value);

/// \brief The value at \p pointer. \throw ParseError when the pointer does not exist
nlohmann::json valueAt(const RobotDescription& robot, const std::string& pointer);

/// \brief A value typed by a person, read in the shape of \p like (the current value): a number,
///        an integer, true/false, a string, a flat list of numbers "0.1, 0, 0", or the points of a
///        time-function table "t0, v0; t1, v1; ..." (finite numbers, at least 2 points, times
///        strictly increasing).
/// \throw ParseError(pointer, reason) when the text does not fit
nlohmann::json valueFromText(const std::string& text, const nlohmann::json& like,
                             const std::string& pointer);

/// \brief The text shown for a leaf value: numbers with up to 6 significant digits, lists
///        separated by ", ", lists of lists (table points) by "; ", strings unquoted.
std::string textFromValue(const nlohmann::json& value);

/// \brief SI unit of the field at \p pointer (e.g. "/links/0/rigid/mass" -> "kg"), empty when the
///        field is dimensionless, a name or a choice. Lists give one unit per element when they
///        differ ("N m, N m, N m, N, N, N"); table points "s, <unit of the value>".
std::string fieldUnit(const std::string& pointer);

/// \brief As fieldUnit(pointer), made exact with the robot where the unit depends on it: a joint
///        input's value ("N m" for a revolute torque, "m" for a prismatic position, ...) and the
///        polynomial coefficients of a cable's offset ("m, -, 1/m, ...").
std::string fieldUnit(const RobotDescription& robot, const std::string& pointer);

/// \brief The choices of an enumerated field (joint type, shape, basis family, ...), or empty.
std::vector<std::string> fieldChoices(const std::string& pointer);

/// \brief \p base followed by the smallest number >= 1 that no link, cable, load or closed chain
///        uses yet ("link1", "link2", ...).
std::string uniqueName(const RobotDescription& robot, const std::string& base);

/// \brief The length of a new rigid link in a model without links [m].
inline constexpr double kDefaultLinkLength = 0.2;

/// \brief The length a new rigid link of \p robot gets so that it looks like the others (a new
///        rod twice that, as in an empty model): the median of its rigid links' distances to their
///        tips and of half its rods' and segments' centrelines; kDefaultLinkLength when it has
///        none.
double typicalLinkLength(const RobotDescription& robot);

/// \brief A rigid link with a box body \p length long and a fifth of that wide and high (0.5 kg
///        at 0.2 m, the same density at any length) whose tip is at its far end; revolute,
///        prismatic, helical and cylindrical joints move about (along) y.
LinkDesc makeRigidLink(const std::string& name, JointType joint,
                       double length = kDefaultLinkLength);

/// \brief A fixed soft rod of \p divisions equal divisions, \p length in all (radius a fortieth
///        of it: 10 mm at 0.4 m; 1 MPa, Legendre bending and torsion of order 2).
LinkDesc makeSoftLink(const std::string& name, int divisions = 1,
                      double length = 2.0 * kDefaultLinkLength);

/// \brief A constant-curvature segment on a fixed joint: radius a tenth of the length, the soft
///        rod's default material (E = 1 MPa, 1000 kg/m^3, eta = 10 kPa s).
LinkDesc makeConstantCurvatureLink(const std::string& name, CurvatureModel model, double length);

/// \brief The locally volume-preserving bodies the builder offers (seed 001's Simulations 1, 2).
enum class LvpPreset {
  Helicoid,    ///< Table 4: stretch, two bendings, twist, two shears (8 coordinates)
  Inflatable,  ///< Table 5: stretch and the source of a cavity of half the radius (2 coordinates)
};

/// \brief An LVP body on a fixed joint with the helicoid's size and material (L 0.1 m, R 0.02 m,
///        960 kg/m^3, C 0.178 MPa, eta 0.05 s) and \p preset's primitives.
LinkDesc makeLvpLink(const std::string& name, LvpPreset preset);

/// \brief Adds an LVP body at the tip of \p parent; an inflatable one with its cavity's pressure
///        (a constant 0 Pa named "<link>_chamber", edited like any input). \return its index
/// \throw ParseError when the result is invalid (nothing is changed then)
int addLvpLink(RobotDescription& robot, LinkDesc link, const std::string& parent);

/// \brief Adds \p link attached at the tip of \p parent ("world" or a link name). \return its index
/// \throw ParseError when the result is invalid (nothing is changed then)
int addLink(RobotDescription& robot, LinkDesc link, const std::string& parent);

/// \brief Adds a cable through every division of soft link \p link, offset half a radius along y,
///        with a constant tension of 1 N. \return its index \throw ParseError
int addCable(RobotDescription& robot, const std::string& link);

/// \brief Adds a tendon on LVP body \p link's outer surface from its base to its tip, 1 N
///        constant, at the next of three angles 120 degrees apart (the helicoid's triplets).
///        \return its index in lvp_tendons \throw ParseError when \p link is not an LVP body
int addLvpTendon(RobotDescription& robot, const std::string& link);

/// \brief Adds a 1 N downward force at the tip of \p link. \return its index \throw ParseError
int addPointLoad(RobotDescription& robot, const std::string& link);

/// \brief Removes the item at \p pointer ("/links/i", "/cables/i", "/point_loads/i",
///        "/joint_inputs/i", "/closed_chains/i", "/controllers/i", "/environment/fluid/bodies/i").
///        A link goes with its descendants and with every cable, load, input, closed chain and
///        fluid entry that refers to them; a controller goes with the inputs, cables or links it
///        names. \throw ParseError
void removeItem(RobotDescription& robot, const std::string& pointer);

/// \brief Attaches link \p link at the tip of \p parent (keeping its origin). \throw ParseError for
///        an unknown parent or a cycle (the link itself or one of its descendants)
void reparentLink(RobotDescription& robot, int link, const std::string& parent);

/// \brief \p f as a function of \p kind: constant c -> ramp to c over 1 s, sine of offset c and
///        amplitude 0, table {(0, c), (1, c)}; a ramp, sine or table keeps its final value, offset
///        or first value as c. The same kind is returned unchanged.
TimeFunction convertTimeFunction(const TimeFunction& f, TimeFunction::Kind kind);

/// \brief Inserts a point into the time-function table whose points are at \p points_pointer
///        (".../points") after point \p after (0-based): halfway (in time and value) to the next
///        point, or after the last one by the last interval (1 s for a single point) at the last
///        value. \return the new point's index \throw ParseError (nothing is changed then)
int addTablePoint(RobotDescription& robot, const std::string& points_pointer, int after);

/// \brief Removes point \p index of the table at \p points_pointer.
/// \throw ParseError when fewer than 2 points would remain, or for a bad pointer or index
void removeTablePoint(RobotDescription& robot, const std::string& points_pointer, int index);

/// \brief Lists rigid link \p link among the fluid's bodies with no drag, no added mass and the
///        volume of its shape (so that every field can be edited). \return its index in
///        environment.fluid.bodies
/// \throw ParseError when there is no fluid, the link is unknown or soft, or already listed
int addFluidBody(RobotDescription& robot, const std::string& link);

/// \brief Index of \p link among the fluid's bodies, or -1 (also without a fluid).
int findFluidBody(const RobotDescription& robot, const std::string& link);

/// \brief Adds a force input (constant 0) on coordinate 0 of the rigid joint of \p link.
/// \return its index \throw ParseError when the link has no such joint (fixed, or unknown)
int addJointInput(RobotDescription& robot, const std::string& link);

/// \brief Makes controlled variable \p variable of controller \p controller a \p kind: a joint
///        coordinate (the first joint input's it does not drive yet), the first cable's or LVP
///        tendon's length, or the world z of the last link's tip; an output turns the law into a
///        collocated_pfbl (the only one that drives outputs). The set-point stays (edit it next).
/// \throw ParseError when the robot has nothing of that kind or the result is invalid (nothing
///        is changed then)
void setControlledVariableKind(RobotDescription& robot, int controller, int variable,
                               ControlledVariableDesc::Kind kind);

/// \brief Gives controller \p controller an active window: [0, 1) s, switched off after it (its
///        fields then edit like any other). \throw ParseError when it has one already, for a bad
///        index, or when the window makes the model invalid (nothing is changed then)
void addControllerWindow(RobotDescription& robot, int controller);

/// \brief Removes controller \p controller's window: it acts for the whole run.
/// \throw ParseError when it has none, for a bad index, or when it would then overlap another
///        controller writing one of its inputs (nothing is changed then)
void removeControllerWindow(RobotDescription& robot, int controller);

/// \brief Adds a PD controller with gravity and elastic cancellation of coordinate 0 of the
///        joint of \p link: it writes the joint's force input there (one is added, constant 0,
///        when there is none; an unnamed one is named "<link>_motor"), tracks a cubic from 0 to
///        0.5 over [0, 1] s with K_P = 10, K_D = 1. \return its index in robot.controllers
/// \throw ParseError when the link has no moving joint (nothing is changed then)
int addController(RobotDescription& robot, const std::string& link);

/// \brief Adds a closed-chain joint of \p type between the tip of \p link_a (a rigid link's tip
///        frame, a soft link's tip section) and \p link_b ("world", or a link: its tip for a
///        soft link, its link frame for a rigid one). Frame B is placed where frame A is in the
///        reference configuration (q = 0), so the loop starts assembled. \return its index
/// \throw ParseError for an unknown link, the same link twice, or an invalid result
int addClosedChain(RobotDescription& robot, const std::string& link_a, const std::string& link_b,
                   JointType type, bool planar = false);

/// \brief Splits soft link \p link at abscissa \p abscissa [m from its base] into the link (up to
///        there) and a new fixed soft link that continues it to the old tip; the old link's
///        children, and point loads beyond the cut, move to the continuation. The split division
///        keeps its material, basis and taper. \return the continuation's index
/// \throw ParseError when the link is not soft, the abscissa is not strictly inside, or cables or
///        closed chains run through the link (they cannot span two links)
int splitSoftLink(RobotDescription& robot, int link, double abscissa);

/// \brief Adds \p new_link attached at abscissa \p abscissa along soft link \p rod: at its tip when
///        \p abscissa reaches the length, otherwise after splitSoftLink. \return the new link's
///        index
/// \throw ParseError (nothing is changed then)
int addLinkAlongRod(RobotDescription& robot, LinkDesc new_link, int rod, double abscissa);

/// \brief Index of the link named \p name, or -1.
int findLink(const RobotDescription& robot, const std::string& name);

}  // namespace tendril
