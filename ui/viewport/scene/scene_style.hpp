#pragma once
// Colours and camera directions shared by the interactive viewport, tendril-render and the image
// tests. Plain C++: no VTK, no Qt.

#include <array>

namespace tendril {

using Rgb = std::array<double, 3>;

/// \brief Colour of every soft rod (a teal used nowhere else in the scene), so that an image test
///        can find the rods by counting pixels with isRodPixel().
inline constexpr Rgb kRodColor{0.0, 0.58, 0.56};
inline constexpr Rgb kBackgroundBottom{0.96, 0.97, 0.98};
inline constexpr Rgb kBackgroundTop{0.76, 0.82, 0.89};
inline constexpr Rgb kGridColor{0.60, 0.63, 0.68};
/// \brief Contact obstacles (planes, spheres, cylinders), drawn translucent.
inline constexpr Rgb kObstacleColor{0.55, 0.60, 0.70};
/// \brief Tint added to the selected link's rods and bodies.
inline constexpr Rgb kHighlightColor{1.0, 0.78, 0.10};

/// \brief True when an 8-bit pixel looks like shaded rod colour: lighting scales the teal and
///        specular highlights add grey, so green and blue stay close and well above red.
constexpr bool isRodPixel(int red, int green, int blue) {
  const int green_blue_gap = green > blue ? green - blue : blue - green;
  return green - red > 40 && blue - red > 40 && green_blue_gap < 40;
}

/// \brief Camera directions of the View menu (z is up: gravity points along -z).
enum class ViewDirection { Front, Side, Top, Isometric };

}  // namespace tendril
