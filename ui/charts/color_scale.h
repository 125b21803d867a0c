#pragma once
// A continuous colour scale for a value (a run's metric in the parallel coordinates): viridis,
// which stays ordered in lightness, in grey print and for colour-vision deficiencies, unlike a
// rainbow.
//
//   QColor c = viridis((value - lowest) / (highest - lowest));   // 0 dark blue ... 1 yellow

#include <QColor>

namespace tw::ui {

// t is clamped to [0, 1].
QColor viridis(double t);

}  // namespace tw::ui
