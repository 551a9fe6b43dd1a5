#pragma once
// Immutable record of everything the UI shows for one instant. Built once on the simulation
// thread (or by makeFrame for a static pose) and only ever handed around as FramePtr.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model/description.hpp"

namespace tendril {

/// \brief Centreline samples drawn inside each rod interval (between computational points).
inline constexpr int kSamplesPerInterval = 4;

/// \brief What a rod's colour map shows, per Magnus interval, from its mean strain xi = Omega / h,
///        its mean strain rate xi' = Omega' / h and the section at its middle: the internal wrench
///        is the elastic Sigma (xi - xi*) plus the viscous Upsilon xi' (Sigma = diag(G Jx, E Jy,
///        E Jz, E A, G A, G A), Upsilon = eta diag(Jx, 3 Jy, 3 Jz, 3 A, A, A), as in the dynamics).
enum class RodQuantity {
  Curvature,      ///< |(xi_1, xi_2, xi_3)| [1/m]: bending and torsion
  AxialStrain,    ///< xi_4 - xi*_4 [-]: stretch (+) or compression (-)
  BendingMoment,  ///< |(m_2, m_3)| of the internal wrench [N m]: elastic and viscous
  AxialForce,     ///< n_1 of the internal wrench [N]: elastic and viscous, tension (+)
};
inline constexpr int kRodQuantityCount = 4;

struct RodQuantityInfo {
  const char* name;  ///< for menus and legends
  const char* unit;
  bool is_signed;  ///< a colour map centred on zero, rather than from zero up
};

/// \brief Name, unit and sign convention of \p quantity.
constexpr RodQuantityInfo rodQuantityInfo(RodQuantity quantity) {
  switch (quantity) {
    case RodQuantity::Curvature:
      return {"curvature", "1/m", false};
    case RodQuantity::AxialStrain:
      return {"axial strain", "-", true};
    case RodQuantity::BendingMoment:
      return {"bending moment", "N m", false};
    case RodQuantity::AxialForce:
      return {"axial force", "N", true};
  }
  return {"", "", false};
}

/// \brief A sampled soft-rod centreline with its cross-section, in world coordinates.
struct RodShape {
  int link = -1;                              ///< index into RobotDescription::links
  std::vector<Eigen::Vector3d> points;        ///< centreline samples, base to tip
  std::vector<Eigen::Matrix3d> orientations;  ///< section frames (columns: x tangent, y, z)
  std::vector<double> radii;                  ///< circular radius, or half the larger side
  /// per interval, base to tip: the RodQuantity values (index static_cast<int>(quantity));
  /// interval k holds samples k kSamplesPerInterval + 1 ... (k + 1) kSamplesPerInterval
  std::vector<std::array<double, kRodQuantityCount>> interval_values;

  /// \brief \p quantity at centreline sample \p sample (the base sample takes the first
  ///        interval's value); 0 without intervals.
  [[nodiscard]] double value(std::size_t sample, RodQuantity quantity) const {
    if (interval_values.empty()) return 0.0;
    const std::size_t interval =
        std::min(sample == 0 ? 0 : (sample - 1) / kSamplesPerInterval, interval_values.size() - 1);
    return interval_values[interval][static_cast<int>(quantity)];
  }
};

/// \brief A rigid body's visual shape placed in the world.
struct BodyShape {
  int link = -1;
  Eigen::Isometry3d pose_W = Eigen::Isometry3d::Identity();  ///< shape frame (at the CoM) in world
  ShapeDesc shape;
};

struct Energies {
  double kinetic = 0.0, gravitational = 0.0, elastic = 0.0, dissipated = 0.0;
};

/// \brief What a sample records of the controllers, concatenated over Model::controllers in
///        order: each controlled variable's set-point and value, each written input.
struct ControlRecord {
  Eigen::VectorXd setpoints;  ///< y_d(t) per controlled variable
  Eigen::VectorXd values;     ///< y(q) per controlled variable
  Eigen::VectorXd inputs;     ///< u per written input (saturated; held ones as held)
};

struct Frame {
  std::uint64_t index = 0;           ///< monotonically increasing publish counter
  std::uint64_t model_revision = 0;  ///< changes when a new Model is loaded
  double t = 0.0;                    ///< simulation time [s]
  Eigen::VectorXd q, v;              ///< enough to restore the state (nq, nv)
  std::vector<RodShape> rods;
  std::vector<BodyShape> bodies;
  std::vector<Eigen::Vector3d> tips_W;  ///< tip position of every leaf link
  Energies energy;
  ControlRecord control;  ///< the controllers' set-points, values and inputs (empty without)
};
using FramePtr = std::shared_ptr<const Frame>;

}  // namespace tendril
