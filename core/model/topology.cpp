#include <algorithm>

#include "core/model/model.hpp"

namespace tendril {

void declareTopology(Model& model) {
  const int n = model.n_vjoints();
  Topology& topology = model.topology;
  // a joint continues its parent's group when it has the same coordinates (the next interval of a
  // division); every other joint with coordinates starts a group
  for (VirtualJoint& joint : model.joints)
    joint.group_first = joint.group_previous = joint.group_next = -1;
  for (int j = 0; j < n; ++j) {
    VirtualJoint& joint = model.joints[j];
    if (joint.nq == 0) continue;
    const int parent = joint.parent;
    const bool continues = parent >= 0 && model.joints[parent].nq == joint.nq &&
                           model.joints[parent].idx_q == joint.idx_q;
    joint.group_first = continues ? model.joints[parent].group_first : j;
    if (!continues) continue;
    joint.group_previous = parent;
    model.joints[parent].group_next = j;
  }
  topology.coordinate_path.assign(n, {});
  for (int j = 0; j < n; ++j) {
    auto& path = topology.coordinate_path[j];
    for (int p = j; p >= 0; p = model.joints[p].parent) {
      if (model.joints[p].nq == 0) continue;
      const int group = model.joints[p].group_first;
      const bool seen = std::any_of(path.begin(), path.end(),
                                    [group](const auto& entry) { return entry.first == group; });
      if (!seen) path.emplace_back(group, p);  // walking up, p is the group's last on the path
    }
  }
  topology.ancestor_cols.assign(n, 0);
  for (int j = 0; j < n; ++j) {  // parents first
    const VirtualJoint& joint = model.joints[j];
    const int parent_cols = joint.parent < 0 ? 0 : topology.ancestor_cols[joint.parent];
    topology.ancestor_cols[j] = std::max(parent_cols, joint.idx_q + joint.nq);
  }
}

}  // namespace tendril
