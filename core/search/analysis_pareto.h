#pragma once
// The Pareto-front plot of a two-objective study: every COMPLETE trial as a point in unit
// coordinates of the two objectives' axes, marked when no other trial dominates it
// (pareto.h's rule), for the Sweeps page and `study show`.

#include "core/search/analysis_axis.h"
#include "core/search/trial.h"

#include <string>
#include <vector>

namespace tw::search {

struct ParetoPoint {
  int number = 0;
  std::vector<double> values;  // one per objective
  double x = 0.0, y = 0.0;     // units on the first two objectives' axes
  bool onFront = false;
};

struct ParetoPlot {
  AnalysisAxis xAxis, yAxis;
  std::vector<ParetoPoint> points;  // number order
};

// `labels` names the objectives (their metrics); the plot uses the first two.
ParetoPlot paretoPlot(const std::vector<Trial> &trials, const std::vector<Direction> &directions,
                      const std::vector<std::string> &labels);

}  // namespace tw::search
