#include "core/io/urdf_import.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include "core/io/json_io.hpp"
#include "core/io/mesh_bounds.hpp"
#include "core/io/urdf_structure.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {
namespace {

namespace fs = std::filesystem;

// urdfdom reports through console_bridge: its errors go into the exception, not to stderr
class MessageCollector : public console_bridge::OutputHandler {
 public:
  MessageCollector() { console_bridge::useOutputHandler(this); }
  ~MessageCollector() override { console_bridge::restorePreviousOutputHandler(); }
  MessageCollector(const MessageCollector&) = delete;
  MessageCollector& operator=(const MessageCollector&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors_ += (errors_.empty() ? "" : "; ") + text;
  }
  const std::string& errors() const { return errors_; }

 private:
  std::string errors_;
};

Eigen::Isometry3d toIsometry(const urdf::Pose& pose) {
  const urdf::Rotation& r = pose.rotation;
  Eigen::Isometry3d g = Eigen::Isometry3d::Identity();
  g.linear() = Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
  g.translation() << pose.position.x, pose.position.y, pose.position.z;
  return g;
}

// + 0.0 turns -0 into 0, which files read more easily
Vec3 toVec3(const Eigen::Vector3d& v) {
  return {v.x() + 0.0, v.y() + 0.0, v.z() + 0.0};
}

Placement toPlacement(const Eigen::Isometry3d& g) {
  return {toVec3(g.translation()), toVec3(rotationToRpy(g.linear()))};
}

// a rotation that takes z to the unit vector n (the smallest one)
Eigen::Matrix3d zTo(const Eigen::Vector3d& n) {
  return Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), n).toRotationMatrix();
}

// principal moments of a physical body are positive and satisfy the triangle inequality (with
// buildModel's tolerance, so that whatever passes here builds)
void checkInertia(const Eigen::Matrix3d& I, const std::string& pointer) {
  const Eigen::Vector3d d = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues();
  const double slack = 1 - 1e-9;
  const bool positive = d.minCoeff() > 0.0;
  const bool triangle =
      d(0) + d(1) >= d(2) * slack && d(0) + d(2) >= d(1) * slack && d(1) + d(2) >= d(0) * slack;
  if (positive && triangle) return;
  std::ostringstream reason;
  reason << "not a physical inertia: principal moments " << d(0) << ", " << d(1) << ", " << d(2)
         << " kg m^2 (they must be positive and each at most the sum of the other two)";
  throw ParseError(pointer, reason.str());
}

// only the limits the URDF gives; the position range of a continuous joint means nothing
std::optional<JointLimitsDesc> limitsOf(const urdf::Joint& joint, const std::string& pointer) {
  JointLimitsDesc limits;
  if (joint.limits) {
    if (joint.type == urdf::Joint::REVOLUTE || joint.type == urdf::Joint::PRISMATIC) {
      limits.lower = joint.limits->lower;
      limits.upper = joint.limits->upper;
      if (*limits.lower > *limits.upper)
        throw ParseError(pointer + "/limit", "lower lies above upper");
    }
    limits.velocity = joint.limits->velocity;
    limits.effort = joint.limits->effort;
  }
  if (joint.dynamics) {
    limits.damping = joint.dynamics->damping;
    limits.friction = joint.dynamics->friction;
  }
  for (const auto* value : {&limits.velocity, &limits.effort, &limits.damping, &limits.friction}) {
    if (*value && **value < 0.0)
      throw ParseError(pointer, "a velocity, effort, damping or friction is negative");
  }
  if (limits == JointLimitsDesc{}) return std::nullopt;
  return limits;
}

class UrdfImporter {
 public:
  UrdfImporter(const urdf::ModelInterface& urdf, const UrdfStructure& structure, fs::path folder,
               const UrdfImportOptions& options)
      : urdf_(urdf), folder_(std::move(folder)), options_(options) {
    for (std::size_t i = 0; i < structure.links.size(); ++i) order_[structure.links[i]] = i;
  }

  RobotDescription run(const std::string& file_name) {
    robot_.name = urdf_.getName().empty() ? "imported" : urdf_.getName();
    visit(*urdf_.getRoot());
    robot_.description = "Imported from " + file_name + " (URDF)." + notes();
    return std::move(robot_);
  }

 private:
  // where a URDF link's frame is: in the tip frame of a Tendril link, or in the world
  struct Attachment {
    std::string link;
    Eigen::Isometry3d g_TL = Eigen::Isometry3d::Identity();
  };

  // parents first, children in document order
  void visit(const urdf::Link& link) {
    attach(link);
    std::vector<const urdf::Link*> children;
    for (const urdf::LinkSharedPtr& child : link.child_links) children.push_back(child.get());
    std::sort(children.begin(), children.end(), [this](const urdf::Link* a, const urdf::Link* b) {
      return order_.at(a->name) < order_.at(b->name);
    });
    for (const urdf::Link* child : children) visit(*child);
  }

  // a link with a mass becomes a Tendril link; one without rides on its parent
  void attach(const urdf::Link& link) {
    const urdf::Joint* joint = link.parent_joint.get();
    if (!joint) {  // the root: the world itself, or held by it
      if (!link.inertial || link.name == "world") {
        attachments_[link.name] = Attachment{"world", Eigen::Isometry3d::Identity()};
        if (link.name != "world") merged_.push_back(link.name);
        return;
      }
      addLink(link, nullptr, Attachment{"world", Eigen::Isometry3d::Identity()});
      return;
    }
    if (link.name == "world") {
      throw ParseError(urdfLinkPointer(link.name),
                       "'world' is Tendril's fixed frame: only the root link may be called so");
    }
    const Attachment& parent = attachments_.at(joint->parent_link_name);
    const Eigen::Isometry3d g_TJ =
        parent.g_TL * toIsometry(joint->parent_to_joint_origin_transform);
    if (link.inertial) {
      addLink(link, joint, Attachment{parent.link, g_TJ});
      return;
    }
    if (joint->type != urdf::Joint::FIXED) {
      throw ParseError(urdfLinkPointer(link.name),
                       "has no <inertial> but moves on joint '" + joint->name +
                           "': Tendril needs a positive mass and inertia on every moving link");
    }
    attachments_[link.name] = Attachment{parent.link, g_TJ};
    merged_.push_back(link.name);
  }

  // the link frame is the URDF link frame turned by R_UT (identity but for planar joints)
  void addLink(const urdf::Link& link, const urdf::Joint* joint, const Attachment& at) {
    LinkDesc out;
    out.name = link.name;
    out.parent = at.link;
    out.joint = jointOf(joint, at.link == "world");
    Eigen::Matrix3d R_UT = Eigen::Matrix3d::Identity();
    if (joint && joint->type == urdf::Joint::PLANAR) {
      const Eigen::Vector3d normal(joint->axis.x, joint->axis.y, joint->axis.z);
      R_UT = zTo(normal.normalized());
    }
    Eigen::Isometry3d g_TJ = at.g_TL;
    g_TJ.linear() = g_TJ.linear() * R_UT;
    out.origin = toPlacement(g_TJ);
    out.body = rigidBodyOf(link, R_UT);
    if (!R_UT.isIdentity(0.0)) out.rigid().tip.rpy = toVec3(rotationToRpy(R_UT.transpose()));
    if (joint && joint->mimic) mimics_.push_back(joint->name);
    robot_.links.push_back(std::move(out));
    attachments_[link.name] = Attachment{link.name, Eigen::Isometry3d::Identity()};
  }

  // the root has no joint; a fixed joint to the world is free when the base floats
  JointDesc jointOf(const urdf::Joint* joint, bool held_by_world) const {
    JointDesc out;
    out.axis = {1.0, 0.0, 0.0};
    if (!joint) {
      out.type = options_.floating_base ? JointType::Free : JointType::Fixed;
      return out;
    }
    const std::string pointer = urdfJointPointer(joint->name);
    const Eigen::Vector3d axis(joint->axis.x, joint->axis.y, joint->axis.z);
    switch (joint->type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        out.type = JointType::Revolute;
        break;
      case urdf::Joint::PRISMATIC:
        out.type = JointType::Prismatic;
        break;
      case urdf::Joint::FLOATING:
        out.type = JointType::Free;
        break;
      case urdf::Joint::PLANAR:
        out.type = JointType::Planar;
        out.axis = {0.0, 0.0, 1.0};  // the normal, once the joint frame is turned
        break;
      case urdf::Joint::FIXED:
        out.type = options_.floating_base && held_by_world ? JointType::Free : JointType::Fixed;
        break;
      default:
        throw ParseError(pointer, "unknown joint type");
    }
    const bool axial = out.type == JointType::Revolute || out.type == JointType::Prismatic;
    if ((axial || out.type == JointType::Planar) && !(axis.norm() > 1e-12))
      throw ParseError(pointer + "/axis", "must not be zero");
    if (axial) out.axis = toVec3(axis.normalized());
    out.limits = limitsOf(*joint, pointer);
    return out;
  }

  RigidBodyDesc rigidBodyOf(const urdf::Link& link, const Eigen::Matrix3d& R_UT) {
    const std::string pointer = urdfLinkPointer(link.name);
    const urdf::Inertial& inertial = *link.inertial;
    if (!(inertial.mass > 0.0)) throw ParseError(pointer + "/inertial/mass", "must be positive");
    const Eigen::Isometry3d g_UC = toIsometry(inertial.origin);
    Eigen::Matrix3d I_C;
    I_C << inertial.ixx, inertial.ixy, inertial.ixz, inertial.ixy, inertial.iyy, inertial.iyz,
        inertial.ixz, inertial.iyz, inertial.izz;
    // the tensor about the centre of mass, from the inertial frame's axes into the link's
    const Eigen::Matrix3d R_TC = R_UT.transpose() * g_UC.linear();
    const Eigen::Matrix3d I = R_TC * I_C * R_TC.transpose();
    checkInertia(I, pointer + "/inertial/inertia");
    RigidBodyDesc body;
    body.mass = inertial.mass;
    const Eigen::Vector3d com = R_UT.transpose() * g_UC.translation();
    body.com = toVec3(com);
    body.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
    body.tip = Placement{};
    // the shape frame seen from the centre-of-mass frame (link axes at the com)
    Eigen::Isometry3d g_CT = Eigen::Isometry3d::Identity();
    g_CT.translation() = -com;
    Eigen::Isometry3d g_TU = Eigen::Isometry3d::Identity();
    g_TU.linear() = R_UT.transpose();
    body.shape = shapeOf(link, body, g_CT * g_TU);
    return body;
  }

  // the first visual; none: the sphere of the body's mass and mean moment
  ShapeDesc shapeOf(const urdf::Link& link, const RigidBodyDesc& body,
                    const Eigen::Isometry3d& g_CU) {
    ShapeDesc shape;
    const urdf::Visual* visual = link.visual.get();
    if (!visual || !visual->geometry) {
      const double mean_moment = (body.inertia[0] + body.inertia[1] + body.inertia[2]) / 3.0;
      shape.type = ShapeType::Sphere;
      shape.size = {std::sqrt(2.5 * mean_moment / body.mass), 0.0, 0.0};
      return shape;
    }
    if (link.visual_array.size() > 1) extra_visuals_.push_back(link.name);
    const std::string pointer = urdfLinkPointer(link.name) + "/visual/geometry";
    Eigen::Isometry3d g_US = toIsometry(visual->origin);
    const urdf::Geometry& geometry = *visual->geometry;
    switch (geometry.type) {
      case urdf::Geometry::BOX: {
        const auto& dim = static_cast<const urdf::Box&>(geometry).dim;
        shape.type = ShapeType::Box;
        shape.size = {dim.x, dim.y, dim.z};
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& cylinder = static_cast<const urdf::Cylinder&>(geometry);
        shape.type = ShapeType::Cylinder;
        shape.size = {cylinder.radius, cylinder.length, 0.0};
        // URDF's axis is z, Tendril's x
        g_US.linear() =
            g_US.linear() *
            Eigen::AngleAxisd(-std::numbers::pi / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();
        break;
      }
      case urdf::Geometry::SPHERE:
        shape.type = ShapeType::Sphere;
        shape.size = {static_cast<const urdf::Sphere&>(geometry).radius, 0.0, 0.0};
        break;
      case urdf::Geometry::MESH:
        setMesh(shape, static_cast<const urdf::Mesh&>(geometry), pointer + "/mesh");
        break;
    }
    const int used = shape.type == ShapeType::Cylinder ? 2
                     : shape.type == ShapeType::Sphere ? 1
                                                       : 3;
    for (int i = 0; i < used; ++i) {
      if (!(shape.size[static_cast<std::size_t>(i)] > 0.0))
        throw ParseError(pointer, "sizes must be positive");
    }
    shape.origin = toPlacement(g_CU * g_US);
    if (visual->material) {
      // urdfdom reads floats: back to the six decimals a file would give
      const auto channel = [](float c) { return std::clamp(std::round(c * 1e6) / 1e6, 0.0, 1.0); };
      const urdf::Color& c = visual->material->color;
      shape.color = {channel(c.r), channel(c.g), channel(c.b)};
    }
    return shape;
  }

  // the file, its scale, and the box around its scaled vertices
  void setMesh(ShapeDesc& shape, const urdf::Mesh& mesh, const std::string& pointer) const {
    const fs::path file = resolveUrdfMeshFile(mesh.filename, folder_);
    if (file.empty() || !fs::is_regular_file(file)) {
      throw ParseError(pointer, "mesh file '" + mesh.filename + "' not found" +
                                    (file.empty() ? "" : " (looked for " + file.string() + ")"));
    }
    MeshBounds bounds;
    try {
      bounds = meshBounds(file);
    } catch (const std::runtime_error& error) {
      throw ParseError(pointer, error.what());
    }
    const Eigen::Vector3d scale(mesh.scale.x, mesh.scale.y, mesh.scale.z);
    if (!(scale.cwiseAbs().minCoeff() > 0.0)) throw ParseError(pointer, "scale must not be zero");
    // a negative factor mirrors: the corners swap
    const Eigen::Vector3d a = bounds.min.cwiseProduct(scale), b = bounds.max.cwiseProduct(scale);
    const Eigen::Vector3d low = a.cwiseMin(b), high = a.cwiseMax(b);
    constexpr double kThinnest = 1e-6;  // a flat mesh still bounds a box [m]
    shape.type = ShapeType::Mesh;
    shape.mesh = file.string();
    shape.scale = toVec3(scale);
    shape.size = toVec3((high - low).cwiseMax(kThinnest));
    shape.box_centre = toVec3(0.5 * (low + high));
  }

  std::string notes() const {
    const auto list = [](const std::vector<std::string>& names) {
      std::string text;
      for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
      return text;
    };
    std::string text;
    if (!merged_.empty())
      text += " Links without <inertial> merged into their parents: " + list(merged_) + ".";
    if (!extra_visuals_.empty())
      text += " Only the first <visual> is kept on: " + list(extra_visuals_) + ".";
    if (!mimics_.empty()) text += " Mimic relations ignored on joints: " + list(mimics_) + ".";
    return text;
  }

  const urdf::ModelInterface& urdf_;
  fs::path folder_;
  UrdfImportOptions options_;
  std::map<std::string, std::size_t> order_;  ///< link name -> place in the document
  std::map<std::string, Attachment> attachments_;
  RobotDescription robot_;
  std::vector<std::string> merged_, mimics_, extra_visuals_;
};

std::string readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParseError("", "cannot open " + path.string());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

fs::path resolveUrdfMeshFile(const std::string& filename, const fs::path& urdf_folder) {
  const std::string package = "package://", file = "file://";
  const fs::path folder = fs::absolute(urdf_folder).lexically_normal();
  if (filename.rfind(file, 0) == 0)
    return fs::path(filename.substr(file.size())).lexically_normal();
  if (filename.rfind(package, 0) != 0) return (folder / filename).lexically_normal();
  const std::string rest = filename.substr(package.size());
  const std::size_t slash = rest.find('/');
  const std::string name = rest.substr(0, slash);
  const fs::path inside =
      slash == std::string::npos ? fs::path() : fs::path(rest.substr(slash + 1));
  // the package folder: this folder or one above it, or a folder beside one of them
  for (fs::path at = folder;; at = at.parent_path()) {
    if (at.filename() == name && fs::exists(at / inside)) return (at / inside).lexically_normal();
    if (fs::exists(at / name / inside)) return (at / name / inside).lexically_normal();
    if (at == at.parent_path()) return {};
  }
}

RobotDescription importUrdf(const fs::path& urdf, const UrdfImportOptions& options) {
  const std::string text = readFile(urdf);
  const UrdfStructure structure = checkUrdfStructure(text);
  urdf::ModelInterfaceSharedPtr model;
  MessageCollector messages;
  try {
    model = urdf::parseURDF(text);
  } catch (const std::exception& error) {
    throw ParseError("/robot", std::string("urdfdom: ") + error.what());
  }
  if (!model) {
    throw ParseError("/robot",
                     "urdfdom could not read the robot: " +
                         (messages.errors().empty() ? "no reason given" : messages.errors()));
  }
  const fs::path folder = fs::absolute(urdf).parent_path();
  return UrdfImporter(*model, structure, folder, options).run(urdf.filename().string());
}

void convertUrdf(const fs::path& urdf, const fs::path& json, const UrdfImportOptions& options) {
  const RobotDescription robot = importUrdf(urdf, options);
  buildModel(robot);  // what is written must open
  saveRobot(robot, json);
}

}  // namespace tendril
