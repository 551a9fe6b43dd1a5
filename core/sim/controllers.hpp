#pragma once
// The model's controllers in the simulation loop: their inputs at every evaluation of the
// dynamics, or held between sample instants (zero-order hold), inside their time windows (a
// schedule; outside a window a controller writes nothing, or regulates to its frozen set-point
// when held), and what a run records of them.

#include <Eigen/Core>
#include <vector>

#include "core/algorithm/controller.hpp"
#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"
#include "core/sim/frame.hpp"  // ControlRecord

namespace tendril {

/// \brief The labels of the recorded series: "<controller>: <variable>" and "<controller>:
///        <input>", in ControlRecord order.
std::vector<std::string> controlledVariableLabels(const Model& model);
std::vector<std::string> controllerInputLabels(const Model& model);

class ControllerLoop {
 public:
  /// \brief Workspaces for model.controllers, with a Data of its own (the controllers' ID and
  ///        MID calls must not disturb the dynamics' workspace).
  explicit ControllerLoop(const Model& model);

  /// \brief tau += B(q) u of every controller at (t, q, v): evaluated now, or the held value of a
  ///        sampled controller once sample() has run. Allocation-free.
  void addForces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                 Eigen::Ref<Eigen::VectorXd> tau);
  /// \brief After addForces(t, q, v): the workspace of a controller that evaluated M(q) (factored)
  ///        and n = ID(q, v, 0, t) at that same state (a PFBL evaluated now, not held), whose
  ///        forward dynamics then needs no pass of its own; null when none did.
  const ControllerWorkspace* modelTerms() const { return model_terms_; }
  /// \brief Whether the run must stop at given instants: some controller holds its inputs
  ///        (sample_period > 0) or has a window (it switches, or freezes its set-point, there).
  bool sampled() const { return sampled_; }
  /// \brief The first stop after t: a sample instant k T (any controller's T), or the start or
  ///        end of a controller's window; +inf when none.
  double nextSampleTime(double t) const;
  /// \brief Holds the inputs of every sampled controller whose instant t is (all of them when
  ///        first), from the state (q, v) there.
  void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// \brief The model-agnostic workspace of the laws' ID and MID calls (for
  ///        ReusedBodyEvaluations around the central differences of the closed loop).
  ModelAgnosticWorkspace& lawWorkspace() { return data_.agnostic; }
  /// \brief Set-points, values and inputs at (t, q, v).
  void record(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, ControlRecord& out);

 private:
  const Eigen::VectorXd& inputsOf(std::size_t c, double t, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v);
  void addKnownForces(std::size_t c, const Eigen::VectorXd& q);
  const Model& model_;
  Data data_;
  // B u of the controllers evaluated so far at this state (the next one's known loads)
  Eigen::VectorXd known_forces_;
  std::vector<ControllerWorkspace> workspaces_;
  std::vector<Eigen::VectorXd> inputs_;  // the last evaluated, or held, inputs
  std::vector<bool> held_;               // a sampled controller's inputs are held
  bool sampled_ = false;
  const ControllerWorkspace* model_terms_ = nullptr;
};

}  // namespace tendril
