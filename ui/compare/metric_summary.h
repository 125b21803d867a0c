#pragma once
// One number per run and metric for the views that place a run at a point (parallel
// coordinates, scatter): its final value, its lowest or highest over all recorded points, or its
// best, which is the lowest or the highest by the core's one rule of a metric's direction
// (config::metrics::lowerIsBetter, the rule early stopping uses).
//
//   double v = summaryValue(run.summary, concreteStatistic(Statistic::Best, "val/loss"));  // the min

#include "core/config/metric_direction.h"

#include <cstdint>
#include <limits>
#include <string>

namespace tw::ui {

enum class Statistic { Final, Min, Max, Best };

// Best resolved for `key`: Min where lower is better, else Max; other statistics unchanged.
inline Statistic concreteStatistic(Statistic statistic, const std::string &key) {
  if (statistic != Statistic::Best) return statistic;
  return config::metrics::lowerIsBetter(key) ? Statistic::Min : Statistic::Max;
}

struct MetricSummary {
  int64_t count = 0;     // points read, finite or not
  int64_t lastStep = 0;  // step of `last`
  double last = std::numeric_limits<double>::quiet_NaN();
  double min = std::numeric_limits<double>::quiet_NaN();  // over finite values only
  double max = std::numeric_limits<double>::quiet_NaN();
};

inline double summaryValue(const MetricSummary &summary, Statistic statistic) {
  switch (statistic) {
    case Statistic::Final: return summary.last;
    case Statistic::Min: return summary.min;
    case Statistic::Max: return summary.max;
    case Statistic::Best: break;  // needs the key: concreteStatistic() first
  }
  return summary.last;
}

}  // namespace tw::ui
