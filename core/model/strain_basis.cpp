#include "core/model/strain_basis.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace tendril {

void evalBasisFunctions(BasisFamily family, int order, double s,
                        Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> values) {
  assert(order >= 0 && values.size() == order + 1);
  const double x = 2.0 * s - 1.0;
  switch (family) {
    case BasisFamily::Monomial: {
      // s^i by repeated products
      values(0) = 1.0;
      for (int i = 1; i <= order; ++i) {
        values(i) = values(i - 1) * s;
      }
      break;
    }
    case BasisFamily::Legendre: {
      // bonnet recurrence (i + 1) P_{i+1} = (2i + 1) x P_i - i P_{i-1}
      values(0) = 1.0;
      if (order >= 1) {
        values(1) = x;
      }
      for (int i = 1; i < order; ++i) {
        values(i + 1) = ((2.0 * i + 1.0) * x * values(i) - i * values(i - 1)) / (i + 1.0);
      }
      break;
    }
    case BasisFamily::Chebyshev: {
      // T_{i+1} = 2x T_i - T_{i-1}
      values(0) = 1.0;
      if (order >= 1) {
        values(1) = x;
      }
      for (int i = 1; i < order; ++i) {
        values(i + 1) = 2.0 * x * values(i) - values(i - 1);
      }
      break;
    }
    case BasisFamily::Fourier: {
      // constant, then cos/sin pairs of increasing wavenumber
      values(0) = 1.0;
      for (int i = 1; i <= order; ++i) {
        const int m = (i + 1) / 2;
        const double angle = 2.0 * std::numbers::pi * m * s;
        values(i) = (i % 2 == 1) ? std::cos(angle) : std::sin(angle);
      }
      break;
    }
    case BasisFamily::Gaussian: {
      // bumps at i/k with sigma = half the spacing
      const double spacing = 1.0 / std::max(order, 1);
      const double sigma = 0.5 * spacing;
      for (int i = 0; i <= order; ++i) {
        const double centre = (order == 0) ? 0.5 : i * spacing;
        const double d = (s - centre) / sigma;
        values(i) = std::exp(-0.5 * d * d);
      }
      break;
    }
    case BasisFamily::PiecewiseConstant: {
      // indicator of the piece containing s (clamped)
      values.setZero();
      const double scaled = std::floor(s * (order + 1));
      const int piece = static_cast<int>(std::clamp(scaled, 0.0, static_cast<double>(order)));
      values(piece) = 1.0;
      break;
    }
  }
}

int strainBasisDof(const StrainBasisDesc& desc) {
  int n = 0;
  for (const int k : desc.order) {
    n += basisFunctionCount(k);
  }
  return n;
}

int strainComponentOffset(const StrainBasisDesc& desc, int component) {
  assert(component >= 0 && component < kStrainComponents);
  if (desc.order[component] < 0) {
    return -1;
  }
  int offset = 0;
  for (int r = 0; r < component; ++r) {
    offset += basisFunctionCount(desc.order[r]);
  }
  return offset;
}

void evalStrainBasis(const StrainBasisDesc& desc, double s, Eigen::Ref<Eigen::MatrixXd> Phi) {
  assert(Phi.rows() == kStrainComponents && Phi.cols() == strainBasisDof(desc));
  Phi.setZero();

  // one row per component, consecutive column blocks
  int col = 0;
  for (int r = 0; r < kStrainComponents; ++r) {
    const int count = basisFunctionCount(desc.order[r]);
    if (count == 0) {
      continue;
    }
    evalBasisFunctions(desc.family, desc.order[r], s, Phi.row(r).segment(col, count));
    col += count;
  }
}

}  // namespace tendril
