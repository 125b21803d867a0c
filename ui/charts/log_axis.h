#pragma once
// Logarithmic axes as people read them: a labelled tick at every power of ten, and minor ticks
// at 2, 3, ..., 9 times it in between. Qt Charts' QLogValueAxis labels the powers of its base
// inside its range only, so a range within one decade (0.2 .. 0.9) would show no label at all:
// the charts widen a log range to whole decades. The parallel coordinates, which paint their own
// axes, take the same ticks from logTicks().
//
//   setDecadeRange(axis, 3e-4, 0.02);   // 1e-4 .. 0.1: labels 0.0001, 0.001, 0.01, 0.1
//   logTicks(3e-4, 0.02);               // 3e-4, 4e-4, ... 9e-4, 0.001 (major), 0.002, ... 0.02

#include <QString>

#include <vector>

class QLogValueAxis;

namespace tw::ui {

// The whole decades 10^firstExponent .. 10^lastExponent covering a range, at least one.
struct DecadeRange {
  int firstExponent = 0;
  int lastExponent = 1;
  double low() const;
  double high() const;
  int decades() const { return lastExponent - firstExponent; }
};

// min and max > 0 (swapped when given the other way round); a non-positive or non-finite one
// gives 1 .. 10.
DecadeRange decadeRange(double min, double max);

// 10^exponent as the axes write it: "0.001", "1", "1000", "1e+06".
QString decadeLabel(int exponent);

struct LogTick {
  double value = 0.0;
  bool major = false;  // a power of ten, labelled
};
// The ticks 1..9 x 10^k that lie within [min, max] (a little tolerance for rounding), ascending.
std::vector<LogTick> logTicks(double min, double max);

// Base 10, minor ticks at 2..9, "%g" labels, and the range widened to whole decades, plus
// marginDecades beyond them (0.04: markers at a power of ten stay inside the frame).
void setDecadeRange(QLogValueAxis *axis, double min, double max, double marginDecades = 0.0);

}  // namespace tw::ui
