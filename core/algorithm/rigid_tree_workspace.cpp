#include "core/algorithm/rigid_tree_workspace.hpp"

#include <algorithm>

namespace tendril {

bool supportsRigidTreeRoutes(const Model& model) {
  if (model.has_added_mass) return false;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    if (joint.nq > 0 && (joint.group_first != j || joint.group_next >= 0)) return false;
  }
  return true;
}

namespace {

// whether block begins where the last of the runs that a joint's list began at `first` ends
bool extendsLastRun(const std::vector<CoordinateBlock>& runs, int first,
                    const CoordinateBlock& block) {
  return static_cast<int>(runs.size()) > first && runs.back().idx + runs.back().n == block.idx;
}

}  // namespace

RigidTreeWorkspace::RigidTreeWorkspace(const Model& model)
    : supported(supportsRigidTreeRoutes(model)) {
  if (!supported) return;
  const int n = model.n_vjoints();
  run_begin.assign(static_cast<std::size_t>(n) + 1, 0);
  mass_run_begin.assign(static_cast<std::size_t>(n) + 1, 0);
  std::vector<CoordinateBlock> path;
  for (int j = 0; j < n; ++j) {
    // the ancestors' coordinate blocks, ascending, then merged where one ends as the next begins
    path.clear();
    for (int a = model.joints[j].parent; a >= 0; a = model.joints[a].parent) {
      if (model.joints[a].nq > 0) path.push_back({model.joints[a].idx_q, model.joints[a].nq});
    }
    std::sort(path.begin(), path.end(),
              [](const CoordinateBlock& x, const CoordinateBlock& y) { return x.idx < y.idx; });
    // a joint of six coordinates (a free base) stays a run of its own in dID's runs: dID forms the
    // entries against it as fixed-size 6 x 6 products, where merged with the limb below it (a
    // humanoid's base and waist, 8 coordinates) it went through the dynamic-size products of a
    // long run. The mass matrix forms every entry alike and takes the runs merged throughout
    run_begin[j] = static_cast<int>(ancestor_runs.size());
    mass_run_begin[j] = static_cast<int>(mass_runs.size());
    bool last_is_free_base = false;
    for (const CoordinateBlock& block : path) {
      const bool free_base = block.n == kFreeBaseRun;
      if (extendsLastRun(ancestor_runs, run_begin[j], block) && !free_base && !last_is_free_base) {
        ancestor_runs.back().n += block.n;
      } else {
        ancestor_runs.push_back(block);
      }
      last_is_free_base = free_base;
      if (extendsLastRun(mass_runs, mass_run_begin[j], block)) {
        mass_runs.back().n += block.n;
      } else {
        mass_runs.push_back(block);
      }
    }
  }
  run_begin[n] = static_cast<int>(ancestor_runs.size());
  mass_run_begin[n] = static_cast<int>(mass_runs.size());
  columns = Eigen::Matrix<double, Eigen::Dynamic, 24>::Zero(model.nv, 24);
  rows = Eigen::Matrix<double, Eigen::Dynamic, 24, Eigen::RowMajor>::Zero(model.nv, 24);
  row_scratch = Eigen::VectorXd::Zero(model.nv);
}

}  // namespace tendril
