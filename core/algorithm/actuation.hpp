#pragma once
// Generalised actuation forces B(q) u(t): cables (docs/theory/gvs.md (D60)) and joint inputs.

#include <Eigen/Core>

#include "core/algorithm/data.hpp"
#include "core/model/model.hpp"

namespace tendril {

/// \brief Cable tension direction at one sample: T = nu + k x d + d' (D61), and its norm.
struct CableDirection {
  Eigen::Vector3d t = Eigen::Vector3d::UnitX();  ///< unit tangent of the cable
  double norm = 1.0;                             ///< |nu + k x d + d'| (cable stretch per unit X)
};

/// \brief Direction of a cable at one of its samples for the strain of q.
CableDirection cableDirection(const CableSample& sample,
                              const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief Length of a cable: sum over samples of w |T| (the quadrature of its arc length).
double cableLength(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q);

/// \brief v^T (d^2 l / dq^2) v of a cable: its length's acceleration at zero generalised
///        acceleration (J-dot v of the output y = l(q)), sum_i w_i (U_i v)^T (I - t t^T) (U_i v)
///        / |T_i| with U_i = dT_i/dq.
double cableLengthCurvature(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v);

/// \brief Adds one cable's generalised force at tension T [N]: tau += -T dl/dq
///        = -T sum_i w_i Phi_i^T [d~ t; t] (D60 with u = -T). With T = 1 this is the cable's column
///        of B(q), the derivative of the static residual with respect to its tension.
void addCableForces(const CompiledCable& cable, const Eigen::Ref<const Eigen::VectorXd>& q,
                    double tension, Eigen::Ref<Eigen::VectorXd> tau);

/// \brief tau = B(q) u(t). A cable of tension T >= 0 contributes -T dl/dq
///        = -T sum_i w_i Phi_i^T [d~ t; t] (D60 with u = -T, so a pulling cable bends the rod
///        toward itself and shortens it); a joint input adds its value to its coordinate. Inputs a
///        controller writes (`controlled`) are left out: the controller adds them
///        (core/sim/controllers.hpp).
/// \param[in] q generalised coordinates (dim model.nq)
/// \param[in] t time [s] at which the inputs are evaluated
/// \param[out] tau generalised actuation forces (dim model.nv), overwritten
void actuationForces(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q, double t,
                     Eigen::Ref<Eigen::VectorXd> tau);

/// \brief d(B u)/dq into data.dtau_applied_dq (nv x nq, overwritten). Cables (D63 with u = -T):
///        -T w_i Phi^T [d~; I] (I - t t^T)/|T| [d~; I]^T Phi per sample, symmetric because a cable
///        force is the gradient of T l(q); joint inputs are generalised forces (no q dependence).
void actuationJacobian(const Model& model, Data& data, const Eigen::Ref<const Eigen::VectorXd>& q,
                       double t);

}  // namespace tendril
