#pragma once
// The rigid robots of issue 28's comparison with Pinocchio and of the IDSVA paper's benchmarks,
// built in
// code: a 7-joint arm, serial chains, branched trees and a free-base humanoid.

#include <string>

#include "core/model/description.hpp"

namespace tendril::test {

/// \brief The 7-joint arm: joints Z Y Z Y Z Y Z, joint i at 0.1 0.2 0.2 0.2 0.2 0.1 0.1 m along z
///        from the one before, mass 3.0 - 0.3 (i - 1) kg, centre of mass (0.01 i, -0.005 i, 0.08),
///        full inertia tensors.
RobotDescription benchmarkArm();

/// \brief A serial chain of n revolute joints about z, y, x in turn, 0.1 m apart along z; each
///        link 1 kg with its centre of mass at (0, 0, 0.05) and inertia diag(1e-3, 1e-3, 5e-4).
RobotDescription benchmarkChain(int n);

/// \brief A tree of n links of the chain's kind, each link carrying up to `branching` children
///        (breadth first: link k's parent is (k - 1) / branching), as in the IDSVA paper's
///        benchmarks.
RobotDescription branchedTree(int n, int branching);

/// \brief A 35-dof humanoid: a free-floating pelvis (6), a 2-joint waist, a 1-joint neck, two
///        6-joint legs and two 7-joint arms (29 revolute joints), with limb-like masses.
RobotDescription benchmarkHumanoid();

/// \brief A tree of n rigid links on every joint type in turn (revolute, prismatic, helical,
///        cylindrical, universal, planar, spherical, free, fixed), each hung from a random earlier
///        link with a random placement, axis, mass and full inertia tensor.
RobotDescription randomRigidTree(unsigned seed, int n_links);

/// \brief randomRigidTree(3, 6) on a free-floating first link, in water (buoyancy, drag, added
///        mass on every link), with a contact plane through the bodies and a point load on the last
///        link given in \p load_frame: every external wrench of external_loads.cpp at once.
RobotDescription floatingTreeWithEveryLoad(LoadFrame load_frame);

}  // namespace tendril::test
