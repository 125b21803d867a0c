#pragma once
// Axes for the study plots, in the unit coordinates every analysis reports: a plot draws a
// point at `unit` (0..1 along the axis) and labels the axis with `ticks`, so it needs no
// knowledge of log scales, integer cells or categorical choices.

#include "core/search/space.h"

#include <string>
#include <vector>

namespace tw::search {

struct AxisTick {
  double unit = 0.0;
  std::string label;
};

struct AnalysisAxis {
  std::string label;               // the parameter's key, or the objective's name
  bool categorical = false;
  bool log = false;
  std::vector<AxisTick> ticks;     // ascending in unit
};

// A parameter's axis: unit is toUnit (space.h). Ticks at its choices (categorical), at
// decades (log; 1-2-5 within a decade when the range spans less than two), or at round
// numbers 1, 2 or 5 times a power of ten apart (about five of them; whole numbers for ints).
AnalysisAxis paramAxis(const ParamSpec &spec);

// A plain linear axis over [low, high] (the objective's), unit = (v - low) / (high - low);
// a single value sits at 0.5.
AnalysisAxis valueAxis(const std::string &label, double low, double high);
double valueAxisUnit(double value, double low, double high);

// The round step about (high - low) / count rounds to: 1, 2 or 5 times a power of ten.
double niceStep(double range, int count);

}  // namespace tw::search
