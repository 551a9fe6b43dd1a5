#pragma once
// Actuation of locally volume-preserving bodies (docs/theory/lvp.md §7, §8): tendons on their
// outer surfaces and pressures in their cavities; and the model's inputs as one named vector u,
// for controllers that write inputs by name.
//
// Tendon: straight segments between consecutive material anchors p_a (on any LVP bodies), length
// l(q) = sum |p_{a+1} - p_a|; a tension T >= 0 pulls: generalised force -T dl/dq, i.e. B's column
// is -(dl/dq)^T = -A(q) in the seed paper's notation A = (dl/dq)^T.
// Cavity: the generalised force of a pressure p on the chamber's walls is the virtual work
// p dV/dq (V the chamber volume, LvpKinematics::cavityVolume), on the body's own coordinates.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief The names of the model's inputs, in the order of an input vector u: the force-mode
///        joint inputs ("<link>/joint/<dof>"), the cables, the LVP tendons and the cavity
///        pressures (their names).
[[nodiscard]] std::vector<std::string> inputNames(const Model& model);

/// \brief u(t) from the description's time functions, in the order of inputNames().
[[nodiscard]] Eigen::VectorXd inputValues(const Model& model, double t);

/// \brief tau = B(q) u for an input vector u in the order of inputNames() (joint forces,
///        cable and tendon tensions [N], pressures [Pa]). Evaluates the bodies at (q, 0) in
///        data.agnostic (allocates a little: not for inner loops).
/// \throw std::invalid_argument when u has the wrong size
void applyInputs(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> tau);

/// \brief Length of LVP tendon \p tendon at q [m] and, when \p gradient is given, dl/dq (nv).
///        Evaluates the bodies' distal frames at (q, 0) in data.agnostic.
double lvpTendonLength(const Model& model, Data& data, int tendon,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       Eigen::VectorXd* gradient = nullptr);

/// \brief The lengths [m] of every LVP tendon at q and their dl/dq (column i for tendon i, nv x
///        tendons), from one evaluation of the bodies' distal frames at (q, 0) in data.agnostic.
///        Allocation-free.
void lvpTendonLengths(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                      Eigen::Ref<Eigen::VectorXd> lengths, Eigen::Ref<Eigen::MatrixXd> gradients);
/// \brief The same in a model-agnostic workspace of the caller's (one that the dynamics' passes
///        do not use, so that their evaluations stay as they were).
void lvpTendonLengths(const Model& model, ModelAgnosticWorkspace& workspace,
                      const Eigen::Ref<const Eigen::VectorXd>& q,
                      Eigen::Ref<Eigen::VectorXd> lengths, Eigen::Ref<Eigen::MatrixXd> gradients);

/// \brief The generalised force of each cavity pressure at 1 Pa, dV/dq (column i for
///        Model::cavity_pressures[i], nv x pressures; zero outside the cavity's body), from one
///        evaluation of the bodies at (q, 0) in data.agnostic. Allocation-free.
void cavityVolumeGradients(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           Eigen::Ref<Eigen::MatrixXd> gradients);
/// \brief The same in a model-agnostic workspace of the caller's.
void cavityVolumeGradients(const Model& model, ModelAgnosticWorkspace& workspace,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           Eigen::Ref<Eigen::MatrixXd> gradients);

/// \brief tau += the LVP tendons' and cavity pressures' generalised forces at time t, with the
///        bodies' evaluations already at q in data.agnostic (as after the model-agnostic passes:
///        the distal frames and joint Jacobians do not depend on v).
void addLvpActuationForces(const Model& model, Data& data,
                           const Eigen::Ref<const Eigen::VectorXd>& q, double t,
                           Eigen::Ref<Eigen::VectorXd> tau);

}  // namespace tendril
