#include "ui/charts/log_axis.h"

#include <QColor>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

// 1e-3 computed as pow(10, -3) is 0.0010000000000000002; a decade's floor must not slip below it.
constexpr double kRelativeSlack = 1e-9;
constexpr double kEdge = 1e-9;

}  // namespace

double DecadeRange::low() const { return std::pow(10.0, firstExponent); }
double DecadeRange::high() const { return std::pow(10.0, lastExponent); }

DecadeRange decadeRange(double min, double max) {
  DecadeRange range;
  if (!(min > 0.0) || !(max > 0.0) || !std::isfinite(min) || !std::isfinite(max)) return range;
  if (min > max) std::swap(min, max);
  range.firstExponent = static_cast<int>(std::floor(std::log10(min) + kRelativeSlack));
  range.lastExponent = static_cast<int>(std::ceil(std::log10(max) - kRelativeSlack));
  if (range.lastExponent <= range.firstExponent) range.lastExponent = range.firstExponent + 1;
  return range;
}

QString decadeLabel(int exponent) { return QString::number(std::pow(10.0, exponent), 'g', 6); }

std::vector<LogTick> logTicks(double min, double max) {
  std::vector<LogTick> ticks;
  if (!(min > 0.0) || !(max > 0.0) || !std::isfinite(min) || !std::isfinite(max)) return ticks;
  if (min > max) std::swap(min, max);
  const DecadeRange decades = decadeRange(min, max);
  const double lowest = min * (1.0 - kRelativeSlack), highest = max * (1.0 + kRelativeSlack);
  for (int exponent = decades.firstExponent; exponent <= decades.lastExponent; ++exponent) {
    const double decade = std::pow(10.0, exponent);
    for (int multiple = 1; multiple <= 9; ++multiple) {
      const double value = multiple * decade;
      if (value < lowest || value > highest) continue;
      ticks.push_back({value, multiple == 1});
    }
  }
  return ticks;
}

void setDecadeRange(QLogValueAxis *axis, double min, double max, double marginDecades) {
  const DecadeRange decades = decadeRange(min, max);
  axis->setBase(10.0);
  // Qt spaces a log axis' minor ticks evenly in value between two powers of its base: eight of
  // them are 2, 3, ..., 9 times the decade below.
  axis->setMinorTickCount(8);
  axis->setLabelFormat(QStringLiteral("%g"));
  // At least a hair beyond the decades: Qt finds the first tick with ceil(ln(min) / ln(10)), and
  // ln(0.001) / ln(10) is -2.9999999999999996, which would drop the lowest decade's tick and label.
  // Less than a decade beyond them, so that no other decade gets a tick.
  const double factor = std::pow(10.0, std::clamp(marginDecades, 0.0, 0.5)) * (1.0 + kEdge);
  axis->setRange(decades.low() / factor, decades.high() * factor);
}

}  // namespace tw::ui
