#include "ui/charts/decimation.h"

#include <algorithm>

namespace tw::ui {

QList<QPointF> minMaxDecimate(const QList<QPointF> &points, int maxPoints) {
  maxPoints = std::max(4, maxPoints);
  const qsizetype n = points.size();
  if (n <= maxPoints) return points;

  // The first and last points are kept apart from the buckets; each bucket yields two points.
  const qsizetype interior = n - 2;
  const qsizetype buckets = (maxPoints - 2) / 2;
  QList<QPointF> out;
  out.reserve(maxPoints);
  out.append(points.front());
  for (qsizetype b = 0; b < buckets; ++b) {
    const qsizetype begin = 1 + b * interior / buckets;
    const qsizetype end = 1 + (b + 1) * interior / buckets;
    if (begin >= end) continue;
    qsizetype lo = begin, hi = begin;
    for (qsizetype i = begin + 1; i < end; ++i) {
      if (points[i].y() < points[lo].y()) lo = i;
      if (points[i].y() > points[hi].y()) hi = i;
    }
    out.append(points[std::min(lo, hi)]);
    if (lo != hi) out.append(points[std::max(lo, hi)]);
  }
  out.append(points.back());
  return out;
}

}  // namespace tw::ui
