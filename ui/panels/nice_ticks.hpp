#pragma once
// Axis ticks a reader takes in at a glance: multiples of 1, 2 or 5 times a power of ten, about
// five per axis, each labelled with just the decimals its step needs (so 0 prints as 0, not as
// the 1e-17 of rounding, and neighbouring labels never repeat).

#include <QString>

namespace tendril {

struct NiceTicks {
  double anchor = 0.0;    ///< a tick at a multiple of the interval, at or below the range
  double interval = 1.0;  ///< 1, 2 or 5 times a power of ten
  QString label_format;   ///< printf format for QValueAxis::setLabelFormat
};

/// \brief Ticks for the range [low, high] (low < high), about \p target_count of them.
NiceTicks niceTicks(double low, double high, int target_count = 5);

}  // namespace tendril
