#pragma once
// The element tree of a URDF, checked before urdfdom reads it: urdfdom reports a malformed file,
// a cycle or a link with two parents in words that name no element, or not at all (a cycle below
// the root makes its tree walk loop). Errors are ParseErrors whose pointer names the element the
// XPath way, e.g. "/robot/joint[@name='elbow']".

#include <string>
#include <vector>

namespace tendril {

/// \brief "/robot/link[@name='<name>']" and "/robot/joint[@name='<name>']".
[[nodiscard]] std::string urdfLinkPointer(const std::string& name);
[[nodiscard]] std::string urdfJointPointer(const std::string& name);

/// \brief What the import takes from the element tree itself.
struct UrdfStructure {
  std::vector<std::string> links;  ///< link names in document order
  std::string root;                ///< the one link that is no joint's child
};

/// \brief Parses \p xml_text and checks that it is a <robot> whose joints (of the URDF types)
///        join its links into one tree: every joint names defined parent and child links, no
///        link is the child of two joints, no chain of joints closes on itself, one link is the
///        root.
/// \throw ParseError naming the element and the reason (pointer "" for malformed XML)
UrdfStructure checkUrdfStructure(const std::string& xml_text);

}  // namespace tendril
