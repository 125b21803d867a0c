#include "ui/charts/nice_axis.h"

#include <QString>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace tw::ui {

double niceTickInterval(double span, int ticks) {
  const double raw = span / std::max(1, ticks);
  if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double best = magnitude;
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (std::abs(std::log(factor * magnitude / raw)) < std::abs(std::log(best / raw))) best = factor * magnitude;
  return best;
}

void setNiceRange(QValueAxis *axis, double min, double max, int ticks) {
  const double interval = niceTickInterval(max - min, ticks);
  // Interval before range: a hidden chart lays its ticks out on the range change only, so the
  // other order would keep the old interval (hundreds of ticks after a jump from 0..1 to 0..30).
  axis->setTickInterval(interval);
  axis->setTickAnchor(std::floor(min / interval) * interval);
  axis->setRange(min, max);
}

void setNiceRangeLabelled(QValueAxis *axis, double min, double max, int ticks, bool wholeNumbers) {
  double interval = niceTickInterval(max - min, ticks);
  if (wholeNumbers) interval = std::max(1.0, std::round(interval));
  axis->setTickInterval(interval);
  axis->setTickAnchor(std::floor(min / interval) * interval);
  axis->setRange(min, max);
  // A 1, 2 or 5 times 10^k interval needs max(0, -k) decimals to tell its ticks apart.
  const int decimals = interval >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(interval) - 1e-9));
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(std::clamp(decimals, 0, 9)));
}

void padRange(double *min, double *max, double fraction) {
  const double span = *max - *min;
  if (!(span > 0.0)) {  // one value: centre it in a range of its own magnitude
    const double half = std::max(std::abs(*max) * 0.1, 1e-3);
    *min -= half;
    *max += half;
    return;
  }
  *min -= fraction * span;
  *max += fraction * span;
}

}  // namespace tw::ui
