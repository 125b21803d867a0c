#pragma once
// Min/max-bucket decimation for line charts: a series of a million points draws as a few
// thousand without losing its spikes. Each bucket of consecutive points contributes its lowest
// and its highest point, in x order; the first and the last point always stay.
//
//   QList<QPointF> shown = minMaxDecimate(raw, 4000);   // raw is sorted by x

#include <QList>
#include <QPointF>

namespace tw::ui {

// Returns `points` unchanged when it has at most maxPoints; otherwise at most maxPoints points.
// maxPoints below 4 is treated as 4.
QList<QPointF> minMaxDecimate(const QList<QPointF> &points, int maxPoints);

}  // namespace tw::ui
