#include "core/io/urdf_structure.hpp"

#include <tinyxml.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/io/json_io.hpp"

namespace tendril {
namespace {

const std::set<std::string> kJointTypes = {"revolute", "continuous", "prismatic",
                                           "fixed",    "floating",   "planar"};

struct JointEdge {
  std::string name, parent, child;
};

std::string attribute(const TiXmlElement& element, const char* name) {
  const char* value = element.Attribute(name);
  return value ? value : "";
}

// the link named by <parent link="..."/> or <child link="..."/>
std::string linkOf(const TiXmlElement& joint, const char* role, const std::string& pointer) {
  const TiXmlElement* element = joint.FirstChildElement(role);
  const std::string link = element ? attribute(*element, "link") : "";
  if (link.empty()) throw ParseError(pointer, std::string("has no <") + role + " link=\"...\"/>");
  return link;
}

std::vector<std::string> readLinks(const TiXmlElement& robot) {
  std::vector<std::string> links;
  std::set<std::string> seen;
  int index = 1;
  for (const TiXmlElement* link = robot.FirstChildElement("link"); link;
       link = link->NextSiblingElement("link"), ++index) {
    const std::string name = attribute(*link, "name");
    if (name.empty()) throw ParseError("/robot/link[" + std::to_string(index) + "]", "has no name");
    if (!seen.insert(name).second) throw ParseError(urdfLinkPointer(name), "is defined twice");
    links.push_back(name);
  }
  if (links.empty()) throw ParseError("/robot", "has no <link>");
  return links;
}

std::vector<JointEdge> readJoints(const TiXmlElement& robot, const std::set<std::string>& links) {
  std::vector<JointEdge> joints;
  std::set<std::string> seen;
  int index = 1;
  for (const TiXmlElement* joint = robot.FirstChildElement("joint"); joint;
       joint = joint->NextSiblingElement("joint"), ++index) {
    const std::string name = attribute(*joint, "name");
    if (name.empty())
      throw ParseError("/robot/joint[" + std::to_string(index) + "]", "has no name");
    const std::string pointer = urdfJointPointer(name);
    if (!seen.insert(name).second) throw ParseError(pointer, "is defined twice");
    const std::string type = attribute(*joint, "type");
    if (!kJointTypes.count(type)) {
      throw ParseError(pointer, "unknown joint type '" + type +
                                    "' (URDF has revolute, continuous, prismatic, fixed, "
                                    "floating and planar)");
    }
    JointEdge edge{name, linkOf(*joint, "parent", pointer), linkOf(*joint, "child", pointer)};
    for (const std::string* link : {&edge.parent, &edge.child}) {
      if (!links.count(*link)) {
        throw ParseError(pointer, std::string(link == &edge.parent ? "parent" : "child") +
                                      " link '" + *link + "' is not defined");
      }
    }
    joints.push_back(edge);
  }
  return joints;
}

// child link -> the joint holding it; a second joint on the same child is an error
std::map<std::string, const JointEdge*> parentJoints(const std::vector<JointEdge>& joints) {
  std::map<std::string, const JointEdge*> parent_of;
  for (const JointEdge& joint : joints) {
    const auto [existing, inserted] = parent_of.emplace(joint.child, &joint);
    if (!inserted) {
      throw ParseError(urdfLinkPointer(joint.child),
                       "is the child of two joints, '" + existing->second->name + "' and '" +
                           joint.name + "' (a URDF is a tree; close loops in Tendril instead)");
    }
  }
  return parent_of;
}

// walking up from each link must reach a link without a parent joint; a walk that comes back to
// a link it passed has gone round a cycle
void rejectCycles(const std::vector<std::string>& links,
                  const std::map<std::string, const JointEdge*>& parent_of) {
  for (const std::string& start : links) {
    std::vector<const JointEdge*> path;  // the joints walked, from start upwards
    std::map<std::string, std::size_t> passed;
    std::string link = start;
    for (auto up = parent_of.find(link); up != parent_of.end(); up = parent_of.find(link)) {
      passed.emplace(link, path.size());
      path.push_back(up->second);
      link = up->second->parent;
      const auto again = passed.find(link);
      if (again == passed.end()) continue;
      std::string cycle = link;
      for (std::size_t i = again->second; i < path.size(); ++i)
        cycle = path[i]->parent + " -> " + cycle;
      throw ParseError(urdfJointPointer(path[again->second]->name),
                       "closes a cycle of joints (" + cycle + "); a URDF is a tree");
    }
  }
}

}  // namespace

std::string urdfLinkPointer(const std::string& name) {
  return "/robot/link[@name='" + name + "']";
}

std::string urdfJointPointer(const std::string& name) {
  return "/robot/joint[@name='" + name + "']";
}

UrdfStructure checkUrdfStructure(const std::string& xml_text) {
  TiXmlDocument document;
  document.Parse(xml_text.c_str());
  if (document.Error()) {
    throw ParseError("", "not well-formed XML (line " + std::to_string(document.ErrorRow()) +
                             ", column " + std::to_string(document.ErrorCol()) + ": " +
                             document.ErrorDesc() + ")");
  }
  const TiXmlElement* robot = document.RootElement();
  if (!robot || robot->ValueStr() != "robot")
    throw ParseError("", "the root element is not <robot>");
  UrdfStructure structure;
  structure.links = readLinks(*robot);
  const std::vector<JointEdge> joints =
      readJoints(*robot, std::set<std::string>(structure.links.begin(), structure.links.end()));
  const auto parent_of = parentJoints(joints);
  rejectCycles(structure.links, parent_of);
  std::vector<std::string> roots;
  for (const std::string& link : structure.links) {
    if (!parent_of.count(link)) roots.push_back(link);
  }
  if (roots.size() > 1) {
    throw ParseError("/robot", "has " + std::to_string(roots.size()) + " root links ('" + roots[0] +
                                   "', '" + roots[1] + "'...): join them to one tree by joints");
  }
  structure.root = roots.front();
  return structure;
}

}  // namespace tendril
