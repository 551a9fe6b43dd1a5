#include "core/model/section.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tendril {

Vector6d SectionProperties::inertiaDiagonal() const {
  Vector6d d;
  d << Jx, Jy, Jz, area, area, area;
  return d;
}

Vector6d SectionProperties::stiffnessDiagonal(const MaterialDesc& material) const {
  const double E = material.youngs_modulus, G = shearModulus(material);
  Vector6d d;
  d << G * Jx, E * Jy, E * Jz, E * area, G * area, G * area;
  return d;
}

Vector6d SectionProperties::dampingDiagonal(const MaterialDesc& material) const {
  Vector6d d;
  d << Jx, 3.0 * Jy, 3.0 * Jz, 3.0 * area, area, area;
  return material.damping * d;
}

SectionProperties sectionProperties(const CrossSectionDesc& section, double s) {
  const auto lerp = [s](double a, double b) { return a + s * (b - a); };
  SectionProperties p;
  if (section.shape == SectionShape::Circular) {
    const double r = lerp(section.radius_start, section.radius_end);
    p.area = std::numbers::pi * r * r;
    p.Jy = p.Jz = std::numbers::pi * std::pow(r, 4) / 4.0;
    p.radius = r;
  } else {
    const double w = lerp(section.width_start, section.width_end);    // along y
    const double h = lerp(section.height_start, section.height_end);  // along z
    p.area = w * h;
    p.Jy = w * h * h * h / 12.0;  // bending about y: distance along z
    p.Jz = h * w * w * w / 12.0;
    p.radius = 0.5 * std::max(w, h);
  }
  p.Jx = p.Jy + p.Jz;
  return p;
}

double shearModulus(const MaterialDesc& material) {
  if (material.shear_modulus) return *material.shear_modulus;
  return material.youngs_modulus / (2.0 * (1.0 + material.poisson_ratio.value_or(0.5)));
}

}  // namespace tendril
