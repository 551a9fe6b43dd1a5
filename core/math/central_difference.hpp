#pragma once
// Central differences: the one place where Tendril perturbs a coordinate by +-h, evaluates a
// vector function twice and forms (f+ - f-) / 2h. Every finite-difference Jacobian of the
// engine (the references the analytical derivatives are checked against, and the Jacobians of
// the integrators and solvers when the user asks for differences) goes through it.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace tendril {

/// The perturbation of a central difference: h [units of x], or h * max(1, |x_k|) when
/// relative, which keeps the step above the rounding of large coordinates.
struct DifferenceStep {
  double h = 1e-6;
  bool relative = false;

  [[nodiscard]] double at(double x_k) const {
    return relative ? h * std::max(1.0, std::abs(x_k)) : h;
  }
};

/// \brief Column c of a central-difference Jacobian for c = 0 .. columns-1:
///        (f(x + h e_k) - f(x - h e_k)) / (2 h) with k = coordinate(c).
/// x is perturbed in place and restored exactly. evaluate(out) writes f at the current x into
/// out; store(c, quotient) receives the quotient as an Eigen expression, so the caller picks the
/// rows it keeps. Nothing is allocated once plus and minus have f's size.
template <class Coordinate, class Evaluate, class Store>
void centralDifferences(Eigen::Ref<Eigen::VectorXd> x, Eigen::Index columns,
                        Coordinate&& coordinate, DifferenceStep step, Evaluate&& evaluate,
                        Eigen::VectorXd& plus, Eigen::VectorXd& minus, Store&& store) {
  for (Eigen::Index c = 0; c < columns; ++c) {
    const Eigen::Index k = coordinate(c);
    const double x_k = x(k), h = step.at(x_k);
    x(k) = x_k + h;
    evaluate(plus);
    x(k) = x_k - h;
    evaluate(minus);
    x(k) = x_k;
    store(c, (plus - minus) / (2.0 * h));
  }
}

/// \brief The full central-difference Jacobian J = df/dx (J has f's size rows and x's size
///        columns), with the absolute step h. See centralDifferences().
template <class Evaluate>
void centralDifferenceJacobian(Eigen::Ref<Eigen::VectorXd> x, double h, Evaluate&& evaluate,
                               Eigen::VectorXd& plus, Eigen::VectorXd& minus,
                               Eigen::Ref<Eigen::MatrixXd> J) {
  centralDifferences(
      x, x.size(), [](Eigen::Index c) { return c; }, DifferenceStep{h}, evaluate, plus, minus,
      [&J](Eigen::Index c, const auto& quotient) { J.col(c) = quotient; });
}

}  // namespace tendril
